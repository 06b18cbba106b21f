#pragma once
// The utility view's block in a session file ("utility": {…}), also in export sidecars.

#include "ui/widgets/utility_settings.h"

#include <nlohmann/json.hpp>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const UtilitySettings& s);
/// Throws std::runtime_error naming the field ("utility.repeats: …").
UtilitySettings utilitySettingsFromJson(const nlohmann::json& j);

} // namespace elab::ui::detail

namespace elab::ui {

struct Session;
/// The view's settings in session (its "utility" block), or the defaults when it has none.
UtilitySettings utilitySettingsOf(const Session& session);
void storeUtilitySettings(Session& session, const UtilitySettings& settings);

} // namespace elab::ui
