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

/// The start of an export's "export" block: {"figure": file name, "created_utc": now}.
nlohmann::ordered_json exportHeader(const QString& figureFile);

/// NaN and ∞ are not JSON numbers: null.
nlohmann::ordered_json jsonNumber(double v);

} // namespace elab::ui::detail
