#include "ui/views/utility/utility_export.h"
#include "ui/views/utility/utility_settings_json.h"

#include "ui/session/session_json.h"

#include "core/privacy/composition.h"
#include "core/report/result_json.h"

#include <cmath>

namespace elab::ui {

namespace {

using Ordered = nlohmann::ordered_json;

using detail::jsonNumber;

Ordered results(const UtilitySettings& settings, const UtilityState& state) {
    Ordered r;
    Ordered grid = Ordered::array(), mean = Ordered::array(), sd = Ordered::array();
    for (std::size_t g = 0; g < state.grid.size(); ++g) {
        grid.push_back(state.grid[g]);
        const auto& p = g < state.points.size() ? state.points[g] : std::nullopt;
        mean.push_back(p ? jsonNumber(p->mean) : Ordered());
        sd.push_back(p ? jsonNumber(p->sd) : Ordered());
    }
    r["grid"] = grid;
    r["measured"] = {{"mean", mean}, {"std", sd}, {"complete", state.sweepComplete}};
    const bool higherIsBetter = !core::isLossMetric(settings.metric);
    r["monotonicity"] = core::monotonicityJson(state.monotonicity(settings.metric), higherIsBetter);
    r["privacy_by_eps"] = core::privacyByEpsJson(state.grid, state.guarantees, state.models);
    r["nonprivate"] = state.nonPrivate ? jsonNumber(*state.nonPrivate) : Ordered();
    if (!state.trainLossBound.empty()) {
        Ordered bound = Ordered::array();
        for (double v : state.trainLossBound)
            bound.push_back(jsonNumber(v));
        r["train_loss_bound"] = bound; // MATH.md §4.5: E[training loss] ≤ this, per grid ε
    }
    Ordered estimates = Ordered::array();
    if (settings.estimatesApply())
        for (const auto& fit : state.measuring)
            for (core::Estimator e : settings.estimators) {
                Ordered values = Ordered::array();
                for (double eps : state.grid)
                    values.push_back(jsonNumber(core::meanEstimate(fit, e, eps)));
                estimates.push_back(
                    {{"measure_at", fit.measureAt}, {"estimator", core::toString(e)}, {"values", values}});
            }
    r["estimates"] = estimates;
    if (state.probe)
        r["current"] = {{"eps", std::isinf(state.probe->eps) ? Ordered("inf") : Ordered(state.probe->eps)},
                        {"mean", jsonNumber(state.probe->mean)},
                        {"std", jsonNumber(state.probe->sd)},
                        {"repeats", state.probe->repeats}};
    if (state.verification) {
        Ordered steps = Ordered::array();
        for (const auto& s : state.verification->steps)
            steps.push_back(
                {{"eps", s.eps}, {"measured", jsonNumber(s.measured)}, {"meets", s.meets}, {"trainings", s.trainings}});
        r["verification"] = {{"target", state.verifiedTarget},
                             {"steps", steps},
                             {"chosen_eps", jsonNumber(state.verification->chosenEps)}};
    }
    return r;
}

} // namespace

QByteArray sidecarJson(const Session& session, const UtilityState& state, const QString& figureFile) {
    Ordered j = detail::sessionJson(session);
    Ordered e = detail::exportHeader(figureFile);
    if (state.data) {
        // The CLI's provenance (core/report); "processing" (the training set's log) as before.
        Ordered data = core::preparedDataJson(state.data->train, state.data->test ? &*state.data->test : nullptr);
        data["processing"] = core::processingLogJson(state.data->train);
        e["data"] = data;
    }
    const core::SeedMode seedMode =
        utilitySettingsOf(session).secretSeed ? core::SeedMode::SecretRelease : core::SeedMode::Reproducible;
    e["guarantee_at_max_eps"] = core::guaranteeJson(core::withSeedMode(state.guaranteeAtMax, seedMode));
    if (state.verification && !state.verification->guarantee.notion.empty()) // carries "ε was chosen by looking at …"
        e["guarantee_at_chosen_eps"] = core::guaranteeJson(core::withSeedMode(state.verification->guarantee, seedMode));
    e["results"] = results(utilitySettingsOf(session), state);
    j["export"] = e;
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QStringList exportFigure(const charts::ChartData& chart, const Session& session, const UtilityState& state,
                         const FigureExport& request, QString* error) {
    return writeFigure(chart, request.withSidecar ? sidecarJson(session, state, request.path) : QByteArray(), request,
                       error);
}

} // namespace elab::ui
