#include "app/cli/utility_command.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/split_list.h"
#include "app/cli/write_output.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/result_json.h"
#include "core/sweeps/mechanism_comparison.h"
#include "core/sweeps/monotonicity.h"
#include "core/sweeps/proposed_eps.h"
#include "core/sweeps/utility_sweep.h"

#include <algorithm>
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
    mech.addTo(command, utilityOnly);
    command.add_option("--eps", eps, "ε grid: A:B:K (K log-spaced from A to B) or a list a,b,c");
    command.add_option("--repeats", repeats, "Repetitions (noise draws) per ε")->check(CLI::PositiveNumber);
    command.add_option("--measure-at", measureAt, "Measuring points ε̄ for the Taylor estimates, e.g. 0.1,0.25");
    command.add_option("--estimators", estimators,
                       "first-order,second-order,inverse-eps,anchored,variance, or all (every one)");
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
        "for the measured curve; the GUI's rule). With several mechanisms, also the ε each needs on its "
        "measured curve, verified by measuring there (target_eps), and which needs the least (least_eps)");
    command
        .add_option("--rank-at", rankAt,
                    "With several mechanisms: rank them by the utility measured at this ε (every repetition)")
        ->check(CLI::PositiveNumber);
}

core::MechanismSpec UtilityCommand::mechanismSpec() const { return mech.spec(); }

namespace {

core::UtilitySweepSpec sweepSpecOf(const UtilityCommand& c, const MechanismOptions& mech, core::CellExecutor* cells) {
    core::UtilitySweepSpec spec;
    spec.mechanism = mech.spec();
    spec.grid = core::parseEpsGrid(c.eps);
    spec.repeats = c.repeats;
    spec.metric = core::utilityMetricFromString(c.metric);
    for (const auto& e : splitList(c.measureAt))
        spec.measureAt.push_back(core::parseEpsGrid(e).front());
    spec.estimators.clear();
    if (c.estimators == "all")
        for (const auto& [estimator, name] : core::estimatorNames())
            spec.estimators.push_back(estimator);
    else
        for (const auto& e : splitList(c.estimators))
            spec.estimators.push_back(core::estimatorFromString(e));
    spec.seed = c.seed.value();
    spec.threads = c.threads;
    spec.solverOptions.maxIterations = c.maxIterations;
    spec.reference = !c.noReference;
    spec.executor = cells;
    return spec;
}

void checkMonotonicity(MechanismRun& run, const std::string& prefix) {
    const bool higherIsBetter = !core::isLossMetric(run.spec.metric);
    run.monotonicity = core::checkMonotonicity(run.result.points, higherIsBetter);
    core::explainByExtraRidge(run.monotonicity, run.result.guarantees);
    if (!run.monotonicity.ok())
        std::cerr << "warning: " << prefix << run.monotonicity.message(higherIsBetter) << "\n";
}

/// The guarantee of a model at eps, as every report states it (ε chosen on the data).
nlohmann::ordered_json guaranteeAt(const UtilityCommand& c, const MechanismRun& run, const ExperimentData& prepared,
                                   double eps) {
    const core::PrivacyGuarantee g =
        core::withPipeline(core::mechanismInfo(run.spec.mechanism.kind)
                               .guarantee(run.spec.mechanism, prepared.train.rows(),
                                          run.result.classes >= 2 ? run.result.classes : 0, eps),
                           core::pipelineFacts(prepared.train));
    return guaranteeJson(c.seed.guarantee(core::withDataChosenEps(g)));
}

/// The report's "mechanism" block.
nlohmann::ordered_json mechanismJson(const UtilityCommand& c, const MechanismRun& run, const ExperimentData& prepared) {
    const core::UtilitySweepResult& r = run.result;
    return {{"name", run.mech.mechanism},
            {"loss", core::toString(run.spec.mechanism.model.loss.kind())},
            {"lambda", run.mech.lambda},
            {"lambda_convention", "L(θ) + (Λ/2n)‖θ‖²"},
            {"sgd", run.mech.parametersJson()},
            {"delta", run.spec.mechanism.usesDelta() ? run.mech.delta : 0.0},
            {"one_vs_rest", oneVsRestJson(r.classes, r.models, prepared.train.targets.classNames, run.spec.mechanism)},
            {"guarantee", guaranteeJson(c.seed.guarantee(r.guaranteeAtMax))},
            {"privacy_by_eps", core::privacyByEpsJson(r.grid, r.guarantees, r.models)}};
}

/// The fields of one mechanism's report after "grid": measured … cancelled.
nlohmann::ordered_json resultJson(const UtilityCommand& c, const MechanismRun& run, const ExperimentData& prepared) {
    const core::UtilitySweepResult& r = run.result;
    const core::UtilitySweepSpec& spec = run.spec;
    const bool higherIsBetter = !core::isLossMetric(spec.metric);
    nlohmann::ordered_json j;
    nlohmann::ordered_json mean = nlohmann::ordered_json::array(), sd = nlohmann::ordered_json::array(),
                           values = nlohmann::ordered_json::array();
    for (const auto& p : r.points) {
        mean.push_back(p.mean);
        sd.push_back(p.sd);
        values.push_back(p.values);
    }
    j["measured"] = {{"mean", mean}, {"std", sd}, {"values", values}};
    j["monotonicity"] = core::monotonicityJson(run.monotonicity, higherIsBetter);
    if (c.target) {
        const core::ProposedEps proposal =
            core::proposeEps(r.points, r.measuring.empty() ? nullptr : &r.measuring.front(),
                             spec.estimators.empty() ? core::Estimator::InverseEps : spec.estimators.front(), *c.target,
                             spec.metric, spec.grid.front(), spec.grid.back());
        j["proposed"] = {
            {"target", *c.target},
            {"eps", proposal.eps ? nlohmann::ordered_json(*proposal.eps) : nlohmann::ordered_json()},
            {"from", !proposal.eps           ? "none"
                     : proposal.fromEstimate ? "estimate"
                                             : "measured curve"},
            {"estimate_set_aside", proposal.setAside
                                       ? nlohmann::ordered_json{{"eps", *proposal.setAside},
                                                                {"measure_at", proposal.measureAt},
                                                                {"reason", core::toString(proposal.doubt)},
                                                                {"text", core::doubtText(proposal, !higherIsBetter)}}
                                       : nlohmann::ordered_json()},
            {"guarantee", proposal.eps ? guaranteeAt(c, run, prepared, *proposal.eps) : nlohmann::ordered_json()}};
    }
    j["nonprivate"] = numberOrNull(r.nonPrivate);
    if (!r.trainLossBound.empty()) { // MATH.md §4.5: E[training loss] ≤ this, per grid ε
        nlohmann::ordered_json bound = nlohmann::ordered_json::array();
        for (double v : r.trainLossBound)
            bound.push_back(numberOrNull(v));
        j["train_loss_bound"] = bound;
    }
    nlohmann::ordered_json estimatesJson = nlohmann::ordered_json::array(), errors = nlohmann::ordered_json::array();
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
    return j;
}

nlohmann::ordered_json reportHeader(const UtilityCommand& c, const ExperimentData& prepared) {
    nlohmann::ordered_json j;
    j["command"] = "utility";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = c.seed.json();
    j["seed_mode"] = core::toString(c.seed.mode());
    j["data"] = dataJson(prepared);
    j["classes"] = classCount(prepared);
    return j;
}

} // namespace

/// The measured mean and sd at eps with every repetition (a grid point's when eps is on the grid).
core::SweepPoint measuredAt(const MechanismRun& run, double eps) {
    for (const core::SweepPoint& p : run.result.points)
        if (p.eps == eps)
            return p;
    core::UtilitySweepSpec spec = run.spec;
    spec.grid = {eps};
    spec.measureAt.clear();
    spec.estimators.clear();
    spec.reference = false;
    spec.executor = nullptr;
    const core::UtilitySweepResult r = core::runUtilitySweep(*run.problem, spec);
    return r.points.front();
}

namespace {

// Long format: one row per mechanism and grid ε; the estimate columns are every mechanism's
// (empty where one has none), the branch and the constants ("name=value;…") as each has them.
std::string comparisonCsv(const std::vector<MechanismRun>& runs) {
    std::vector<std::pair<core::Estimator, double>> columns;
    for (const MechanismRun& run : runs)
        for (const auto& e : run.result.estimates)
            if (std::find(columns.begin(), columns.end(), std::pair(e.estimator, e.measureAt)) == columns.end())
                columns.emplace_back(e.estimator, e.measureAt);
    std::ostringstream out;
    out.precision(10);
    out << "mechanism,eps,measured_mean,measured_std";
    for (const auto& [estimator, at] : columns)
        out << ",estimate_" << core::toString(estimator) << "_at_" << at;
    out << ",branch,constants\n";
    for (const MechanismRun& run : runs) {
        const core::UtilitySweepResult& r = run.result;
        for (const auto& p : r.points) {
            const auto g = static_cast<std::size_t>(p.gridIndex);
            out << run.mech.mechanism << ',' << p.eps << ',' << p.mean << ',' << p.sd;
            for (const auto& column : columns) {
                out << ',';
                for (const auto& e : r.estimates)
                    if (e.estimator == column.first && e.measureAt == column.second)
                        out << e.values[g];
            }
            out << ',' << (g < r.guarantees.size() ? r.guarantees[g].branch : std::string()) << ',';
            if (g < r.guarantees.size())
                for (std::size_t k = 0; k < r.guarantees[g].parameters.size(); ++k)
                    out << (k ? ";" : "") << r.guarantees[g].parameters[k].name << '='
                        << r.guarantees[g].parameters[k].value;
            out << "\n";
        }
    }
    return out.str();
}

} // namespace

int UtilityCommand::run() const {
    if (const std::vector<std::string> names = mech.names(); names.size() > 1)
        return runComparison(names);
    if (rankAt)
        throw std::invalid_argument("--rank-at ranks several mechanisms: name two or more, e.g. --mechanism "
                                    "objpert-gauss,outpert-gauss");
    const auto cells = scale.executor(); // a checkpoint of other settings is refused before any work
    if (seed.secret && cells)
        throw std::invalid_argument("--secret-seed runs in one process: its seed is written nowhere, so a checkpoint, "
                                    "a shard or other MPI ranks could not share it");
    const ExperimentData prepared = data.prepare(seed.value());
    MechanismRun run;
    run.mech = mech;
    run.spec = sweepSpecOf(*this, mech, cells.get());
    requireLabelKind(run.spec.mechanism, prepared);
    run.result = core::runUtilitySweep(sweepDataOf(prepared), run.spec);
    checkMonotonicity(run, "");

    std::string text;
    if (csv) {
        text = csvText(run.result);
    } else {
        nlohmann::ordered_json j = reportHeader(*this, prepared);
        j["mechanism"] = mechanismJson(*this, run, prepared);
        j["metric"] = metric;
        j["repeats"] = repeats;
        j["grid"] = run.result.grid;
        const nlohmann::ordered_json fields = resultJson(*this, run, prepared);
        for (const auto& item : fields.items())
            j[item.key()] = item.value();
        text = j.dump(2) + "\n";
    }
    writeOutput(out, text);
    return 0;
}

std::vector<MechanismRun> UtilityCommand::sweepMechanisms(const ExperimentData& prepared) const {
    const core::UtilityMetric utilityMetric = core::utilityMetricFromString(metric);
    std::vector<MechanismRun> runs;
    for (const std::string& name : mech.names()) { // one after another, each on every core
        MechanismRun& run = runs.emplace_back();
        run.mech = mech.with(name);
        run.spec = sweepSpecOf(*this, run.mech, nullptr);
        // Measuring points are for the mechanisms with Taylor estimates; the others are measured only.
        if (!core::mechanismInfo(run.spec.mechanism.kind).taylor || !core::isLossMetric(utilityMetric))
            run.spec.measureAt.clear();
        try {
            if (std::string e = run.spec.validate(); !e.empty())
                throw std::invalid_argument(e);
            requireLabelKind(run.spec.mechanism, prepared);
            run.problem = core::prepareProblem(sweepDataOf(prepared), run.spec.mechanism, run.spec.metric);
            run.result = core::runUtilitySweep(*run.problem, run.spec);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("--mechanism " + name + ": " + e.what());
        }
        checkMonotonicity(run, name + ": ");
    }
    return runs;
}

core::TargetEps UtilityCommand::targetEps(const MechanismRun& run) const {
    core::TargetEpsSpec t;
    t.target = target.value_or(0.0);
    t.metric = core::utilityMetricFromString(metric);
    t.repeats = repeats;
    t.seed = seed.value();
    t.threads = threads;
    t.solverOptions = run.spec.solverOptions;
    return core::verifyTargetEps(*run.problem, run.result.points, t);
}

int UtilityCommand::runComparison(const std::vector<std::string>& /*names: mech.names()*/) const {
    if (scale.executor())
        throw std::invalid_argument("--checkpoint, --shard and MPI runs sweep one mechanism; compare several (" +
                                    mech.mechanism + ") in one process");
    const ExperimentData prepared = data.prepare(seed.value());
    const core::UtilityMetric utilityMetric = core::utilityMetricFromString(metric);
    const std::vector<MechanismRun> runs = sweepMechanisms(prepared);
    if (csv) {
        writeOutput(out, comparisonCsv(runs));
        return 0;
    }

    nlohmann::ordered_json j = reportHeader(*this, prepared);
    j["metric"] = metric;
    j["repeats"] = repeats;
    j["grid"] = runs.front().result.grid;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::vector<std::optional<double>> verified;
    std::vector<core::SweepPoint> atEps;
    for (const MechanismRun& run : runs) {
        nlohmann::ordered_json m;
        m["mechanism"] = mechanismJson(*this, run, prepared);
        const nlohmann::ordered_json fields = resultJson(*this, run, prepared);
        for (const auto& item : fields.items())
            m[item.key()] = item.value();
        if (run.spec.measureAt.empty() && !measureAt.empty())
            m["estimates_note"] = core::mechanismInfo(run.spec.mechanism.kind).taylor
                                      ? "Taylor estimates need a loss metric"
                                      : core::mechanismInfo(run.spec.mechanism.kind).noTaylorReason;
        if (target) {
            const core::TargetEps found = targetEps(run);
            nlohmann::ordered_json steps = nlohmann::ordered_json::array();
            for (const core::TargetEpsStep& s : found.steps)
                steps.push_back({{"eps", s.eps}, {"mean", s.mean}, {"std", s.sd}, {"meets", s.meets}});
            m["target_eps"] = {
                {"target", *target},
                {"measured", found.measured ? nlohmann::ordered_json(*found.measured) : nlohmann::ordered_json()},
                {"verified", found.verified ? nlohmann::ordered_json(*found.verified) : nlohmann::ordered_json()},
                {"steps", steps},
                {"guarantee",
                 found.verified ? guaranteeAt(*this, run, prepared, *found.verified) : nlohmann::ordered_json()}};
            verified.push_back(found.verified);
        }
        if (rankAt) {
            const core::SweepPoint p = measuredAt(run, *rankAt);
            m["at_eps"] = {{"eps", *rankAt}, {"mean", p.mean}, {"std", p.sd}, {"values", p.values}};
            atEps.push_back(p);
        }
        list.push_back(m);
    }
    j["mechanisms"] = list;
    if (rankAt) {
        std::vector<double> means;
        for (const core::SweepPoint& p : atEps)
            means.push_back(p.mean);
        nlohmann::ordered_json order = nlohmann::ordered_json::array();
        int rank = 0;
        for (std::size_t i : core::rankByUtility(means, utilityMetric))
            order.push_back({{"rank", ++rank},
                             {"mechanism", runs[i].mech.mechanism},
                             {"mean", numberOrNull(atEps[i].mean)},
                             {"std", numberOrNull(atEps[i].sd)}});
        j["ranking"] = {
            {"eps", *rankAt}, {"better", core::isLossMetric(utilityMetric) ? "lower" : "higher"}, {"order", order}};
    }
    if (target) {
        const std::optional<std::size_t> least = core::leastEps(verified);
        j["least_eps"] = {
            {"target", *target},
            {"mechanism", least ? nlohmann::ordered_json(runs[*least].mech.mechanism) : nlohmann::ordered_json()},
            {"eps", least ? nlohmann::ordered_json(*verified[*least]) : nlohmann::ordered_json()},
            {"from", "verified"}};
    }
    writeOutput(out, j.dump(2) + "\n");
    return 0;
}

} // namespace elab::app
