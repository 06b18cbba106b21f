#pragma once
// The JSON of one privacy audit (core/audit/mechanism_audit.h), the same in the CLI's report
// (`epsilonlab-cli audit`) and the GUI's Audit export sidecar: the claim, the canary, the
// threshold and error rates with their Clopper–Pearson bounds, ε_LB, the verdict, the guarantee
// and (withScores) every run's score.

#include "core/audit/mechanism_audit.h"

#include <nlohmann/json.hpp>

namespace elab::core {

nlohmann::ordered_json auditJson(const AuditResult& result, bool withScores = true);

} // namespace elab::core
