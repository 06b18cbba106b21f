#include "ui/views/audit/audit_settings_json.h"

#include "ui/session/session.h"
#include "ui/session/session_json.h"

namespace elab::ui::detail {

Ordered toJson(const AuditSettings& s) {
    Ordered j;
    j["preprocess"] = preprocessJson(s.preprocess);
    j["test_fraction"] = s.testFraction;
    j["mechanism"] = mechanismJson(s.mechanism);
    j["method"] = core::optionName(auditMethodNames(), s.method);
    j["canaries"] = s.canaries;
    j["runs"] = s.runs;
    j["whitebox_runs"] = s.whiteboxRuns;
    j["whitebox_view"] = core::optionName(whiteboxViewNames(), s.whiteboxView);
    j["alpha"] = s.alpha;
    j["seed"] = s.seed;
    j["canary_row"] = s.canaryRow;
    j["current_eps"] = s.currentEps;
    j["compare_all"] = s.compareAll;
    if (s.noiseDivisor != 1.0) // a correct mechanism writes no key: sessions read as before
        j["noise_divisor"] = s.noiseDivisor;
    return j;
}

AuditSettings auditSettingsFromJson(const Json& j) {
    const std::string a = "audit";
    AuditSettings s;
    s.preprocess = preprocessFromJson(member(j, a, "preprocess"), a + ".preprocess");
    s.testFraction = value<double>(j, a, "test_fraction");
    s.mechanism = mechanismFromJson(member(j, a, "mechanism"), a + ".mechanism");
    // Sessions saved before the one-run audit have neither field: the two-dataset audit.
    if (j.contains("method"))
        s.method = parseOption(auditMethodNames(), a + ".method", value<std::string>(j, a, "method"));
    if (j.contains("canaries"))
        s.canaries = value<int>(j, a, "canaries");
    s.runs = value<int>(j, a, "runs");
    // Sessions saved before the white-box audit have neither field: its defaults.
    if (j.contains("whitebox_runs"))
        s.whiteboxRuns = value<int>(j, a, "whitebox_runs");
    if (j.contains("whitebox_view"))
        s.whiteboxView =
            parseOption(whiteboxViewNames(), a + ".whitebox_view", value<std::string>(j, a, "whitebox_view"));
    s.alpha = value<double>(j, a, "alpha");
    s.seed = value<std::uint64_t>(j, a, "seed");
    s.canaryRow = value<long long>(j, a, "canary_row");
    s.currentEps = value<double>(j, a, "current_eps");
    s.compareAll = value<bool>(j, a, "compare_all");
    if (j.contains("noise_divisor"))
        s.noiseDivisor = value<double>(j, a, "noise_divisor");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(a, problem);
    return s;
}

} // namespace elab::ui::detail

namespace elab::ui {

std::optional<AuditSettings> auditSettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(QStringLiteral("audit"));
    return block.is_null() ? std::nullopt : std::optional(detail::auditSettingsFromJson(block));
}

void storeAuditSettings(Session& session, const AuditSettings& settings) {
    session.setSettingsBlock(QStringLiteral("audit"), detail::toJson(settings));
}

} // namespace elab::ui
