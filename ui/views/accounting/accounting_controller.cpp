#include "ui/views/accounting/accounting_controller.h"

namespace elab::ui {

AccountingController::AccountingController(QObject* parent)
    : ComputeController(parent), m_job(addJobSlot(QStringLiteral("accounting"), false)) {
    connect(this, &ComputeControllerBase::datasetChanged, this, [this] { setSettings(pendingSettings()); });
}

AccountingController::~AccountingController() {
    cancel();
    waitForIdle();
}

long long AccountingController::rows() const {
    if (m_applied.rows > 0)
        return m_applied.rows;
    return hasDataset() ? static_cast<long long>(dataset()->rows()) : 0;
}

bool AccountingController::upToDate() const {
    return m_curves && m_curvesSettings == m_applied && m_curvesRows == rows();
}

void AccountingController::applySettings(const AccountingSettings& next) {
    m_applied = next;
    if (rows() <= 0) {
        setLastError(tr("load a dataset, or set the training rows N"));
        emit stateChanged();
        updateBusy();
        return;
    }
    if (std::string e = next.inputs(rows()).validate(); !e.empty()) {
        setLastError(QString::fromStdString(e));
        emit stateChanged();
        updateBusy();
        return;
    }
    setLastError({});
    if (!upToDate())
        start();
    updateBusy();
}

void AccountingController::start() {
    const AccountingSettings s = m_applied;
    const long long n = rows();
    m_job->start(tr("Privacy accounting"), [this, s, n](JobContext& job) -> std::function<void()> {
        auto curves = std::make_shared<const core::AccountingCurves>(core::accountingCurves(s.inputs(n), job.run().stopToken()));
        if (curves->stopped)
            throw core::Cancelled();
        return [this, curves, s, n] {
            m_curves = curves;
            m_curvesSettings = s;
            m_curvesRows = n;
            emit stateChanged();
        };
    });
}

} // namespace elab::ui
