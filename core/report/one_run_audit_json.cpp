#include "core/report/one_run_audit_json.h"

#include "core/report/result_json.h"

namespace elab::core {

nlohmann::ordered_json oneRunAuditJson(const OneRunAuditResult& r, bool withCanaries) {
    nlohmann::ordered_json j;
    j["method"] = "one-run";
    j["eps"] = r.claimedEps;
    j["delta"] = r.delta;
    j["adjacency"] = toString(r.adjacency);
    j["alpha"] = r.alpha;
    j["canaries_asked"] = r.canariesAsked;
    j["canaries"] = r.bound.canaries;
    j["training_rows"] = r.trainingRows;
    j["guesses"] = r.bound.best.guesses;
    j["guessed_in"] = r.bound.best.kIn;
    j["guessed_out"] = r.bound.best.kOut;
    j["correct"] = r.bound.best.correct;
    j["guess_grid"] = r.bound.grid.size();
    j["eps_lb"] = r.bound.epsLB;
    j["max_certifiable"] = r.bound.maxCertifiable;
    j["violated"] = r.violated();
    j["verdict"] = oneRunAuditVerdict(r);
    j["guarantee"] = guaranteeJson(r.guarantee);
    j["seconds"] = r.seconds;
    if (withCanaries) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const OneRunCanary& c : r.canaries)
            list.push_back({{"feature", c.feature},
                            {"label", c.label},
                            {"baseline", c.baseline},
                            {"included", c.included},
                            {"score", c.score}});
        j["canary_list"] = std::move(list);
    }
    return j;
}

} // namespace elab::core
