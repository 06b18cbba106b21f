#include "ui/views/audit/audit_tab.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_export.h"
#include "ui/views/audit/audit_panel.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/audit/audit_view.h"
#include "ui/views/shared_state.h"

#include <cmath>
#include <utility>

namespace elab::ui {

AuditTab::AuditTab(QWidget* parent, ViewHost& host)
    : m_shared(host.sharedState()), m_controller(new AuditController(parent)), m_panel(new AuditPanel(parent)),
      m_view(new AuditView(m_controller, m_panel, parent)) {
    QObject::connect(m_controller, &AuditController::failed, m_view, [&host](const QString& message) {
        host.showStatusMessage(QObject::tr("Privacy audit: %1").arg(message), 8000);
    });
}

QWidget* AuditTab::widget() { return m_view; }
QWidget* AuditTab::sidePanel() { return m_panel; }
ComputeControllerBase* AuditTab::controller() { return m_controller; }

void AuditTab::prepareDataset(const LoadedDataset& loaded) {
    m_shown = loaded.data; // a session may show this tab before setDataset()
    m_shownTest = loaded.test;
    m_panel->setDataset(*loaded.data);
}

void AuditTab::setDataset(const LoadedDataset& loaded) {
    m_shown = loaded.data;
    m_shownTest = loaded.test;
}

void AuditTab::becameCurrent() {
    if (!std::exchange(m_mechanismChosen, true)) // the first showing: from the Utility tab's mechanism
        startFromUtilityMechanism(m_shared, *m_view);
    if (!m_shown || (m_controller->dataset() == m_shown && m_controller->testDataset() == m_shownTest))
        return;
    m_controller->setSettings(m_view->composedSettings());
    m_controller->setDataset(m_shown, m_shownTest);
}

void AuditTab::applyStartOptions(const StartOptions& options) {
    if (options.mechanism)
        m_mechanismChosen = true;
    AuditSettings settings = m_view->composedSettings();
    if (options.mechanism && core::mechanismInfo(*options.mechanism).isPrivate)
        core::selectMechanism(settings.mechanism, *options.mechanism);
    if (options.eps) // ∞ too: the view shows why it has nothing to compute there
        settings.currentEps = *options.eps;
    m_view->applySettings(settings);
}

void AuditTab::saveSettings(Session& session) const { storeAuditSettings(session, m_view->composedSettings()); }

void AuditTab::restoreSettings(const Session& session) {
    if (const auto settings = auditSettingsOf(session)) {
        m_mechanismChosen = true;
        m_view->applySettings(*settings);
    }
}

QList<ViewFigure> AuditTab::figures() const {
    const AuditController* controller = m_controller;
    auto sidecar = [controller](const Session& session, const QString& file) {
        return auditSidecarJson(session, controller->settings(), controller->state(), controller->dataset().get(),
                                file);
    };
    return {ViewFigure{QStringLiteral("-scores"), m_view->scoreChart(), sidecar,
                       [controller] { return auditScoresCsv(controller->state()); }},
            ViewFigure{QStringLiteral("-bound"), m_view->boundChart(), sidecar}};
}

bool AuditTab::complete() const { return m_controller->upToDate(); }

ViewType auditViewType() {
    ViewType type;
    type.id = QStringLiteral("audit");
    type.title = QObject::tr("Privacy audit");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<AuditTab>(parent, host); };
    keepSettingsInSession(type, [](const nlohmann::json& block) { (void)detail::auditSettingsFromJson(block); });
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storeAuditSettings(s, detail::auditSettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
