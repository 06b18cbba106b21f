#include "ui/views/ptr/ptr_tab.h"

#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/session/session_json.h"
#include "ui/views/ptr/ptr_chart_model.h"
#include "ui/views/ptr/ptr_controller.h"
#include "ui/views/ptr/ptr_view.h"

#include "core/privacy/composition.h"
#include "core/report/result_json.h"

#include <cmath>

namespace elab::ui {

namespace {

nlohmann::ordered_json ptrJson(const PtrSettings& s, const PtrState& state, const core::Dataset* dataset) {
    nlohmann::ordered_json j;
    if (!state.data)
        return j;
    const core::PtrStatistic& st = state.data->statistic;
    j["binarise_at"] = state.binarisedAt;
    j["rows"] = st.rows;
    j["lambda"] = st.lambda;
    j["lambda_feature"] = dataset ? dataset->featureName(st.argmin) : std::to_string(st.argmin);
    if (state.release) {
        const core::PtrRelease& r = *state.release;
        j["eps"] = state.eps;
        j["threshold"] = r.threshold;
        j["noisy_lambda"] = r.noisyLambda;
        j["passed"] = r.passed;
        j["released_feature"] = r.feature >= 0 && dataset ? nlohmann::ordered_json(dataset->featureName(r.feature))
                                                          : nlohmann::ordered_json();
        j["pass_probability"] = core::ptrPassProbability(st.lambda, state.eps, s.delta, st.rows);
        j["pass_fraction"] = state.passFraction;
        j["runs"] = state.runs;
        const core::PrivacyGuarantee g = core::ptrGuarantee(state.eps, s.delta);
        j["guarantee"] = core::guaranteeJson(dataset ? core::withPipeline(g, core::pipelineFacts(*dataset)) : g);
    }
    return j;
}

} // namespace

PtrTab::PtrTab(QWidget* parent, ViewHost& host)
    : m_controller(new PtrController(parent)), m_panel(new PtrPanel(parent)),
      m_view(new PtrView(m_controller, m_panel, parent)) {
    QObject::connect(m_controller, &PtrController::failed, m_view, [&host](const QString& message) {
        host.showStatusMessage(QObject::tr("Private dropout: %1").arg(message), 8000);
    });
}

QWidget* PtrTab::widget() { return m_view; }
QWidget* PtrTab::sidePanel() { return m_panel; }
ComputeControllerBase* PtrTab::controller() { return m_controller; }

void PtrTab::setDataset(const LoadedDataset& loaded) { m_controller->setDataset(loaded.data); }

void PtrTab::applyStartOptions(const StartOptions& options) {
    PtrSettings s = m_view->composedSettings();
    if (options.eps) // ∞ too: the view shows why it has nothing to compute there
        s.currentEps = *options.eps;
    m_view->applySettings(s);
}

void PtrTab::saveSettings(Session& session) const { storePtrSettings(session, m_view->composedSettings()); }

void PtrTab::restoreSettings(const Session& session) {
    if (const auto s = ptrSettingsOf(session))
        m_view->applySettings(*s);
}

QList<ViewFigure> PtrTab::figures() const {
    const PtrController* controller = m_controller;
    auto sidecar = [controller](const Session& session, const QString& file) {
        nlohmann::ordered_json j = detail::sessionJson(session);
        nlohmann::ordered_json e = detail::exportHeader(file);
        e["ptr"] = ptrJson(controller->settings(), controller->state(), controller->dataset().get());
        j["export"] = e;
        return QByteArray::fromStdString(j.dump(2) + "\n");
    };
    return {ViewFigure{QStringLiteral("-pass-probability"), m_view->passChart(), sidecar},
            ViewFigure{QStringLiteral("-threshold"), m_view->thresholdChart(), sidecar}};
}

bool PtrTab::complete() const { return m_controller->upToDate(); }

ViewType ptrViewType() {
    ViewType type;
    type.id = QStringLiteral("ptr");
    type.title = QObject::tr("Private dropout (PTR)");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<PtrTab>(parent, host); };
    keepSettingsInSession(type, [](const nlohmann::json& block) { (void)detail::ptrSettingsFromJson(block); });
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storePtrSettings(s, detail::ptrSettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
