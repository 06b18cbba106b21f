#include "ui/views/stability/stability_settings_json.h"

#include "ui/session/session.h"

#include "ui/session/session_json.h"

namespace elab::ui::detail {

Ordered toJson(const StabilitySettings& s) {
    Ordered j;
    j["model"] = s.model == StabilityModelChoice::FromTask   ? "auto"
                 : s.model == StabilityModelChoice::Logistic ? "logistic"
                                                             : "linear";
    Ordered methods = Ordered::array();
    for (core::StabilityMethod m : s.methods)
        methods.push_back(core::toString(m));
    j["methods"] = methods;
    j["dropout_rate"] = s.dropoutRate;
    j["removal"] = core::toString(s.removal);
    j["rho"] = {{"min", s.rhoMin}, {"max", s.rhoMax}, {"points", s.rhoPoints}};
    j["repeats"] = s.repeats;
    j["seed"] = s.seed;
    j["test_fraction"] = s.testFraction;
    j["positive_class"] = s.positiveClass ? Ordered(*s.positiveClass) : Ordered();
    j["stability_samples"] = s.stabilitySamples;
    return j;
}

StabilitySettings stabilitySettingsFromJson(const Json& j) {
    const std::string st = "stability";
    StabilitySettings s;
    const std::string model = value<std::string>(j, st, "model");
    if (model == "auto")
        s.model = StabilityModelChoice::FromTask;
    else if (model == "logistic")
        s.model = StabilityModelChoice::Logistic;
    else if (model == "linear")
        s.model = StabilityModelChoice::Linear;
    else
        fail(st + ".model", "unknown value '" + model + "' (auto, logistic or linear)");
    s.methods.clear();
    for (const Json& m : member(j, st, "methods")) {
        if (!m.is_string())
            fail(st + ".methods", "expected names");
        s.methods.push_back(parseName(st + ".methods", m.get<std::string>(), core::stabilityMethodFromString));
    }
    s.dropoutRate = value<double>(j, st, "dropout_rate");
    s.removal = parseName(st + ".removal", value<std::string>(j, st, "removal"), core::removalKindFromString);
    const Json& rho = member(j, st, "rho");
    s.rhoMin = value<double>(rho, st + ".rho", "min");
    s.rhoMax = value<double>(rho, st + ".rho", "max");
    s.rhoPoints = value<int>(rho, st + ".rho", "points");
    s.repeats = value<int>(j, st, "repeats");
    s.seed = value<std::uint64_t>(j, st, "seed");
    s.testFraction = value<double>(j, st, "test_fraction");
    const Json& positive = member(j, st, "positive_class");
    if (!positive.is_null())
        s.positiveClass = value<std::string>(j, st, "positive_class");
    s.stabilitySamples = value<int>(j, st, "stability_samples");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(st, problem);
    return s;
}

} // namespace elab::ui::detail

namespace elab::ui {

StabilitySettings stabilitySettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(QStringLiteral("stability"));
    return block.is_null() ? StabilitySettings{} : detail::stabilitySettingsFromJson(block);
}

void storeStabilitySettings(Session& session, const StabilitySettings& settings) {
    session.setSettingsBlock(QStringLiteral("stability"), detail::toJson(settings));
}

} // namespace elab::ui
