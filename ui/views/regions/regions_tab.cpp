#include "ui/views/regions/regions_tab.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/regions/regions_export.h"
#include "ui/views/regions/regions_panel.h"
#include "ui/views/regions/regions_settings_json.h"
#include "ui/views/regions/regions_view.h"
#include "ui/views/shared_state.h"

#include <utility>

namespace elab::ui {

namespace {
const QString kRegionsId = QStringLiteral("regions");
}

RegionsTab::RegionsTab(QWidget* parent, ViewHost& host)
    : m_shared(host.sharedState()), m_controller(new RegionsController(parent)), m_panel(new RegionsPanel(parent)),
      m_view(new RegionsView(m_controller, m_panel, parent)) {
    QObject::connect(m_controller, &RegionsController::failed, m_view, [&host](const QString& message) {
        host.showStatusMessage(QObject::tr("Decision regions: %1").arg(message), 8000);
    });
}

QWidget* RegionsTab::widget() { return m_view; }
QWidget* RegionsTab::sidePanel() { return m_panel; }
ComputeControllerBase* RegionsTab::controller() { return m_controller; }

void RegionsTab::prepareDataset(const LoadedDataset& loaded) {
    // Kept now: a session shows this tab (becameCurrent) before setDataset() is called.
    m_shown = loaded.data;
    m_shownTest = loaded.test;
    m_panel->setDataset(*loaded.data); // its teaching plane; a session's settings come after
    m_view->setDatasetName(QString::fromStdString(loaded.data->name));
}

void RegionsTab::setDataset(const LoadedDataset& loaded) {
    m_shown = loaded.data;
    m_shownTest = loaded.test;
}

void RegionsTab::becameCurrent() {
    if (!std::exchange(m_mechanismChosen, true)) // the first showing: from the Utility tab's mechanism
        startFromUtilityMechanism(m_shared, *m_view);
    if (!m_shown || (m_controller->dataset() == m_shown && m_controller->testDataset() == m_shownTest))
        return;
    m_view->pushSettingsNow(); // the new dataset's plane, before the controller applies any
    m_controller->setDataset(m_shown, m_shownTest);
}

void RegionsTab::applyStartOptions(const StartOptions& options) {
    if (options.mechanism)
        m_mechanismChosen = true;
    RegionsSettings settings = m_view->composedSettings();
    if (options.mechanism)
        core::selectMechanism(settings.mechanism, *options.mechanism);
    if (options.eps)
        settings.currentEps = *options.eps;
    m_view->applySettings(settings);
}

void RegionsTab::saveSettings(Session& session) const { storeRegionsSettings(session, m_view->composedSettings()); }

void RegionsTab::restoreSettings(const Session& session) {
    if (const auto settings = regionsSettingsOf(session)) {
        m_mechanismChosen = true;
        m_view->applySettings(*settings);
    }
    // else an older session: the dataset's teaching defaults stay
}

QList<ViewFigure> RegionsTab::figures() const {
    const RegionsController* controller = m_controller;
    ViewFigure figure{QString(), m_view->chartData(),
                      [controller](const Session& session, const QString& file) {
                          return regionsSidecarJson(session, controller->settings(), controller->state(),
                                                    controller->dataset().get(), file);
                      },
                      [controller] { return regionsCsv(controller->state()); }};
    return {figure};
}

bool RegionsTab::complete() const { return m_controller->upToDate(); }

ViewType regionsViewType() {
    ViewType type;
    type.id = kRegionsId;
    type.title = QObject::tr("Decision regions");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<RegionsTab>(parent, host); };
    keepSettingsInSession(type, [](const nlohmann::json& block) { (void)detail::regionsSettingsFromJson(block); });
    // Kept as the view writes it (its key order), so that a block read back compares equal.
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storeRegionsSettings(s, detail::regionsSettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
