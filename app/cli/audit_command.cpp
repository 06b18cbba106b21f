#include "app/cli/audit_command.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/write_output.h"

#include "core/audit/mechanism_audit.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/pipeline_audit.h"
#include "core/audit/whitebox_dpsgd_audit.h"
#include "core/data/dataset_loader.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/audit_json.h"
#include "core/report/one_run_audit_json.h"
#include "core/report/pipeline_audit_json.h"
#include "core/report/result_json.h"
#include "core/report/whitebox_audit_json.h"
#include "resources/builtin_resources.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace elab::app {

void AuditCommand::addTo(CLI::App& command) {
    data.addTo(command);
    mech.addTo(command);
    command.add_option("--eps", eps, "The claimed ε to audit")->check(CLI::PositiveNumber);
    runsOption = command.add_option("--runs", runs, "Runs per neighbour T (half choose the threshold, half evaluate)")
                     ->check(CLI::Range(4, 10000000));
    command
        .add_option("--method", method,
                    "two-dataset: T runs on D and T on its neighbour; one-run: one training with m canaries, each "
                    "included by its own coin, and the bound of Steinke, Nasr & Jagielski from the correct guesses; "
                    "whitebox (DP-SGD only): T trainings with gradient canaries in the weights of features that no "
                    "training row uses, every step's noisy sum seen, scored by the likelihood ratio")
        ->check(CLI::IsMember({"two-dataset", "one-run", "whitebox"}));
    canariesOption = command
                         .add_option("--canaries", canaries,
                                     "m of --method one-run: unit rows along the least-covered feature columns, one "
                                     "per column (capped at the number of columns); of --method whitebox: at most "
                                     "this many canary coordinates per run (default: every one found)")
                         ->check(CLI::Range(1, 10000000));
    command
        .add_option("--view", view,
                    "What --method whitebox observes of each step: iterates (the noisy sum at the weights of features "
                    "no training row uses, as the released iterates show it) or residual (the noisy sum minus the "
                    "sampled rows' clipped sum at every weight: an auditor who also knows the batch)")
        ->check(CLI::IsMember({"iterates", "residual"}));
    command.add_option("--alpha", alpha, "ε_LB holds with confidence 1 - alpha")->check(CLI::Range(1e-6, 0.5));
    command.add_option("--seed", seed, "Seed of every run's noise (and the split)");
    command.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
    command.add_option("--canary-row", canaryRow,
                       "A training row (0-based) as the canary, labelled against the model (default: the strongest "
                       "unit row along a least-covered feature)");
    command
        .add_option("--neighbour", neighbour,
                    "canary: a canary row added to (or replacing a row of) the prepared training rows; input-label, "
                    "input-level, input-add: D and D' differ in one row of the file (a label flipped, a categorical "
                    "level replaced, a row added) and every run is the whole pipeline from the file (default split "
                    "0.3 unless --split or --test)")
        ->check(CLI::IsMember([] {
            std::vector<std::string> names{"canary"};
            for (const std::string& n : core::optionNameList(core::inputNeighbourNames()))
                names.push_back(n);
            return names;
        }()));
    command
        .add_option("--row", row,
                    "The file's data row (0-based, header not counted) the input neighbours change (default: the "
                    "row that alone has a categorical level, else the first complete row)")
        ->check(CLI::NonNegativeNumber);
    command.add_flag("--all", all, "Audit every private mechanism of the catalog at --eps (a table)");
    command.add_flag("--gaussian-fit", gaussianFit,
                     "Two-dataset audit of an (ε, δ) mechanism: also the bound from the scores' means and spread, "
                     "assuming they are Gaussian with one variance (tested; true where the model is affine in the "
                     "noise, e.g. output perturbation (ε, δ)): far more power, under that assumption");
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv, "CSV (one row per mechanism) instead of JSON");
    scale.addTo(command);
    splitOption = command.get_option("--split");
}

namespace {

/// The report's first fields, the same for every method: command, version, seed and the data.
nlohmann::ordered_json reportHeader(unsigned long long seed, nlohmann::ordered_json data) {
    nlohmann::ordered_json j;
    j["command"] = "audit";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = seed;
    j["data"] = std::move(data);
    return j;
}

// The mechanisms one audit command runs: every private one of the catalog (--all), or the one chosen.
std::vector<core::MechanismKind> auditedKinds(bool all, core::MechanismKind chosen) {
    if (!all)
        return {chosen};
    return core::privateMechanisms();
}

// "audits": [...] (--all) or "audit": {...}, each result's JSON named by its mechanism.
template <class Result, class ToJson>
void addAudits(nlohmann::ordered_json& j, const std::vector<std::pair<core::MechanismKind, Result>>& results, bool all,
               const ToJson& toJson) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& [kind, r] : results) {
        nlohmann::ordered_json a = toJson(r);
        a["mechanism"] = core::toString(kind);
        list.push_back(std::move(a));
    }
    if (all)
        j["audits"] = std::move(list);
    else
        j["audit"] = list.front();
}

// 3 when any claim is violated (README: exit statuses), else 0.
template <class Result>
int exitStatus(const std::vector<std::pair<core::MechanismKind, Result>>& results) {
    for (const auto& entry : results)
        if (entry.second.violated())
            return 3;
    return 0;
}

} // namespace

int AuditCommand::run() const {
    if (method != "whitebox" && view != "iterates")
        throw std::invalid_argument("--view is for --method whitebox");
    if (gaussianFit && (method != "two-dataset" || neighbour != "canary"))
        throw std::invalid_argument("--gaussian-fit is for the two-dataset audit with a canary (--method two-dataset, "
                                    "--neighbour canary)");
    if (method == "one-run")
        return runOneRun();
    if (method == "whitebox")
        return runWhitebox();
    if (neighbour != "canary")
        return runPipeline();
    if (row >= 0)
        throw std::invalid_argument("--row names the file's row an input neighbour changes: use it with --neighbour "
                                    "input-label|input-level|input-add (--canary-row for the canary)");
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
    spec.gaussianFit = gaussianFit;
    const std::vector<core::MechanismKind> kinds = auditedKinds(all, spec.mechanism.kind);
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
            o << core::toString(kind) << ',' << r.claimedEps << ',' << r.delta << ',' << core::toString(r.adjacency)
              << ',' << r.runs << ',' << r.bound.epsLB << ',' << r.bound.maxCertifiable << ',' << r.bound.fpr << ','
              << r.bound.fnr << ',' << (r.violated() ? "true" : "false") << ',' << r.seconds << '\n';
        writeOutput(out, o.str());
    } else {
        nlohmann::ordered_json j = reportHeader(seed, dataJson(prepared));
        addAudits(j, results, all, [](const auto& r) { return core::auditJson(r); });
        writeOutput(out, j.dump(1) + "\n");
    }
    for (const auto& [kind, r] : results)
        if (ClusterSession::instance().writesOutput())
            std::cerr << core::toString(kind) << ": " << core::auditVerdict(r) << " [" << r.seconds << " s]\n";
    return exitStatus(results);
}

int AuditCommand::runOneRun() const {
    if (neighbour != "canary" || row >= 0 || canaryRow >= 0)
        throw std::invalid_argument("--method one-run places its own canaries: --neighbour, --row and --canary-row are "
                                    "for the two-dataset audit");
    if (runsOption && runsOption->count() > 0)
        throw std::invalid_argument("--method one-run trains once: --runs is for the two-dataset audit (the one-run "
                                    "audit takes --canaries)");
    const ExperimentData prepared = data.prepare(seed);
    const core::SweepData sweep = core::sweepDataOf(prepared.train);
    core::OneRunAuditSpec spec;
    spec.mechanism = mech.spec();
    spec.eps = eps;
    spec.canaries = canaries;
    spec.alpha = alpha;
    spec.seed = seed;
    spec.threads = threads;
    std::vector<std::pair<core::MechanismKind, core::OneRunAuditResult>> results;
    for (core::MechanismKind kind : auditedKinds(all, spec.mechanism.kind)) {
        core::OneRunAuditSpec s = spec;
        if (all)
            core::selectMechanism(s.mechanism, kind);
        if (std::string problem = s.validate(); !problem.empty())
            throw std::invalid_argument(problem);
        results.emplace_back(kind, core::runOneRunAudit(sweep, s));
    }
    if (csv) {
        std::ostringstream o;
        o << "mechanism,method,eps,delta,adjacency,canaries,guesses,correct,eps_lb,max_certifiable,violated,seconds\n";
        for (const auto& [kind, r] : results)
            o << core::toString(kind) << ",one-run," << r.claimedEps << ',' << r.delta << ','
              << core::toString(r.adjacency) << ',' << r.bound.canaries << ',' << r.bound.best.guesses << ','
              << r.bound.best.correct << ',' << r.bound.epsLB << ',' << r.bound.maxCertifiable << ','
              << (r.violated() ? "true" : "false") << ',' << r.seconds << '\n';
        writeOutput(out, o.str());
    } else {
        nlohmann::ordered_json j = reportHeader(seed, dataJson(prepared));
        addAudits(j, results, all, [](const auto& r) { return core::oneRunAuditJson(r); });
        writeOutput(out, j.dump(1) + "\n");
    }
    for (const auto& [kind, r] : results)
        if (ClusterSession::instance().writesOutput())
            std::cerr << core::toString(kind) << ": " << core::oneRunAuditVerdict(r) << " [" << r.seconds << " s]\n";
    return exitStatus(results);
}

int AuditCommand::runWhitebox() const {
    if (neighbour != "canary" || row >= 0 || canaryRow >= 0)
        throw std::invalid_argument("--method whitebox places its own gradient canaries: --neighbour, --row and "
                                    "--canary-row are for the two-dataset audit");
    if (all)
        throw std::invalid_argument("--method whitebox audits DP-SGD only: --all is for the two-dataset and one-run "
                                    "audits");
    const ExperimentData prepared = data.prepare(seed);
    const core::SweepData sweep = core::sweepDataOf(prepared.train);
    core::WhiteboxAuditSpec spec;
    spec.mechanism = mech.spec();
    spec.eps = eps;
    spec.runs = runs;
    spec.alpha = alpha;
    spec.seed = seed;
    spec.threads = threads;
    if (canariesOption && canariesOption->count() > 0)
        spec.maxCanaries = canaries;
    spec.view = view == "residual" ? core::WhiteboxView::Residual : core::WhiteboxView::Iterates;
    if (std::string problem = spec.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const core::WhiteboxAuditResult r = core::runWhiteboxAudit(sweep, spec);
    if (csv) {
        std::ostringstream o;
        o << "mechanism,method,view,eps,delta,adjacency,sigma,q,steps,runs,canaries,evaluated,eps_lb,max_certifiable,"
             "fpr,fnr,violated,seconds\n";
        o << core::toString(spec.mechanism.kind) << ",whitebox," << core::toString(r.view) << ',' << r.claimedEps << ','
          << r.delta << ',' << core::toString(r.adjacency) << ',' << r.sigma << ',' << r.q << ',' << r.steps << ','
          << r.runs << ',' << r.canaries.size() << ',' << r.bound.evaluated << ',' << r.bound.epsLB << ','
          << r.bound.maxCertifiable << ',' << r.bound.fpr << ',' << r.bound.fnr << ','
          << (r.violated() ? "true" : "false") << ',' << r.seconds << '\n';
        writeOutput(out, o.str());
    } else {
        nlohmann::ordered_json j = reportHeader(seed, dataJson(prepared));
        nlohmann::ordered_json a = core::whiteboxAuditJson(r);
        a["mechanism"] = core::toString(spec.mechanism.kind);
        j["audit"] = std::move(a);
        writeOutput(out, j.dump(1) + "\n");
    }
    if (ClusterSession::instance().writesOutput())
        std::cerr << core::toString(spec.mechanism.kind) << ": " << core::whiteboxAuditVerdict(r) << " [" << r.seconds
                  << " s]\n";
    return r.violated() ? 3 : 0;
}

int AuditCommand::runPipeline() const {
    if (canaryRow >= 0)
        throw std::invalid_argument("--canary-row is for --neighbour canary; the input neighbours take --row");
    const auto cells = scale.executor();
    core::PipelineAuditSpec spec;
    spec.neighbour = core::parseOptionName(core::inputNeighbourNames(), neighbour, "neighbour");
    if (row >= 0)
        spec.row = row;
    ExperimentDataOptions options = data;
    if (options.testSpec.empty() && splitOption && splitOption->count() == 0)
        options.split = 0.3;
    spec.preparation = options.preparation();
    spec.splitSeed = seed;
    spec.audit.mechanism = mech.spec();
    spec.audit.eps = eps;
    spec.audit.runs = runs;
    spec.audit.alpha = alpha;
    spec.audit.seed = seed;
    spec.audit.threads = threads;
    spec.audit.executor = cells.get();
    core::PipelineInput input;
    input.spec = options.data.spec;
    input.options = options.data.toLoadOptions();
    input.text = core::datasetText(input.spec, resources::builtinBytesProvider());
    if (!options.testSpec.empty())
        input.test = options.load().test;
    const std::vector<core::MechanismKind> kinds = auditedKinds(all, spec.audit.mechanism.kind);
    std::vector<std::pair<core::MechanismKind, core::PipelineAuditResult>> results;
    for (core::MechanismKind kind : kinds) {
        core::PipelineAuditSpec s = spec;
        if (all)
            core::selectMechanism(s.audit.mechanism, kind);
        if (std::string problem = s.validate(); !problem.empty())
            throw std::invalid_argument(problem);
        results.emplace_back(kind, core::runPipelineAudit(input, s));
    }
    if (csv) {
        std::ostringstream o;
        o << "mechanism,neighbour,row,eps,claimed_eps,claimed_delta,claimed,runs,eps_lb,max_certifiable,fpr,fnr,"
             "structures_differ,differing_train_rows,violated,seconds\n";
        for (const auto& [kind, r] : results)
            o << core::toString(kind) << ',' << core::toString(r.neighbour.kind) << ',' << r.neighbour.row << ',' << eps
              << ',' << r.claimedEps << ',' << r.claimedDelta << ',' << (r.claimed ? "true" : "false") << ',' << r.runs
              << ',' << r.bound.epsLB << ',' << r.bound.maxCertifiable << ',' << r.bound.fpr << ',' << r.bound.fnr
              << ',' << (r.structural ? "true" : "false") << ',' << r.differingTrainRows << ','
              << (r.violated() ? "true" : "false") << ',' << r.seconds << '\n';
        writeOutput(out, o.str());
    } else {
        nlohmann::ordered_json j = reportHeader(
            seed,
            {{"spec", input.spec},
             {"test_fraction", spec.preparation.testFraction},
             {"test", options.testSpec.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(options.testSpec)}});
        addAudits(j, results, all, [](const auto& r) { return core::pipelineAuditJson(r); });
        writeOutput(out, j.dump(1) + "\n");
    }
    for (const auto& [kind, r] : results)
        if (ClusterSession::instance().writesOutput())
            std::cerr << core::toString(kind) << " (" << r.neighbour.description
                      << "): " << core::pipelineAuditVerdict(r) << " [" << r.seconds << " s]\n";
    return exitStatus(results);
}

} // namespace elab::app
