#include "ui/views/regions/regions_settings_json.h"

#include "ui/session/session_json.h"

namespace elab::ui::detail {

Ordered toJson(const RegionsSettings& s) {
    Ordered j;
    j["plane"] = {{"kind", core::optionName(core::planeKindNames(), s.plane)},
                  {"feature_a", s.featureA},
                  {"feature_b", s.featureB},
                  {"quadratic", s.quadratic}};
    j["preprocess"] = preprocessJson(s.preprocess);
    j["test_fraction"] = s.testFraction;
    j["mechanism"] = mechanismJson(s.mechanism);
    j["draws"] = s.draws;
    j["grid"] = s.gridSize;
    j["seed"] = s.seed;
    j["current_eps"] = epsJson(s.currentEps);
    j["fill"] = core::optionName(regionsFillNames(), s.fill);
    j["fill_draw"] = s.fillDraw;
    return j;
}

RegionsSettings regionsSettingsFromJson(const Json& j) {
    const std::string r = "regions";
    RegionsSettings s;
    const Json& plane = member(j, r, "plane");
    const std::string pp = r + ".plane";
    s.plane = parseOption(core::planeKindNames(), pp + ".kind", value<std::string>(plane, pp, "kind"));
    s.featureA = value<int>(plane, pp, "feature_a");
    s.featureB = value<int>(plane, pp, "feature_b");
    s.quadratic = value<bool>(plane, pp, "quadratic");
    s.preprocess = preprocessFromJson(member(j, r, "preprocess"), r + ".preprocess");
    s.testFraction = value<double>(j, r, "test_fraction");
    s.mechanism = mechanismFromJson(member(j, r, "mechanism"), r + ".mechanism");
    s.draws = value<int>(j, r, "draws");
    s.gridSize = value<int>(j, r, "grid");
    s.seed = value<std::uint64_t>(j, r, "seed");
    const Json& current = member(j, r, "current_eps");
    if (current.is_string() && current.get<std::string>() == "inf")
        s.currentEps = RegionsSettings::nonPrivateEps();
    else
        s.currentEps = value<double>(j, r, "current_eps");
    s.fill = parseOption(regionsFillNames(), r + ".fill", value<std::string>(j, r, "fill"));
    s.fillDraw = value<int>(j, r, "fill_draw");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(r, problem);
    return s;
}

} // namespace elab::ui::detail

namespace elab::ui {

std::optional<RegionsSettings> regionsSettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(QStringLiteral("regions"));
    return block.is_null() ? std::nullopt : std::optional(detail::regionsSettingsFromJson(block));
}

void storeRegionsSettings(Session& session, const RegionsSettings& settings) {
    session.setSettingsBlock(QStringLiteral("regions"), detail::toJson(settings));
}

} // namespace elab::ui
