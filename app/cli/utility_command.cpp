#include "app/cli/utility_command.h"

#include "core/experiment/utility_sweep.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace elab::app {

namespace {

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty())
            items.push_back(item);
    return items;
}

nlohmann::ordered_json guaranteeJson(const core::PrivacyGuarantee& g) {
    return {{"private", g.isPrivate}, {"notion", g.notion}, {"delta", g.delta}, {"source", g.source},
            {"assumptions", g.assumptions}, {"notes", g.notes}};
}

std::string csvText(const core::UtilitySweepResult& r) {
    std::ostringstream out;
    out.precision(10);
    out << "eps,measured_mean,measured_std";
    for (const auto& e : r.estimates)
        out << ",estimate_" << core::toString(e.estimator) << "_at_" << e.measureAt;
    out << "\n";
    for (const auto& p : r.points) {
        out << p.eps << ',' << p.mean << ',' << p.sd;
        for (const auto& e : r.estimates)
            out << ',' << e.values[static_cast<std::size_t>(p.gridIndex)];
        out << "\n";
    }
    return out.str();
}

} // namespace

void UtilityCommand::addTo(CLI::App& command) {
    data.addTo(command);
    command.add_option("--loss", loss, "Loss")->check(CLI::IsMember({"logistic", "huber", "smooth-hinge", "squared"}));
    command.add_option("--huber-width", huberWidth, "Huber SVM width h")->check(CLI::Range(1e-6, 0.999));
    command.add_option("--mechanism", mechanism, "Mechanism")
        ->check(CLI::IsMember({"nonprivate", "objpert-gauss", "objpert-pure", "outpert-pure", "outpert-gauss"}));
    command.add_option("--lambda", lambda, "Λ of L(θ) + (Λ/2n)‖θ‖² (Li et al. eq. 1)")->check(CLI::NonNegativeNumber);
    command.add_option("--delta", delta, "δ of the Gaussian mechanisms");
    command.add_option("--eps", eps, "ε grid: A:B:K (K log-spaced from A to B) or a list a,b,c");
    command.add_option("--repeats", repeats, "Repetitions (noise draws) per ε")->check(CLI::PositiveNumber);
    command.add_option("--measure-at", measureAt, "Measuring points ε̄ for the Taylor estimates, e.g. 0.1,0.25");
    command.add_option("--estimators", estimators, "first-order,second-order,inverse-eps,anchored");
    command.add_option("--metric", metric, "Utility")->check(CLI::IsMember({"train-loss", "test-loss", "train-acc", "test-acc"}));
    command.add_option("--seed", seed, "Seed of every random stream (noise, split)");
    command.add_option("--threads", threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv, "CSV (grid, measured mean and sd, estimates) instead of JSON");
}

int UtilityCommand::run() const {
    const ExperimentData prepared = data.prepare(seed);
    core::UtilitySweepSpec spec;
    spec.mechanism.kind = core::mechanismKindFromString(mechanism);
    spec.mechanism.loss = core::Loss(core::lossKindFromString(loss), huberWidth);
    spec.mechanism.lambda = lambda;
    spec.mechanism.delta = delta;
    spec.grid = core::parseEpsGrid(eps);
    spec.repeats = repeats;
    spec.metric = core::utilityMetricFromString(metric);
    for (const auto& e : splitList(measureAt))
        spec.measureAt.push_back(core::parseEpsGrid(e).front());
    spec.estimators.clear();
    for (const auto& e : splitList(estimators))
        spec.estimators.push_back(core::estimatorFromString(e));
    spec.seed = seed;
    spec.threads = threads;

    const core::TaskKind task = prepared.train.targets.kind;
    if (spec.mechanism.loss.isMargin() && task != core::TaskKind::Binary)
        throw std::invalid_argument(std::string("the ") + loss + " loss needs a binary label, the data is " +
                                    core::toString(task) +
                                    ": pass --positive CLASS (one-vs-rest with a split budget is not built yet)");
    if (!spec.mechanism.loss.isMargin() && task != core::TaskKind::Regression)
        throw std::invalid_argument("squared loss needs a regression target");

    const core::Dataset& train = prepared.train;
    core::SweepData sweepData{train.features, train.targets.values};
    if (prepared.test) {
        sweepData.testX = &prepared.test->features;
        sweepData.testY = &prepared.test->targets.values;
    }
    const core::UtilitySweepResult r = core::runUtilitySweep(sweepData, spec);

    std::string text;
    if (csv) {
        text = csvText(r);
    } else {
        nlohmann::ordered_json j;
        j["command"] = "utility";
        j["version"] = EPSILONLAB_VERSION;
        j["seed"] = seed;
        j["data"] = dataJson(prepared);
        j["mechanism"] = {{"name", mechanism},
                          {"loss", loss},
                          {"lambda", lambda},
                          {"lambda_convention", "L(θ) + (Λ/2n)‖θ‖²"},
                          {"delta", spec.mechanism.isGaussian() ? delta : 0.0},
                          {"guarantee", guaranteeJson(r.guaranteeAtMax)}};
        j["metric"] = metric;
        j["repeats"] = repeats;
        j["grid"] = r.grid;
        nlohmann::ordered_json mean = nlohmann::ordered_json::array(), sd = nlohmann::ordered_json::array();
        for (const auto& p : r.points) {
            mean.push_back(p.mean);
            sd.push_back(p.sd);
        }
        j["measured"] = {{"mean", mean}, {"std", sd}};
        j["nonprivate"] = r.nonPrivate;
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
        j["timings"] = {{"fits", r.fits},
                        {"seconds_measured", r.secondsMeasured},
                        {"seconds_estimates", r.secondsEstimates}};
        j["cancelled"] = r.cancelled;
        text = j.dump(2) + "\n";
    }
    if (out.empty()) {
        std::cout << text;
    } else {
        std::ofstream file(out);
        if (!(file << text))
            throw std::runtime_error("cannot write " + out);
    }
    return 0;
}

} // namespace elab::app
