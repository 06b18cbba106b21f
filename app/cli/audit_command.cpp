#include "app/cli/audit_command.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/write_output.h"

#include "core/audit/mechanism_audit.h"
#include "core/experiment/sweep_data.h"
#include "core/learner/mechanism_catalog.h"
#include "core/report/audit_json.h"
#include "core/report/result_json.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace elab::app {

void AuditCommand::addTo(CLI::App& command) {
    data.addTo(command);
    mech.addTo(command);
    command.add_option("--eps", eps, "The claimed ε to audit")->check(CLI::PositiveNumber);
    command.add_option("--runs", runs, "Runs per neighbour T (half choose the threshold, half evaluate)")
        ->check(CLI::Range(4, 10000000));
    command.add_option("--alpha", alpha, "ε_LB holds with confidence 1 - alpha")->check(CLI::Range(1e-6, 0.5));
    command.add_option("--seed", seed, "Seed of every run's noise (and the split)");
    command.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
    command.add_option("--canary-row", canaryRow,
                       "A training row (0-based) as the canary, labelled against the model (default: the strongest "
                       "unit row along a least-covered feature)");
    command.add_flag("--all", all, "Audit every private mechanism of the catalog at --eps (a table)");
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv, "CSV (one row per mechanism) instead of JSON");
    scale.addTo(command);
}


int AuditCommand::run() const {
    const auto cells = scale.executor(); // a checkpoint of other settings is refused before any work
    const ExperimentData prepared = data.prepare(seed);
    const core::SweepData sweep = core::sweepDataOf(prepared.train);
    core::AuditSpec spec;
    spec.mechanism = mech.spec();
    spec.eps = eps;
    spec.runs = runs;
    spec.alpha = alpha;
    spec.seed = seed;
    spec.threads = threads;
    spec.executor = cells.get();
    if (canaryRow >= 0)
        spec.canaryRow = static_cast<core::Index>(canaryRow);
    std::vector<core::MechanismKind> kinds;
    if (all) {
        for (const core::MechanismInfo& info : core::mechanismCatalog())
            if (info.kind != core::MechanismKind::NonPrivate)
                kinds.push_back(info.kind);
    } else {
        kinds.push_back(spec.mechanism.kind);
    }
    std::vector<std::pair<core::MechanismKind, core::AuditResult>> results;
    for (core::MechanismKind kind : kinds) {
        core::AuditSpec s = spec;
        if (all)
            core::selectMechanism(s.mechanism, kind);
        if (std::string problem = s.validate(); !problem.empty())
            throw std::invalid_argument(problem);
        results.emplace_back(kind, core::runAudit(sweep, s));
    }
    if (csv) {
        std::ostringstream o;
        o << "mechanism,eps,delta,adjacency,runs,eps_lb,max_certifiable,fpr,fnr,violated,seconds\n";
        for (const auto& [kind, r] : results)
            o << core::toString(kind) << ',' << r.claimedEps << ',' << r.delta << ',' << core::toString(r.adjacency) << ','
              << r.runs << ',' << r.bound.epsLB << ',' << r.bound.maxCertifiable << ',' << r.bound.fpr << ','
              << r.bound.fnr << ',' << (r.violated() ? "true" : "false") << ',' << r.seconds << '\n';
        writeOutput(out, o.str());
    } else {
        nlohmann::ordered_json j;
        j["command"] = "audit";
        j["version"] = EPSILONLAB_VERSION;
        j["seed"] = seed;
        j["data"] = dataJson(prepared);
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& [kind, r] : results) {
            nlohmann::ordered_json a = core::auditJson(r);
            a["mechanism"] = core::toString(kind);
            list.push_back(std::move(a));
        }
        if (all)
            j["audits"] = std::move(list);
        else
            j["audit"] = list.front();
        writeOutput(out, j.dump(1) + "\n");
    }
    for (const auto& [kind, r] : results)
        if (ClusterSession::instance().writesOutput())
            std::cerr << core::toString(kind) << ": " << core::auditVerdict(r) << " [" << r.seconds << " s]\n";
    bool violated = false;
    for (const auto& entry : results)
        violated = violated || entry.second.violated();
    return violated ? 3 : 0;
}

} // namespace elab::app
