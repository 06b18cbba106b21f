#include "ui/views/utility/utility_export.h"
#include "ui/views/utility/utility_settings_json.h"

#include "ui/charts/chart_csv.h"
#include "ui/session/session_json.h"

#include "core/privacy/composition.h"
#include "core/report/result_json.h"
#include "core/sweeps/mechanism_comparison.h"

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
    if (!state.compared.empty()) { // the compared mechanisms, on the same grid and seeds
        Ordered compared = Ordered::array();
        for (std::size_t i = 0; i < state.compared.size(); ++i) {
            const ComparedState& c = state.compared[i];
            Ordered cMean = Ordered::array(), cSd = Ordered::array();
            for (const auto& p : c.points) {
                cMean.push_back(p ? jsonNumber(p->mean) : Ordered());
                cSd.push_back(p ? jsonNumber(p->sd) : Ordered());
            }
            Ordered m = {{"mechanism", core::toString(c.kind)},
                         {"measured", {{"mean", cMean}, {"std", cSd}, {"complete", c.complete}}},
                         {"nonprivate", c.nonPrivate ? jsonNumber(*c.nonPrivate) : Ordered()},
                         {"error", c.error.empty() ? Ordered() : Ordered(c.error)}};
            if (c.probe)
                m["current"] = {{"eps", std::isinf(c.probe->eps) ? Ordered("inf") : Ordered(c.probe->eps)},
                                {"mean", jsonNumber(c.probe->mean)},
                                {"std", jsonNumber(c.probe->sd)}};
            compared.push_back(m);
        }
        r["compared"] = compared;
        if (!state.targetEps.empty()) { // the main mechanism first, then the compared ones
            Ordered targetEps = Ordered::array();
            std::vector<std::optional<double>> verified;
            for (std::size_t i = 0; i < state.targetEps.size(); ++i) {
                const core::TargetEps& t = state.targetEps[i];
                const core::MechanismKind kind = i == 0 ? settings.mechanism.kind : state.compared[i - 1].kind;
                targetEps.push_back({{"mechanism", core::toString(kind)},
                                     {"measured", t.measured ? Ordered(*t.measured) : Ordered()},
                                     {"verified", t.verified ? Ordered(*t.verified) : Ordered()}});
                verified.push_back(t.verified);
            }
            const auto least = core::leastEps(verified);
            r["target_eps"] = {{"target", state.targetEpsTarget},
                               {"mechanisms", targetEps},
                               {"least", least ? targetEps[*least]["mechanism"] : Ordered()}};
        }
    }
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

QByteArray comparisonCsv(const UtilitySettings& settings, const UtilityState& state) {
    QString out = QStringLiteral("mechanism,eps,measured_mean,measured_std\n");
    const auto rows = [&out](core::MechanismKind kind, const std::vector<std::optional<core::SweepPoint>>& points) {
        for (const auto& p : points)
            if (p)
                out += QStringLiteral("%1,%2,%3,%4\n")
                           .arg(QString::fromLatin1(core::toString(kind)), charts::csvNumber(p->eps),
                                charts::csvNumber(p->mean), charts::csvNumber(p->sd));
    };
    rows(settings.mechanism.kind, state.points);
    for (const ComparedState& c : state.compared)
        rows(c.kind, c.points);
    return out.toUtf8();
}

QStringList exportFigure(const charts::ChartData& chart, const Session& session, const UtilityState& state,
                         const FigureExport& request, QString* error) {
    return writeFigure(chart, request.withSidecar ? sidecarJson(session, state, request.path) : QByteArray(), request,
                       error);
}

} // namespace elab::ui
