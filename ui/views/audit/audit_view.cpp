#include "ui/views/audit/audit_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/audit/audit_chart_model.h"
#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_panel.h"
#include "ui/views/audit/audit_text.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/note_label.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace elab::ui {

AuditView::AuditView(AuditController* controller, AuditPanel* panel, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_panel(panel) {
    m_slider = new EpsSlider(this);
    m_scoreChart = new charts::ChartView(this);
    m_scoreChart->setMinimumSize(420, 340);
    m_boundChart = new charts::ChartView(this);
    m_boundChart->setMinimumSize(380, 340);
    m_verdict = noteLabel(this, "auditVerdict");
    QFont big = m_verdict->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_verdict->setFont(big);
    m_details = noteLabel(this, "auditDetails");
    m_details->setTextFormat(Qt::RichText);
    m_table = noteLabel(this, "auditTable");
    m_table->setTextFormat(Qt::RichText);
    m_status = noteLabel(this, "auditStatus");
    m_status->setStyleSheet(QStringLiteral("color: #555;"));
    m_rerun = new QPushButton(tr("Audit again"), this);
    m_rerun->setObjectName(QStringLiteral("auditRerunButton"));
    m_rerun->setToolTip(tr("Run the same audit again (same seed: the same numbers)"));
    m_assumptions = noteLabel(this, "auditAssumptions");
    m_assumptions->setText(auditAssumptions(m_panel->settings().method));
    m_assumptions->setStyleSheet(QStringLiteral("color: #555;"));

    auto* charts = new QHBoxLayout;
    charts->addWidget(m_scoreChart, 1);
    charts->addWidget(m_boundChart, 1);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_rerun);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_details, 1);
    bottom->addWidget(m_table, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_slider);
    layout->addLayout(charts, 1);
    layout->addWidget(m_verdict);
    layout->addLayout(bottom);
    layout->addLayout(statusRow);
    layout->addWidget(m_assumptions);

    // An audit is hundreds of fits: it starts when the handle is released or ε is typed.
    connect(m_slider, &EpsSlider::epsChanged, this, [this](double eps, bool dragging) {
        m_panel->setCurrentEps(std::isfinite(eps) ? eps : m_panel->settings().currentEps);
        if (!dragging)
            pushSettings();
        refreshStatus();
    });
    connect(m_slider, &EpsSlider::dragFinished, this, [this](double) { pushSettings(); });
    connect(m_panel, &AuditPanel::settingsChanged, this, &AuditView::pushSettings);
    connect(m_rerun, &QPushButton::clicked, m_controller, &AuditController::recompute);
    connect(m_controller, &AuditController::stateChanged, this, &AuditView::refresh);
    connect(m_controller, &AuditController::busyChanged, this, &AuditView::refreshStatus);
    m_slider->setEps(m_panel->settings().currentEps);
    refresh();
}

AuditSettings AuditView::composedSettings() const {
    AuditSettings s = m_panel->settings();
    s.currentEps = m_slider->eps(); // ∞ is refused by validate(): nothing to audit
    return s;
}

void AuditView::applySettings(const AuditSettings& settings) {
    m_applying = true;
    m_panel->setSettings(settings);
    m_slider->setEps(settings.currentEps);
    m_applying = false;
    pushSettings();
}

void AuditView::pushSettings() {
    if (!m_applying)
        m_controller->setSettings(composedSettings());
}

charts::ChartData AuditView::scoreChart() const {
    return buildScoreChart(m_controller->settings(), m_controller->state());
}
charts::ChartData AuditView::boundChart() const {
    return buildBoundChart(m_controller->settings(), m_controller->state());
}
QString AuditView::verdictText() const { return m_verdict->text(); }
QString AuditView::detailsText() const { return m_details->text(); }
QString AuditView::tableText() const { return m_table->text(); }

void AuditView::refresh() {
    const AuditState& state = m_controller->state();
    m_scoreChart->setData(scoreChart());
    m_boundChart->setData(boundChart());
    const QString verdict = auditVerdictText(state);
    m_verdict->setText(verdict.isEmpty() ? QString() : verdict.left(1).toUpper() + verdict.mid(1));
    const bool violated = (state.result && state.result->violated()) || (state.oneRun && state.oneRun->violated()) ||
                          (state.whitebox && state.whitebox->violated());
    setStyleSheetIfChanged(m_verdict, violated ? QStringLiteral("color: #b01e1e;") : QStringLiteral("color: #2c8a3c;"));
    m_assumptions->setText(auditAssumptions(m_controller->settings().method));
    m_details->setText(auditDetailsHtml(m_controller->settings(), state));
    m_table->setText(auditTableHtml(state));
    m_table->setVisible(!state.rows.empty());
    refreshStatus();
    emit redrawn();
}

void AuditView::refreshStatus() {
    const bool problem = !m_controller->lastError().isEmpty();
    if (problem != m_statusIsProblem) {
        m_statusIsProblem = problem;
        m_status->setStyleSheet(problem ? QStringLiteral("color: #b01e1e;") : QStringLiteral("color: #555;"));
    }
    QString text;
    if (problem)
        text = tr("Problem: %1").arg(m_controller->lastError());
    else if (!m_controller->hasDataset())
        text = tr("Load a classification dataset to audit a mechanism on it.");
    else if (m_controller->isBusy())
        text = tr("Auditing… (progress and Cancel in the status bar)");
    else if (m_controller->settings().currentEps != m_slider->eps())
        text = tr("Release the slider to audit at the new ε.");
    else if (!m_controller->upToDate())
        text = tr("Stopped before the runs finished: no verdict. “Audit again” runs it.");
    m_status->setText(text);
}

} // namespace elab::ui
