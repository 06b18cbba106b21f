#pragma once
// The JSON of one audit from one training run (core/audit/one_run_audit.h), for the CLI's report
// (`epsilonlab-cli audit --method one-run`) and an export: the claim, m, the guess that gave the
// bound (r, k₊, k₋, W), ε_LB, the most the canaries can show, the verdict, the guarantee and
// (withCanaries) every canary's column, labels, coin and score.

#include "core/audit/one_run_audit.h"

#include <nlohmann/json.hpp>

namespace elab::core {

nlohmann::ordered_json oneRunAuditJson(const OneRunAuditResult& result, bool withCanaries = true);

} // namespace elab::core
