#pragma once
// The Decision regions view's block in a session file ("regions": {…}), also in export sidecars.

#include "ui/views/regions/regions_settings.h"

#include <nlohmann/json.hpp>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const RegionsSettings& s);
/// Throws std::runtime_error naming the field ("regions.draws: expected an integer").
RegionsSettings regionsSettingsFromJson(const nlohmann::json& j);

} // namespace elab::ui::detail
