#include "ui/views/accounting/accounting_controller.h"

#include "ui/views/accounting/accounting_chart_model.h"

#include <cmath>
#include <utility>

namespace elab::ui {

AccountingController::AccountingController(QObject* parent)
    : ComputeController(parent), m_job(addJobSlot(QStringLiteral("accounting"), false)),
      m_readout(addJobSlot(QStringLiteral("accounting readout"), false)) {
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
    return m_curves && m_curvesSettings == m_applied && m_curvesRows == rows() && m_costsVersion == m_sweepVersion;
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
    // A change of ε or accountant only (a slider step) waits for the running computation, whose
    // delivery then starts the latest; the delivery also restarts if the curves it brings are not
    // the applied settings' (e.g. the slider went back to the curves shown meanwhile).
    if (!upToDate() && !(core::sameSigmaCurves(m_running, next.inputs(rows())) && holdWhileRunning(m_job)))
        start();
    updateBusy();
}

void AccountingController::requestReadout(double sigma) {
    const std::shared_ptr<const core::AccountingCurves> curves = m_curves;
    if (!curves || !(sigma > 0.0) || !std::isfinite(sigma))
        return;
    m_readout->start(tr("Accounting at σ = %1").arg(sigma),
                     [this, curves, sigma](JobContext&) -> std::function<void()> {
                         const QString text = accountingReadout(*curves, sigma);
                         return [this, sigma, text] { emit readoutReady(sigma, text); };
                     });
}

void AccountingController::setSweep(std::optional<SweepForCost> sweep) {
    if (sweep == m_sweep)
        return;
    m_sweep = std::move(sweep);
    ++m_sweepVersion;
    if (m_curves && lastError().isEmpty())
        start();
    updateBusy();
}

void AccountingController::start() {
    const AccountingSettings s = m_applied;
    const long long n = rows();
    const std::optional<SweepForCost> sweep = m_sweep;
    const int version = m_sweepVersion;
    m_running = s.inputs(n);
    m_job->start(tr("Privacy accounting"),
                 [this, s, n, sweep, version, previous = m_curves](JobContext& job) -> std::function<void()> {
                     auto curves = std::make_shared<const core::AccountingCurves>(
                         core::accountingCurves(s.inputs(n), job.run().stopToken(), previous.get()));
                     if (curves->stopped)
                         throw core::Cancelled();
                     std::vector<core::UtilityCost> costs;
                     if (sweep)
                         for (core::AccountantKind kind : core::kAccountants)
                             costs.push_back(core::utilityCost(sweep->curve, sweep->accountant, sweep->schedule, kind,
                                                               s.currentEps, sweep->higherIsBetter, sweep->nPublic));
                     return [this, curves, s, n, costs = std::move(costs), version] {
                         m_curves = curves;
                         m_curvesSettings = s;
                         m_curvesRows = n;
                         m_costs = costs;
                         m_costsVersion = version;
                         emit stateChanged();
                         takeHeld();
                         if (!upToDate())
                             start();
                         updateBusy();
                     };
                 });
}

} // namespace elab::ui
