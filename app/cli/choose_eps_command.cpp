#include "app/cli/utility_command.h"

#include "app/cli/split_list.h"
#include "app/cli/write_output.h"

#include "core/report/result_json.h"
#include "core/sweeps/choose_eps.h"
#include "core/sweeps/utility_sweep.h"

#include <stdexcept>

namespace elab::app {

using core::guaranteeJson;
using core::numberOrNull;
using core::oneVsRestJson;
using core::solverJson;

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
