#include "app/cli/stability_command.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/split_list.h"
#include "app/cli/write_output.h"

#include "core/report/result_json.h"
#include "core/stability/stability_defaults.h"
#include "core/stability/stability_sweep.h"

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

nlohmann::ordered_json meanSdJson(const core::MeanSd& v) {
    return {{"mean", numberOrNull(v.mean)}, {"sd", numberOrNull(v.sd)}};
}

std::string csvText(const core::StabilityResult& r) {
    std::ostringstream out;
    out.precision(10);
    out << "rho,method,removed,test_error_mean,test_error_sd,marginal_error_mean,marginal_error_sd,"
           "mean_difference,separable\n";
    for (const auto& c : r.cells)
        out << c.rho << ',' << core::toString(c.method) << ',' << c.removed << ',' << c.testError.mean << ','
            << c.testError.sd << ',' << c.marginalError.mean << ',' << c.marginalError.sd << ',' << c.meanDifference
            << ',' << c.separable << "\n";
    return out.str();
}

nlohmann::ordered_json methodJson(const core::StabilityResult& r, std::size_t m) {
    const core::MethodBaseline& base = r.baselines[m];
    nlohmann::ordered_json j;
    j["method"] = core::toString(base.method);
    nlohmann::ordered_json testMean = nlohmann::ordered_json::array(), testSd = testMean, marginalMean = testMean,
                           marginalSd = testMean, difference = testMean, errors = testMean, separable = testMean,
                           notConverged = testMean;
    for (const auto& c : r.cells) {
        if (c.methodIndex != m)
            continue;
        testMean.push_back(c.testError.mean);
        testSd.push_back(c.testError.sd);
        marginalMean.push_back(c.marginalError.mean);
        marginalSd.push_back(c.marginalError.sd);
        difference.push_back(c.meanDifference);
        errors.push_back(c.errors);
        separable.push_back(c.separable);
        notConverged.push_back(c.notConverged);
    }
    j["test_error"] = {{"mean", testMean}, {"sd", testSd}};
    j["marginal_error"] = {{"mean", marginalMean}, {"sd", marginalSd}};
    j["mean_difference"] = difference;
    j["full_data"] = {{"test_error", meanSdJson(base.fullError)},
                      {"train_loss", base.trainLoss},
                      {"theta_norm", base.thetaNorm},
                      {"iterations", base.iterations},
                      {"status", core::toString(base.status)},
                      {"separable", base.separable}};
    if (base.method == core::StabilityMethod::L2)
        j["lambda"] = {{"chosen", base.mu},          {"convention", "mean form: L(θ) + (λ/2)‖θ‖²"},
                       {"cv_folds", base.cv.folds},  {"grid", base.cv.grid},
                       {"cv_error", base.cv.scores}, {"cv_loss", base.cv.losses}};
    else
        j["lambda"] = nullptr;
    j["separable"] = separable;
    j["not_converged"] = notConverged;
    j["errors"] = errors;
    if (m < r.stability.size()) {
        const core::ModelStability& s = r.stability[m];
        j["model_stability"] = {{"samples", s.samples},
                                {"mean", s.distance.mean},
                                {"sd", s.distance.sd},
                                {"max", s.maxDistance},
                                {"relative_mean", numberOrNull(s.relativeMean)}};
    } else {
        j["model_stability"] = nullptr;
    }
    return j;
}

} // namespace

void StabilityCommand::addTo(CLI::App& command) {
    data.norm = "auto";
    data.addTo(command);
    command
        .add_option("--model", model,
                    "logistic (labels ±1) or linear (squared loss, MSE). Default preprocessing "
                    "(--norm auto): logistic → dense columns standardised, then rows clipped to norm 1 "
                    "(sparse bag-of-words: rows clipped only); linear → columns standardised, norms "
                    "left, intercept fitted")
        ->check(CLI::IsMember(core::optionNameList(core::stabilityModelNames())));
    command.add_option("--methods", methods, "Comma list of none, l2, dropout, deterministic-dropout");
    command.add_option("--dropout-rate", dropoutRate, "Dropout rate 1 − q (q: keep probability)")
        ->check(CLI::Range(0.0, 0.99));
    command
        .add_option("--removal", removal,
                    "random: train on a random (1 − ρ) fraction; adversarial: drop the nρ "
                    "rows with the smallest |⟨x, θ_full⟩|")
        ->check(CLI::IsMember(core::optionNameList(core::removalKindNames())));
    command.add_option("--rho", rho,
                       "Fractions removed: A:B:K = K LINEARLY spaced points from A to B (0 ≤ A ≤ B < 1), "
                       "or a list a,b,c");
    command.add_option("--repeats", repeats, "Repetitions per ρ")->check(CLI::PositiveNumber);
    command.add_option("--l2-grid", l2Grid, "Candidates λ of L(θ) + (λ/2)‖θ‖² for the L2 learner's CV");
    command.add_option("--cv-folds", cvFolds, "Folds of the cross-validation")->check(CLI::Range(2, 100));
    command.add_flag("--cv-per-fit", cvPerFit, "Re-tune λ on every reduced training set (default: once, on all of it)");
    command.add_option("--epochs", epochs, "Dropout GD epochs")->check(CLI::PositiveNumber);
    command.add_option("--batch-size", batchSize, "Dropout GD minibatch size")->check(CLI::PositiveNumber);
    command.add_option("--step-size", stepSize, "Dropout GD η₀ (0: 1/L̂, see docs)")->check(CLI::NonNegativeNumber);
    command.add_option("--hermite-nodes", hermiteNodes, "Gauss–Hermite nodes (deterministic dropout, logistic)")
        ->check(CLI::Range(20, 200));
    command.add_option("--stability-samples", stabilitySamples, "Rows i for ‖θ(D) − θ(D∖{i})‖ (0: skip)")
        ->check(CLI::NonNegativeNumber);
    command.add_flag("--no-fit-intercept", noIntercept, "Linear model: no intercept (default: fitted by centring)");
    command.add_option("--seed", seed, "Seed of every random stream (split, removal, masks, folds)");
    command.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
    scale.addTo(command);
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv, "CSV (one row per ρ and method) instead of JSON");
}

int StabilityCommand::run() const {
    const auto cells = scale.executor(); // a checkpoint of other settings is refused before any work
    const core::StabilityModel kind = core::stabilityModelFromString(model);
    ExperimentDataOptions options = data;
    if (options.testSpec.empty() && !(options.split > 0.0))
        throw std::invalid_argument("the stability study needs a test set: --test FILE or --split FRACTION");
    ExperimentData loaded = options.load();
    if (options.norm == "auto") {
        const core::PreprocessOptions defaults =
            core::defaultStabilityPreprocess(kind, loaded.train.features.isSparse());
        options.norm = core::optionName(core::normPolicyNames(), defaults.norm);
        options.standardise = options.standardise || defaults.standardise;
    }
    const ExperimentData prepared = options.prepare(std::move(loaded), seed);
    if (const std::string problem = core::stabilityTaskProblem(kind, prepared.train.targets.kind); !problem.empty())
        throw std::invalid_argument(problem);

    core::StabilitySpec spec;
    spec.learner.model = kind;
    spec.learner.keep = 1.0 - dropoutRate;
    spec.learner.fitIntercept = !noIntercept && core::stabilityFitsIntercept(kind, prepared.train.features.isSparse());
    spec.learner.l2Grid.clear();
    for (const auto& v : splitList(l2Grid)) {
        std::size_t used = 0;
        double value = 0.0;
        try {
            value = std::stod(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != v.size())
            throw std::invalid_argument("not a number: '" + v + "' in --l2-grid");
        spec.learner.l2Grid.push_back(value);
    }
    spec.learner.cvFolds = cvFolds;
    spec.learner.epochs = epochs;
    spec.learner.batchSize = batchSize;
    spec.learner.stepSize = stepSize;
    spec.learner.hermiteNodes = hermiteNodes;
    spec.methods.clear();
    for (const auto& m : splitList(methods))
        spec.methods.push_back(core::stabilityMethodFromString(m));
    spec.removal = core::removalKindFromString(removal);
    spec.rho = core::parseRhoGrid(rho);
    spec.repeats = repeats;
    spec.stabilitySamples = stabilitySamples;
    spec.cvPerFit = cvPerFit;
    spec.seed = seed;
    spec.threads = threads;
    spec.executor = cells.get();
    const core::StabilityData stabilityData{prepared.train.features, prepared.train.targets.values,
                                            prepared.test->features, prepared.test->targets.values};
    const core::StabilityResult r = core::runStabilitySweep(stabilityData, spec);

    if (csv) {
        writeOutput(out, csvText(r));
        return 0;
    }
    nlohmann::ordered_json j;
    j["command"] = "stability";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = seed;
    j["data"] = dataJson(prepared);
    j["model"] = model;
    j["error_measure"] = kind == core::StabilityModel::Logistic ? "misclassification rate" : "mean squared error";
    j["dropout_rate"] = dropoutRate;
    j["keep_probability"] = spec.learner.keep;
    j["removal"] = removal;
    j["rho"] = r.rho;
    nlohmann::ordered_json removed = nlohmann::ordered_json::array();
    for (double v : r.rho)
        removed.push_back(core::removalCount(prepared.train.rows(), v));
    j["removed_rows"] = removed;
    j["repeats"] = repeats;
    j["learner"] = {
        {"intercept", spec.learner.fitIntercept ? "fitted by centring (unpenalised, never dropped)" : "none"},
        {"cv_per_fit", cvPerFit},
        {"dropout_gd",
         {{"epochs", epochs},
          {"batch_size", batchSize},
          {"step_size", stepSize},
          {"schedule", "η₀/√(1 + epoch), tail average of the second half of the epochs"}}},
        {"hermite_nodes", hermiteNodes},
        {"separable_stop_loss", spec.learner.separableLoss}};
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    bool anySeparable = false;
    for (std::size_t m = 0; m < r.methods.size(); ++m) {
        list.push_back(methodJson(r, m));
        anySeparable = anySeparable || r.baselines[m].separable;
    }
    j["methods"] = list;
    j["separable"] = anySeparable;
    if (anySeparable)
        j["note"] = "the training data is linearly separable: unregularised logistic regression has no finite "
                    "minimiser; its fits stop once every training margin is positive and the mean training loss "
                    "is ≤ " +
                    std::to_string(spec.learner.separableLoss) + " (flagged per ρ in methods[].separable)";
    j["timings"] = {{"fits", r.fits},
                    {"seconds_baseline", r.secondsBaseline},
                    {"seconds_sweep", r.secondsSweep},
                    {"seconds_stability", r.secondsStability}};
    j["cancelled"] = r.cancelled;
    writeOutput(out, j.dump(2) + "\n");
    return 0;
}

} // namespace elab::app
