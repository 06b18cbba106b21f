#pragma once
// The JSON of one privacy audit (core/audit/mechanism_audit.h), the same in the CLI's report
// (`epsilonlab-cli audit`) and the GUI's Audit export sidecar: the claim, the canary, the
// threshold and error rates with their Clopper–Pearson bounds, ε_LB, the verdict, the guarantee
// and (withScores) every run's score.

#include "core/audit/mechanism_audit.h"

#include <nlohmann/json.hpp>

namespace elab::core {

nlohmann::ordered_json auditJson(const AuditResult& result, bool withScores = true);

/// The bound's fields, appended to j in this order (threshold, evaluated_runs, fpr, fnr, fpr_upper,
/// fnr_upper, eps_lb, max_certifiable): shared by the mechanism and the pipeline audits' JSON.
void appendBoundJson(nlohmann::ordered_json& j, const AuditBound& bound);

} // namespace elab::core
