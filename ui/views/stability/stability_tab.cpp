#include "ui/views/stability/stability_tab.h"

#include "ui/dataset/loaded_dataset.h"
#include "ui/views/stability/stability_controller.h"
#include "ui/views/stability/stability_export.h"
#include "ui/views/stability/stability_settings_json.h"
#include "ui/views/stability/stability_view.h"

namespace elab::ui {

StabilityTab::StabilityTab(QWidget* parent)
    : m_controller(new StabilityController(parent)), m_view(new StabilityView(m_controller, parent)) {}

QWidget* StabilityTab::widget() { return m_view; }
ComputeControllerBase* StabilityTab::controller() { return m_controller; }

void StabilityTab::prepareDataset(const LoadedDataset& loaded) {
    m_view->setDatasetName(QString::fromStdString(loaded.data->name));
}

void StabilityTab::setDataset(const LoadedDataset& loaded) {
    m_shown = loaded.data;
    m_shownTest = loaded.test;
}

void StabilityTab::becameCurrent() {
    if (m_shown && (m_controller->dataset() != m_shown || m_controller->testDataset() != m_shownTest))
        m_controller->setDataset(m_shown, m_shownTest);
}

void StabilityTab::saveSettings(Session& session) const { storeStabilitySettings(session, m_view->settings()); }
void StabilityTab::restoreSettings(const Session& session) { m_view->applySettings(stabilitySettingsOf(session)); }

QList<ViewFigure> StabilityTab::figures() const {
    // Two charts: NAME-test-error.EXT and NAME-marginal-error.EXT, each with CSV and sidecar.
    const StabilityController* controller = m_controller;
    auto sidecar = [controller](const Session& session, const QString& file) {
        return stabilitySidecarJson(session, controller->state(), file);
    };
    return {{QStringLiteral("-test-error"), m_view->chartData(0), sidecar},
            {QStringLiteral("-marginal-error"), m_view->chartData(1), sidecar}};
}

bool StabilityTab::complete() const { return m_controller->state().complete; }

ViewType stabilityViewType() {
    ViewType type;
    type.id = QStringLiteral("stability");
    type.title = QObject::tr("Stability");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost&) { return std::make_unique<StabilityTab>(parent); };
    // Sessions saved before the stability view existed open with its defaults.
    keepSettingsInSession(type, [](const nlohmann::json& j) { (void)detail::stabilitySettingsFromJson(j); });
    // Kept as the view writes it (its key order), so that a block read back compares equal.
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storeStabilitySettings(s, detail::stabilitySettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
