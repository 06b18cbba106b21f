#include "core/report/pipeline_audit_json.h"

#include "core/report/audit_json.h"
#include "core/report/result_json.h"

namespace elab::core {

namespace {

nlohmann::ordered_json sideJson(const PipelineSide& s) {
    nlohmann::ordered_json j;
    j["file_rows"] = s.fileRows;
    j["train_rows"] = s.trainRows;
    j["features"] = s.features;
    j["outputs"] = s.outputs;
    j["classes"] = s.classes;
    return j;
}

} // namespace

nlohmann::ordered_json pipelineAuditJson(const PipelineAuditResult& r, bool withScores) {
    nlohmann::ordered_json j;
    j["neighbour"] = toString(r.neighbour.kind);
    j["row"] = r.neighbour.row;
    j["description"] = r.neighbour.description;
    if (!r.neighbour.column.empty())
        j["change"] = {{"column", r.neighbour.column}, {"d", r.neighbour.from}, {"d_prime", r.neighbour.to}};
    j["d"] = sideJson(r.d);
    j["d_prime"] = sideJson(r.dPrime);
    j["differing_train_rows"] = r.differingTrainRows;
    j["structures_differ"] = r.structural;
    j["probes"] = r.probes;
    j["shadow_runs"] = r.shadowRuns;
    j["split_seed_varied"] = r.splitSeedVaried;
    j["claimed"] = r.claimed;
    j["claim"] = r.claimBasis;
    if (r.claimed) {
        j["eps"] = r.claimedEps;
        j["delta"] = r.claimedDelta;
    }
    j["leaking_steps"] = r.leakingSteps;
    j["runs"] = r.runs;
    j["alpha"] = r.alpha;
    appendBoundJson(j, r.bound);
    j["violated"] = r.violated();
    j["verdict"] = pipelineAuditVerdict(r);
    j["guarantee"] = guaranteeJson(r.guarantee);
    j["seconds"] = r.seconds;
    if (withScores) {
        j["scores_d"] = r.scoresD;
        j["scores_d_prime"] = r.scoresDPrime;
    }
    return j;
}

} // namespace elab::core
