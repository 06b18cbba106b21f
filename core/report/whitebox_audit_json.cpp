#include "core/report/whitebox_audit_json.h"

#include "core/report/result_json.h"

namespace elab::core {

nlohmann::ordered_json whiteboxAuditJson(const WhiteboxAuditResult& r, bool withScores) {
    nlohmann::ordered_json j;
    j["method"] = "whitebox";
    j["eps"] = r.claimedEps;
    j["delta"] = r.delta;
    j["adjacency"] = toString(r.adjacency);
    j["view"] = toString(r.view);
    j["alpha"] = r.alpha;
    j["sigma"] = r.sigma;
    j["q"] = r.q;
    j["steps"] = r.steps;
    j["canary_norm"] = r.canaryNorm;
    j["noise_in_canary_units"] = r.noiseInCanaryUnits;
    j["zero_features"] = r.zeroFeatures;
    j["canaries"] = r.canaries.size();
    j["runs"] = r.runs;
    j["trials_per_side"] = r.scoresIn.size();
    j["evaluated_per_side"] = r.bound.evaluated;
    j["threshold"] = r.bound.threshold;
    j["fpr"] = r.bound.fpr;
    j["fnr"] = r.bound.fnr;
    j["eps_lb"] = r.bound.epsLB;
    j["max_certifiable"] = r.bound.maxCertifiable;
    j["violated"] = r.violated();
    j["verdict"] = whiteboxAuditVerdict(r);
    j["guarantee"] = guaranteeJson(r.guarantee);
    j["seconds"] = r.seconds;
    nlohmann::ordered_json coords = nlohmann::ordered_json::array();
    for (const WhiteboxCanary& c : r.canaries)
        coords.push_back({{"layer", c.layer}, {"unit", c.unit}, {"feature", c.feature}});
    j["canary_list"] = std::move(coords);
    if (withScores) {
        j["scores_out"] = r.scoresOut;
        j["scores_in"] = r.scoresIn;
    }
    return j;
}

} // namespace elab::core
