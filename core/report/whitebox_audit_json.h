#pragma once
// The JSON of one white-box DP-SGD audit (core/audit/whitebox_dpsgd_audit.h), for the CLI's report
// (`epsilonlab-cli audit --method whitebox`): the claim, σ, q, T, the canary coordinates, runs and
// trials, ε_LB with its threshold and error rates, the most the trials can show, the verdict, the
// guarantee and (withScores) every trial's score.

#include "core/audit/whitebox_dpsgd_audit.h"

#include <nlohmann/json.hpp>

namespace elab::core {

nlohmann::ordered_json whiteboxAuditJson(const WhiteboxAuditResult& result, bool withScores = true);

} // namespace elab::core
