#include "app/cli/utility_command.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/split_list.h"
#include "app/cli/write_output.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/result_json.h"
#include "core/sweeps/choose_eps.h"
#include "core/sweeps/monotonicity.h"
#include "core/sweeps/proposed_eps.h"
#include "core/sweeps/utility_sweep.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace elab::app {

using core::guaranteeJson;
using core::numberOrNull;
using core::oneVsRestJson;
using core::solverJson;

namespace {

// The grid, the measured mean and sd, the estimates, then the mechanism's branch (if it has
// branches) and its constants at each grid ε (one-vs-rest: each model's, at ε/K).
std::string csvText(const core::UtilitySweepResult& r) {
    std::ostringstream out;
    out.precision(10);
    const core::PrivacyGuarantee& first = r.guarantees.front();
    const bool branches = !first.branch.empty();
    out << "eps,measured_mean,measured_std";
    for (const auto& e : r.estimates)
        out << ",estimate_" << core::toString(e.estimator) << "_at_" << e.measureAt;
    if (branches)
        out << ",branch";
    for (const auto& parameter : first.parameters)
        out << ',' << parameter.name;
    out << "\n";
    for (const auto& p : r.points) {
        const auto g = static_cast<std::size_t>(p.gridIndex);
        out << p.eps << ',' << p.mean << ',' << p.sd;
        for (const auto& e : r.estimates)
            out << ',' << e.values[g];
        if (branches)
            out << ',' << r.guarantees[g].branch;
        for (const auto& parameter : r.guarantees[g].parameters)
            out << ',' << parameter.value;
        out << "\n";
    }
    return out.str();
}

} // namespace

void UtilityCommand::addTo(CLI::App& command, bool utilityOnly) {
    data.addTo(command);
    mech.addTo(command);
    command.add_option("--eps", eps, "ε grid: A:B:K (K log-spaced from A to B) or a list a,b,c");
    command.add_option("--repeats", repeats, "Repetitions (noise draws) per ε")->check(CLI::PositiveNumber);
    command.add_option("--measure-at", measureAt, "Measuring points ε̄ for the Taylor estimates, e.g. 0.1,0.25");
    command.add_option("--estimators", estimators, "first-order,second-order,inverse-eps,anchored");
    command.add_option("--metric", metric, "Utility")
        ->check(CLI::IsMember(core::optionNameList(core::utilityMetricNames())));
    seed.addTo(command, "every random stream (noise, split)");
    command.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
    command.add_option("--max-iterations", maxIterations, "Newton iterations per fit before giving up (reported)")
        ->check(CLI::PositiveNumber);
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv,
                     "CSV (grid, measured mean and sd, estimates, the mechanism's branch and constants) "
                     "instead of JSON");
    if (!utilityOnly)
        return;
    scale.addTo(command);
    command.add_flag("--no-reference", noReference,
                     "Skip the non-private reference fit (\"nonprivate\": null); measuring points fit it anyway");
    command.add_option(
        "--target", target,
        "Also report the proposed ε for this utility: the smallest grid-range ε where the first "
        "estimator from the first measuring point meets it, unless the measured curve contradicts it, its "
        "line passes the non-private level or it lies 10× from the measuring point (then set aside "
        "for the measured curve; the GUI's rule)");
}

core::MechanismSpec UtilityCommand::mechanismSpec() const { return mech.spec(); }

namespace {

// Margin losses take a binary label, or a multiclass one (one-vs-rest, budget split).
void requireLabelKind(const core::MechanismSpec& spec, const ExperimentData& prepared) {
    const core::TaskKind task = prepared.train.targets.kind;
    if (spec.model.loss.isMargin() && task == core::TaskKind::Regression)
        throw std::invalid_argument(std::string("the ") + core::toString(spec.model.loss.kind()) +
                                    " loss needs a class label, the data has a regression target (the squared loss "
                                    "fits it, non-private only)");
    if (!spec.model.loss.isMargin() && task != core::TaskKind::Regression)
        throw std::invalid_argument("squared loss needs a regression target");
}

core::SweepData sweepDataOf(const ExperimentData& prepared) {
    return core::sweepDataOf(prepared.train, prepared.test ? &*prepared.test : nullptr);
}

// Class names for the JSON: those of the one-vs-rest models, none for a binary model.
std::vector<std::string> modelNames(const ExperimentData& prepared, int classes) {
    return classes >= 2 ? prepared.train.targets.classNames : std::vector<std::string>{};
}

nlohmann::ordered_json classCount(const ExperimentData& prepared) {
    return prepared.train.targets.isClassification() ? nlohmann::ordered_json(prepared.train.targets.classCount())
                                                     : nlohmann::ordered_json();
}

} // namespace

int UtilityCommand::run() const {
    const auto cells = scale.executor(); // a checkpoint of other settings is refused before any work
    if (seed.secret && cells)
        throw std::invalid_argument("--secret-seed runs in one process: its seed is written nowhere, so a checkpoint, "
                                    "a shard or other MPI ranks could not share it");
    const ExperimentData prepared = data.prepare(seed.value());
    core::UtilitySweepSpec spec;
    spec.mechanism = mechanismSpec();
    spec.grid = core::parseEpsGrid(eps);
    spec.repeats = repeats;
    spec.metric = core::utilityMetricFromString(metric);
    for (const auto& e : splitList(measureAt))
        spec.measureAt.push_back(core::parseEpsGrid(e).front());
    spec.estimators.clear();
    for (const auto& e : splitList(estimators))
        spec.estimators.push_back(core::estimatorFromString(e));
    spec.seed = seed.value();
    spec.threads = threads;
    spec.solverOptions.maxIterations = maxIterations;
    spec.reference = !noReference;
    spec.executor = cells.get();

    requireLabelKind(spec.mechanism, prepared);
    const core::UtilitySweepResult r = core::runUtilitySweep(sweepDataOf(prepared), spec);
    const bool higherIsBetter = !core::isLossMetric(spec.metric);
    core::MonotonicityCheck monotonicity = core::checkMonotonicity(r.points, higherIsBetter);
    core::explainByExtraRidge(monotonicity, r.guarantees);
    if (!monotonicity.ok())
        std::cerr << "warning: " << monotonicity.message(higherIsBetter) << "\n";

    std::string text;
    if (csv) {
        text = csvText(r);
    } else {
        nlohmann::ordered_json j;
        j["command"] = "utility";
        j["version"] = EPSILONLAB_VERSION;
        j["seed"] = seed.json();
        j["seed_mode"] = core::toString(seed.mode());
        j["data"] = dataJson(prepared);
        j["classes"] = classCount(prepared);
        j["mechanism"] = {
            {"name", mech.mechanism},
            {"loss", core::toString(spec.mechanism.model.loss.kind())},
            {"lambda", mech.lambda},
            {"lambda_convention", "L(θ) + (Λ/2n)‖θ‖²"},
            {"sgd", mech.parametersJson()},
            {"delta", spec.mechanism.usesDelta() ? mech.delta : 0.0},
            {"one_vs_rest", oneVsRestJson(r.classes, r.models, prepared.train.targets.classNames, spec.mechanism)},
            {"guarantee", guaranteeJson(seed.guarantee(r.guaranteeAtMax))},
            {"privacy_by_eps", core::privacyByEpsJson(r.grid, r.guarantees, r.models)}};
        j["metric"] = metric;
        j["repeats"] = repeats;
        j["grid"] = r.grid;
        nlohmann::ordered_json mean = nlohmann::ordered_json::array(), sd = nlohmann::ordered_json::array(),
                               values = nlohmann::ordered_json::array();
        for (const auto& p : r.points) {
            mean.push_back(p.mean);
            sd.push_back(p.sd);
            values.push_back(p.values);
        }
        j["measured"] = {{"mean", mean}, {"std", sd}, {"values", values}};
        j["monotonicity"] = core::monotonicityJson(monotonicity, higherIsBetter);
        if (target) {
            const core::ProposedEps proposal =
                core::proposeEps(r.points, r.measuring.empty() ? nullptr : &r.measuring.front(),
                                 spec.estimators.empty() ? core::Estimator::InverseEps : spec.estimators.front(),
                                 *target, spec.metric, spec.grid.front(), spec.grid.back());
            nlohmann::ordered_json proposedGuarantee;
            if (proposal.eps) { // the guarantee of a model at the proposed ε, as every report states it
                const core::PrivacyGuarantee g =
                    core::withPipeline(core::mechanismInfo(spec.mechanism.kind)
                                           .guarantee(spec.mechanism, prepared.train.rows(),
                                                      r.classes >= 2 ? r.classes : 0, *proposal.eps),
                                       core::pipelineFacts(prepared.train));
                proposedGuarantee = guaranteeJson(seed.guarantee(core::withDataChosenEps(g)));
            }
            j["proposed"] = {{"target", *target},
                             {"eps", proposal.eps ? nlohmann::ordered_json(*proposal.eps) : nlohmann::ordered_json()},
                             {"from", !proposal.eps           ? "none"
                                      : proposal.fromEstimate ? "estimate"
                                                              : "measured curve"},
                             {"estimate_set_aside",
                              proposal.setAside
                                  ? nlohmann::ordered_json{{"eps", *proposal.setAside},
                                                           {"measure_at", proposal.measureAt},
                                                           {"reason", core::toString(proposal.doubt)},
                                                           {"text", core::doubtText(proposal, !higherIsBetter)}}
                                  : nlohmann::ordered_json()},
                             {"guarantee", proposedGuarantee}};
        }
        j["nonprivate"] = numberOrNull(r.nonPrivate);
        if (!r.trainLossBound.empty()) { // MATH.md §4.5: E[training loss] ≤ this, per grid ε
            nlohmann::ordered_json bound = nlohmann::ordered_json::array();
            for (double v : r.trainLossBound)
                bound.push_back(numberOrNull(v));
            j["train_loss_bound"] = bound;
        }
        nlohmann::ordered_json estimatesJson = nlohmann::ordered_json::array(),
                               errors = nlohmann::ordered_json::array();
        for (const auto& e : r.estimates) {
            estimatesJson.push_back({{"measure_at", e.measureAt},
                                     {"estimator", core::toString(e.estimator)},
                                     {"measured_value", e.measuredValue},
                                     {"derivative", e.derivative},
                                     {"values", e.values}});
            errors.push_back({{"measure_at", e.measureAt},
                              {"estimator", core::toString(e.estimator)},
                              {"mean_abs_error", e.meanAbsError}});
        }
        j["estimates"] = estimatesJson;
        j["errors"] = errors;
        const auto names = modelNames(prepared, r.classes);
        j["solver"] = solverJson(r.solver, names);
        j["solver"]["measuring"] = solverJson(r.measuringSolver, names);
        j["timings"] = {
            {"fits", r.fits}, {"seconds_measured", r.secondsMeasured}, {"seconds_estimates", r.secondsEstimates}};
        j["cancelled"] = r.cancelled;
        text = j.dump(2) + "\n";
    }
    writeOutput(out, text);
    return 0;
}

void ChooseEpsCommand::addTo(CLI::App& command) {
    common.addTo(command, false);
    command.add_option("--target", target, "Required utility F̂ (a loss: met when measured ≤ F̂)")->required();
    command.add_option("--tolerance", tolerance, "Stop when F̂ − tolerance ≤ measured ≤ F̂")->check(CLI::PositiveNumber);
    command.add_option("--estimator", estimator, "Line used to propose the next ε")
        ->check(CLI::IsMember({"first-order", "inverse-eps"}));
    command.add_option("--max-steps", maxSteps, "Most refinement steps")->check(CLI::PositiveNumber);
}

namespace {
nlohmann::ordered_json stepsJson(const std::vector<core::ChooseEpsStep>& steps) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& s : steps) {
        nlohmann::ordered_json j{{"eps", s.eps}, {"measured", s.measured}};
        j["derivative"] = numberOrNull(s.derivative);
        j["next_eps"] = numberOrNull(s.proposed);
        j["meets_target"] = s.meets;
        j["trainings"] = s.trainings;
        j["values"] = s.values;
        list.push_back(j);
    }
    return list;
}
} // namespace

int ChooseEpsCommand::run() const {
    const ExperimentData prepared = common.data.prepare(common.seed.value());
    core::ChooseEpsSpec spec;
    spec.mechanism = common.mechanismSpec();
    spec.metric = core::utilityMetricFromString(common.metric);
    spec.target = target;
    spec.tolerance = tolerance;
    spec.measureAt = common.measureAt.empty() ? 1.0 : core::parseEpsGrid(splitList(common.measureAt).front()).front();
    spec.estimator = core::estimatorFromString(estimator);
    spec.repeats = common.repeats;
    spec.maxSteps = maxSteps;
    spec.seed = common.seed.value();
    spec.threads = common.threads;
    spec.solverOptions.maxIterations = common.maxIterations;
    requireLabelKind(spec.mechanism, prepared);
    const core::ChooseEpsResult r = core::chooseEpsilon(sweepDataOf(prepared), spec);

    nlohmann::ordered_json j;
    j["command"] = "choose-eps";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = common.seed.json();
    j["seed_mode"] = core::toString(common.seed.mode());
    j["data"] = dataJson(prepared);
    j["classes"] = classCount(prepared);
    j["mechanism"] = {
        {"name", common.mech.mechanism},
        {"loss", core::toString(spec.mechanism.model.loss.kind())},
        {"lambda", common.mech.lambda},
        {"delta", common.mech.delta},
        {"one_vs_rest", oneVsRestJson(r.classes, r.models, prepared.train.targets.classNames, spec.mechanism)},
        {"guarantee_at_chosen_eps",
         r.guarantee.notion.empty() ? nlohmann::ordered_json() : guaranteeJson(common.seed.guarantee(r.guarantee))}};
    j["metric"] = common.metric;
    j["target"] = target;
    j["tolerance"] = tolerance;
    j["repeats"] = common.repeats;
    j["nonprivate"] = r.nonPrivate;
    j["reachable"] = r.reachable;
    j["algorithm1_estimate"] = numberOrNull(r.firstEstimate);
    j["estimator"] = estimator;
    j["steps"] = stepsJson(r.steps);
    j["chosen_eps"] = numberOrNull(r.chosenEps);
    j["converged"] = r.converged;
    j["trainings"] = r.steps.empty() ? 0 : r.steps.back().trainings;
    j["bisection"] = {{"steps", stepsJson(r.bisection)},
                      {"eps", numberOrNull(r.bisectionEps)},
                      {"trainings", r.bisection.empty() ? 0 : r.bisection.back().trainings}};
    const auto names = modelNames(prepared, r.classes);
    j["solver"] = solverJson(r.solver, names);
    j["solver"]["bisection"] = solverJson(r.bisectionSolver, names);
    j["note"] =
        "choosing ε by measuring utility on the private data spends privacy unless the data is public or a proxy";
    writeOutput(common.out, j.dump(2) + "\n");
    return r.reachable ? 0 : 3;
}

} // namespace elab::app
