#include "ui/views/utility/utility_tab.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "ui/dataset/loaded_dataset.h"
#include "ui/jobs/job_slot.h"
#include "ui/views/shared_state.h"
#include "ui/views/utility/training_controller.h"
#include "ui/views/utility/training_panel.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_export.h"
#include "ui/views/utility/utility_settings_json.h"
#include "ui/views/utility/utility_view.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/mechanism_panel.h"

#include <cmath>
#include <limits>

namespace elab::ui {

namespace {

/// What other views read of this one: the applied settings and the measured means.
UtilitySweepSnapshot snapshotOf(const UtilityController& controller) {
    const UtilityState& state = controller.state();
    UtilitySweepSnapshot sweep;
    sweep.settings = controller.settings();
    sweep.prepared = state.data != nullptr;
    if (state.data)
        sweep.trainRows = static_cast<long long>(state.data->train.rows());
    sweep.eps = state.grid;
    sweep.mean.assign(state.grid.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < state.grid.size() && i < state.points.size(); ++i)
        if (state.points[i])
            sweep.mean[i] = state.points[i]->mean;
    return sweep;
}

} // namespace

UtilityTab::UtilityTab(QWidget* parent, ViewHost& host)
    : m_controller(new UtilityController(parent)), m_panel(new MechanismPanel(parent)),
      m_view(new UtilityView(m_controller, m_panel, parent)), m_training(new TrainingController(m_controller)),
      m_trainingPanel(new TrainingPanel(m_training, m_view)) {
    QObject::connect(m_controller, &UtilityController::failed, m_view, [&host](const QString& message) {
        host.showStatusMessage(QObject::tr("Utility view: %1").arg(message), 8000);
    });
    m_view->addBelowChart(m_trainingPanel);
    for (JobSlot* slot : m_training->jobSlots())
        m_controller->adoptJobSlot(slot, true); // busy/idle, Cancel and progress with the tab's other jobs
    // A mechanism that trains in epochs (DP-SGD): its run at the slider's ε, once the slider rests.
    // The training controller is the utility controller's child and the view is the context, so
    // nothing here outlives what it touches (the tab itself is not captured).
    UtilityController* controller = m_controller;
    UtilityView* view = m_view;
    TrainingController* training = m_training;
    const auto request = [controller, view, training] {
        const UtilitySettings& s = controller->settings();
        training->request(controller->state().problem, view->slider()->eps(), s.seed, s.mechanism.sgd.epochs);
    };
    // A new problem (the sweep prepared) or seed; not while the handle is held: each step would
    // restart the run, beside the drag's probes (the release requests it).
    QObject::connect(m_controller, &UtilityController::stateChanged, m_view, [controller, request] {
        if (!controller->dragging())
            request();
    });
    QObject::connect(m_view->slider(), &EpsSlider::epsChanged, m_view, [request](double, bool dragging) {
        if (!dragging)
            request();
    });
    QObject::connect(m_view->slider(), &EpsSlider::dragFinished, m_view, [request](double) { request(); });
    // Published for the other views; the shared state is the context, so nothing here outlives it.
    if (SharedState* shared = host.sharedState()) {
        shared->publishUtilitySweep(snapshotOf(*controller));
        QObject::connect(m_controller, &UtilityController::stateChanged, shared,
                         [controller, shared] { shared->publishUtilitySweep(snapshotOf(*controller)); });
    }
}

QWidget* UtilityTab::widget() { return m_view; }
QWidget* UtilityTab::sidePanel() { return m_panel; }
ComputeControllerBase* UtilityTab::controller() { return m_controller; }

void UtilityTab::prepareDataset(const LoadedDataset& loaded) {
    const core::Dataset& d = *loaded.data;
    const bool regression = d.targets.kind == core::TaskKind::Regression;
    QStringList classes;
    for (const auto& name : d.targets.classNames)
        classes << QString::fromStdString(name);
    const UtilitySettings settings = m_view->composedSettings();
    // With a test file every row of the dataset trains; else the held-out fraction does not.
    const double heldOut = loaded.test ? 0.0 : settings.testFraction;
    const auto trainRows = static_cast<long long>(static_cast<double>(d.rows()) * (1.0 - heldOut));
    m_panel->setDataShape(trainRows, d.featureCount(), d.targets.kind == core::TaskKind::Multiclass, classes,
                          regression, core::pipelineFacts(d));
    m_view->setDatasetName(QString::fromStdString(d.name));
}

void UtilityTab::setDataset(const LoadedDataset& loaded) {
    m_view->pushSettingsNow();
    m_controller->setDataset(loaded.data, loaded.test);
}

void UtilityTab::applyStartOptions(const StartOptions& options) {
    UtilitySettings settings = m_view->composedSettings();
    if (options.mechanism)
        core::selectMechanism(settings.mechanism, *options.mechanism);
    if (options.eps)
        settings.currentEps = *options.eps;
    if (options.target)
        settings.target = options.target;
    if (!options.compareWith.empty()) {
        settings.compareWith.clear();
        for (core::MechanismKind kind : options.compareWith)
            if (kind != settings.mechanism.kind)
                settings.compareWith.push_back(kind);
    }
    m_view->applySettings(settings);
}

void UtilityTab::saveSettings(Session& session) const { storeUtilitySettings(session, m_view->composedSettings()); }
void UtilityTab::restoreSettings(const Session& session) { m_view->applySettings(utilitySettingsOf(session)); }

QList<ViewFigure> UtilityTab::figures() const {
    const UtilityController* controller = m_controller;
    ViewFigure figure{QString(), m_view->chartData(), [controller](const Session& session, const QString& file) {
                          return sidecarJson(session, controller->state(), file);
                      }};
    if (!controller->settings().compareWith.empty()) // long format, a row per mechanism and grid ε
        figure.csv = [controller] { return comparisonCsv(controller->settings(), controller->state()); };
    return {figure};
}

bool UtilityTab::complete() const {
    const UtilityState& state = m_controller->state();
    const double eps = m_controller->settings().currentEps;
    for (const ComparedState& c : state.compared) // the ranked readout measured at the slider's ε
        if (c.problem && c.complete && std::isfinite(eps) && !(c.probe && c.probe->eps == eps))
            return false;
    return state.sweepComplete && state.comparisonComplete() && m_training->complete();
}

ViewType utilityViewType() {
    ViewType type;
    type.id = QStringLiteral("utility");
    type.title = QObject::tr("Utility vs ε");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<UtilityTab>(parent, host); };
    keepSettingsInSession(type, [](const nlohmann::json& j) { (void)detail::utilitySettingsFromJson(j); });
    // Kept as the view writes it (its key order), so that a block read back compares equal.
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storeUtilitySettings(s, detail::utilitySettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
