#include "core/report/audit_json.h"

#include "core/report/result_json.h"

namespace elab::core {

nlohmann::ordered_json auditJson(const AuditResult& r, bool withScores) {
    nlohmann::ordered_json j;
    j["eps"] = r.claimedEps;
    j["delta"] = r.delta;
    j["adjacency"] = toString(r.adjacency);
    j["runs"] = r.runs;
    j["alpha"] = r.alpha;
    j["canary"] = {{"description", r.canary.description},
                   {"label", r.canary.label},
                   {"nonprivate_margin_shift", r.canary.nonPrivateShift}};
    j["threshold"] = numberOrNull(r.bound.threshold);
    j["evaluated_runs"] = r.bound.evaluated;
    j["fpr"] = r.bound.fpr;
    j["fnr"] = r.bound.fnr;
    j["fpr_upper"] = r.bound.fprUpper;
    j["fnr_upper"] = r.bound.fnrUpper;
    j["eps_lb"] = r.bound.epsLB;
    j["max_certifiable"] = r.bound.maxCertifiable;
    j["violated"] = r.violated();
    j["verdict"] = auditVerdict(r);
    j["guarantee"] = guaranteeJson(r.guarantee);
    j["seconds"] = r.seconds;
    if (withScores) {
        j["scores_d"] = r.scoresD;
        j["scores_d_prime"] = r.scoresDPrime;
    }
    return j;
}

} // namespace elab::core
