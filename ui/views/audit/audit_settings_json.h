#pragma once
// The Privacy audit view's block in a session file ("audit": {…}), also in export sidecars.

#include "ui/views/audit/audit_settings.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace elab::ui::detail {

nlohmann::ordered_json toJson(const AuditSettings& s);
/// Throws std::runtime_error naming the field ("audit.runs: expected an integer").
AuditSettings auditSettingsFromJson(const nlohmann::json& j);

} // namespace elab::ui::detail

namespace elab::ui {

struct Session;
/// The view's settings in session (its "audit" block), or nullopt when it has none.
std::optional<AuditSettings> auditSettingsOf(const Session& session);
void storeAuditSettings(Session& session, const AuditSettings& settings);

} // namespace elab::ui
