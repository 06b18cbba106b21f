#pragma once
// JSON conversion of the session's parts, shared by sessions and export sidecars.
// Internal to ui/session and ui/export.

#include "ui/session/session.h"

#include <nlohmann/json.hpp>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const UtilitySettings& s);
/// Throws std::runtime_error naming the field ("utility.repeats: …").
UtilitySettings utilitySettingsFromJson(const nlohmann::json& j);

nlohmann::ordered_json toJson(const StabilitySettings& s);
/// Throws std::runtime_error naming the field ("stability.repeats: …").
StabilitySettings stabilitySettingsFromJson(const nlohmann::json& j);

nlohmann::ordered_json sessionJson(const Session& session);

} // namespace elab::ui::detail
