#include "ui/views/utility/utility_settings_json.h"

#include "ui/session/session.h"

#include "ui/session/session_json.h"

#include "core/privacy/composition.h"

#include <QRandomGenerator>

namespace elab::ui::detail {

Ordered toJson(const UtilitySettings& s) {
    Ordered j;
    j["preprocess"] = preprocessJson(s.preprocess);
    j["test_fraction"] = s.testFraction;
    j["mechanism"] = mechanismJson(s.mechanism);
    j["metric"] = core::toString(s.metric);
    j["repeats"] = s.repeats;
    j["seed"] = s.secretSeed ? Ordered() : Ordered(s.seed); // a private release's seed is written nowhere
    j["seed_mode"] = core::toString(s.secretSeed ? core::SeedMode::SecretRelease : core::SeedMode::Reproducible);
    j["grid"] = {{"eps_min", s.epsMin}, {"eps_max", s.epsMax}, {"points", s.gridPoints}};
    j["measure_at"] = s.measureAt;
    Ordered estimators = Ordered::array();
    for (core::Estimator e : s.estimators)
        estimators.push_back(core::toString(e));
    j["estimators"] = estimators;
    j["current_eps"] = epsJson(s.currentEps);
    j["target"] = s.target ? Ordered(*s.target) : Ordered();
    if (!s.compareWith.empty()) { // absent when nothing is compared: such sessions read and write as before
        Ordered names = Ordered::array();
        for (core::MechanismKind kind : s.compareWith)
            names.push_back(core::toString(kind));
        j["compare_with"] = names;
    }
    return j;
}

UtilitySettings utilitySettingsFromJson(const Json& j) {
    const std::string u = "utility";
    UtilitySettings s;
    s.preprocess = preprocessFromJson(member(j, u, "preprocess"), u + ".preprocess");
    s.testFraction = value<double>(j, u, "test_fraction");
    s.mechanism = mechanismFromJson(member(j, u, "mechanism"), u + ".mechanism");
    s.metric = parseName(u + ".metric", value<std::string>(j, u, "metric"), core::utilityMetricFromString);
    s.repeats = value<int>(j, u, "repeats");
    // A private release restores as a private release with a new secret seed (its own was never written).
    s.secretSeed = j.contains("seed_mode") && value<std::string>(j, u, "seed_mode") == "private-release";
    s.seed = s.secretSeed ? QRandomGenerator::system()->generate64() : value<std::uint64_t>(j, u, "seed");
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
    if (j.contains("compare_with")) {
        const Json& names = member(j, u, "compare_with");
        if (!names.is_array())
            fail(u + ".compare_with", "expected a list of mechanism names");
        for (const Json& e : names) {
            if (!e.is_string())
                fail(u + ".compare_with", "expected mechanism names");
            s.compareWith.push_back(
                parseName(u + ".compare_with", e.get<std::string>(), core::mechanismKindFromString));
        }
    }
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
