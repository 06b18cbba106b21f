#pragma once
// The stability view's block in a session file ("stability": {…}), also in export sidecars.

#include "ui/views/stability/stability_settings.h"

#include <nlohmann/json.hpp>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const StabilitySettings& s);
/// Throws std::runtime_error naming the field ("stability.repeats: …").
StabilitySettings stabilitySettingsFromJson(const nlohmann::json& j);

} // namespace elab::ui::detail

namespace elab::ui {

struct Session;
/// The view's settings in session (its "stability" block), or the defaults when it has none.
StabilitySettings stabilitySettingsOf(const Session& session);
void storeStabilitySettings(Session& session, const StabilitySettings& settings);

} // namespace elab::ui
