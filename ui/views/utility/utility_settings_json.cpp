#include "ui/views/utility/utility_settings_json.h"

#include "ui/session/session.h"

#include "ui/session/session_json.h"

namespace elab::ui::detail {

Ordered toJson(const UtilitySettings& s) {
    Ordered j;
    j["preprocess"] = {{"norm", core::optionName(core::normPolicyNames(), s.preprocess.norm)},
                       {"standardise", s.preprocess.standardise},
                       {"intercept", s.preprocess.intercept},
                       {"positive_class", s.preprocess.positiveClass ? Ordered(*s.preprocess.positiveClass) : Ordered()}};
    j["test_fraction"] = s.testFraction;
    j["mechanism"] = {{"kind", core::toString(s.mechanism.kind)},
                      {"loss", core::toString(s.mechanism.model.loss.kind())},
                      {"huber_width", s.mechanism.model.loss.huberWidth()},
                      {"temperature", s.mechanism.model.loss.temperature()},
                      {"lambda", s.mechanism.model.lambda},
                      {"delta", s.mechanism.privacy.delta}};
    j["metric"] = core::toString(s.metric);
    j["repeats"] = s.repeats;
    j["seed"] = s.seed;
    j["grid"] = {{"eps_min", s.epsMin}, {"eps_max", s.epsMax}, {"points", s.gridPoints}};
    j["measure_at"] = s.measureAt;
    Ordered estimators = Ordered::array();
    for (core::Estimator e : s.estimators)
        estimators.push_back(core::toString(e));
    j["estimators"] = estimators;
    j["current_eps"] = epsJson(s.currentEps);
    j["target"] = s.target ? Ordered(*s.target) : Ordered();
    return j;
}

UtilitySettings utilitySettingsFromJson(const Json& j) {
    const std::string u = "utility";
    UtilitySettings s;
    const Json& pre = member(j, u, "preprocess");
    const std::string norm = value<std::string>(pre, u + ".preprocess", "norm");
    if (const auto policy = core::fromOptionName(core::normPolicyNames(), norm))
        s.preprocess.norm = *policy;
    else
        fail(u + ".preprocess.norm", "unknown value '" + norm + "' (clip, max or none)");
    s.preprocess.standardise = value<bool>(pre, u + ".preprocess", "standardise");
    s.preprocess.intercept = value<bool>(pre, u + ".preprocess", "intercept");
    const Json& positive = member(pre, u + ".preprocess", "positive_class");
    if (!positive.is_null())
        s.preprocess.positiveClass = value<std::string>(pre, u + ".preprocess", "positive_class");
    s.testFraction = value<double>(j, u, "test_fraction");

    const Json& m = member(j, u, "mechanism");
    const std::string mp = u + ".mechanism";
    s.mechanism.kind = parseName(mp + ".kind", value<std::string>(m, mp, "kind"), core::mechanismKindFromString);
    const core::LossKind loss = parseName(mp + ".loss", value<std::string>(m, mp, "loss"), core::lossKindFromString);
    s.mechanism.model.loss = core::Loss(loss, value<double>(m, mp, "huber_width"), value<double>(m, mp, "temperature"));
    s.mechanism.model.lambda = value<double>(m, mp, "lambda");
    s.mechanism.privacy.delta = value<double>(m, mp, "delta");
    s.metric = parseName(u + ".metric", value<std::string>(j, u, "metric"), core::utilityMetricFromString);
    s.repeats = value<int>(j, u, "repeats");
    s.seed = value<std::uint64_t>(j, u, "seed");
    const Json& grid = member(j, u, "grid");
    s.epsMin = value<double>(grid, u + ".grid", "eps_min");
    s.epsMax = value<double>(grid, u + ".grid", "eps_max");
    s.gridPoints = value<int>(grid, u + ".grid", "points");
    s.measureAt.clear();
    for (const Json& e : member(j, u, "measure_at")) {
        if (!e.is_number())
            fail(u + ".measure_at", "expected numbers");
        s.measureAt.push_back(e.get<double>());
    }
    s.estimators.clear();
    for (const Json& e : member(j, u, "estimators")) {
        if (!e.is_string())
            fail(u + ".estimators", "expected names");
        s.estimators.push_back(parseName(u + ".estimators", e.get<std::string>(), core::estimatorFromString));
    }
    const Json& current = member(j, u, "current_eps");
    if (current.is_string() && current.get<std::string>() == "inf")
        s.currentEps = UtilitySettings::nonPrivateEps();
    else
        s.currentEps = value<double>(j, u, "current_eps");
    const Json& target = member(j, u, "target");
    if (!target.is_null())
        s.target = value<double>(j, u, "target");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(u, problem);
    return s;
}

} // namespace elab::ui::detail

namespace elab::ui {

UtilitySettings utilitySettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(QStringLiteral("utility"));
    return block.is_null() ? UtilitySettings{} : detail::utilitySettingsFromJson(block);
}

void storeUtilitySettings(Session& session, const UtilitySettings& settings) {
    session.setSettingsBlock(QStringLiteral("utility"), detail::toJson(settings));
}

} // namespace elab::ui
