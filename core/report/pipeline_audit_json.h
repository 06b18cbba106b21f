#pragma once
// The JSON of one audit of the whole pipeline (core/audit/pipeline_audit.h), as
// `epsilonlab-cli audit --neighbour input-…` writes it: the neighbours, each side as the pipeline
// prepared it, the claim read for these neighbours, the bound, the verdict and (withScores)
// every run's score.

#include "core/audit/pipeline_audit.h"

#include <nlohmann/json.hpp>

namespace elab::core {

nlohmann::ordered_json pipelineAuditJson(const PipelineAuditResult& result, bool withScores = true);

} // namespace elab::core
