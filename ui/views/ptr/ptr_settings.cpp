#include "ui/views/ptr/ptr_settings.h"

#include "ui/session/session.h"
#include "ui/session/session_json.h"

#include <cmath>

namespace elab::ui {

namespace {
const QString kPtrId = QStringLiteral("ptr");
}

std::string PtrSettings::validate() const {
    if (!std::isfinite(binariseAt))
        return "the binarisation threshold must be a finite number";
    if (!(delta > 0.0 && delta < 1.0))
        return "δ must be in (0, 1)";
    if (!(currentEps > 0.0) || !std::isfinite(currentEps))
        return "ε must be finite and > 0 (the test at ε = ∞ has no noise)";
    if (runs < 1 || runs > kMaxRuns)
        return "the runs must be between 1 and 1,000,000";
    return {};
}

namespace detail {

nlohmann::ordered_json toJson(const PtrSettings& s) {
    return {
        {"binarise_at", s.binariseAt}, {"delta", s.delta}, {"eps", s.currentEps}, {"runs", s.runs}, {"seed", s.seed}};
}

PtrSettings ptrSettingsFromJson(const nlohmann::json& j) {
    const std::string path = "ptr";
    PtrSettings s;
    s.binariseAt = value<double>(j, path, "binarise_at");
    s.delta = value<double>(j, path, "delta");
    s.currentEps = value<double>(j, path, "eps");
    s.runs = value<int>(j, path, "runs");
    s.seed = value<std::uint64_t>(j, path, "seed");
    if (std::string e = s.validate(); !e.empty())
        fail(path, e);
    return s;
}

} // namespace detail

std::optional<PtrSettings> ptrSettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(kPtrId);
    return block.is_null() ? std::nullopt : std::optional(detail::ptrSettingsFromJson(block));
}

void storePtrSettings(Session& session, const PtrSettings& settings) {
    session.setSettingsBlock(kPtrId, detail::toJson(settings));
}

} // namespace elab::ui
