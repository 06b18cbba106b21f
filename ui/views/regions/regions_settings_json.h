#pragma once
// The Decision regions view's block in a session file ("regions": {…}), also in export sidecars.

#include "ui/views/regions/regions_settings.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const RegionsSettings& s);
/// Throws std::runtime_error naming the field ("regions.draws: expected an integer").
RegionsSettings regionsSettingsFromJson(const nlohmann::json& j);

} // namespace elab::ui::detail

namespace elab::ui {

struct Session;
/// The view's settings in session (its "regions" block), or nullopt when it has none (then the
/// dataset's teaching defaults stay).
std::optional<RegionsSettings> regionsSettingsOf(const Session& session);
void storeRegionsSettings(Session& session, const RegionsSettings& settings);

} // namespace elab::ui
