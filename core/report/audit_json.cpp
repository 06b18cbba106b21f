#include "core/report/audit_json.h"

#include "core/report/result_json.h"

namespace elab::core {

void appendBoundJson(nlohmann::ordered_json& j, const AuditBound& bound) {
    j["threshold"] = numberOrNull(bound.threshold);
    j["evaluated_runs"] = bound.evaluated;
    j["fpr"] = bound.fpr;
    j["fnr"] = bound.fnr;
    j["fpr_upper"] = bound.fprUpper;
    j["fnr_upper"] = bound.fnrUpper;
    j["eps_lb"] = bound.epsLB;
    j["max_certifiable"] = bound.maxCertifiable;
    j["point_estimate"] = bound.pointEstimate; // without confidence: what the attack saw
}

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
    appendBoundJson(j, r.bound);
    j["violated"] = r.violated();
    j["verdict"] = auditVerdict(r);
    if (r.gaussian) {
        const GaussianAuditBound& g = *r.gaussian;
        j["gaussian_fit"] = {{"assumption",
                              "the scores are Gaussian with one variance under both neighbours (true on the worst-case "
                              "pair for the (ε, δ) mechanisms; tested by Lilliefors at alpha)"},
                             {"shape_rejected", g.shapeRejected},
                             {"lilliefors", g.lilliefors},
                             {"lilliefors_critical", g.lillieforsCritical},
                             {"mu_lower", g.muLower},
                             {"mu_estimate", g.muEstimate},
                             {"eps_lb", g.epsLB},
                             {"eps_estimate", g.epsEstimate},
                             {"violated", !g.shapeRejected && g.epsLB > r.claimedEps},
                             {"verdict", gaussianVerdict(r)}};
    }
    j["guarantee"] = guaranteeJson(r.guarantee);
    j["seconds"] = r.seconds;
    if (withScores) {
        j["scores_d"] = r.scoresD;
        j["scores_d_prime"] = r.scoresDPrime;
    }
    return j;
}

} // namespace elab::core
