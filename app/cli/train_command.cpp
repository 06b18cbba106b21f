#include "app/cli/train_command.h"

#include "app/cli/write_output.h"

#include "core/learner/sweep_data.h"
#include "core/learners/dpsgd/dpsgd_learner.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/composition.h"
#include "core/report/result_json.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

namespace elab::app {

namespace {

struct Curve {
    std::vector<core::EpochReport> epochs;
    double sigma = 0.0;
};

} // namespace

void TrainCommand::addTo(CLI::App& command) {
    data.addTo(command);
    mech.mechanism = "dpsgd";
    mech.addTo(command);
    command.add_option("--eps", eps, "ε of the run (a number, or inf for non-private SGD)");
    seed.addTo(command, "the run (and the split)");
    command.add_option("--repetition", repetition, "Repetition index: another run with the same seed")
        ->check(CLI::NonNegativeNumber);
    command.add_flag("--reference", reference, "Also train the non-private run (same samples, no clipping, no noise)");
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv,
                     "CSV instead of JSON: run,epoch,steps,learning_rate,train_loss,train_accuracy,"
                     "test_loss,test_accuracy,eps_spent");
}

int TrainCommand::run() const {
    const double e = eps == "inf" ? std::numeric_limits<double>::infinity() : std::stod(eps);
    if (!(e > 0.0))
        throw std::invalid_argument("--eps must be > 0 (or inf)");
    const core::MechanismSpec spec = mech.spec();
    if (!core::mechanismInfo(spec.kind).trainsInEpochs)
        throw std::invalid_argument("train: only --mechanism dpsgd trains in epochs (the ERM mechanisms solve one "
                                    "optimisation problem: use `utility` or `regions`)");
    if (std::string problem = spec.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const ExperimentData prepared = data.prepare(seed.value());
    const core::SweepData sweep = core::sweepDataOf(prepared.train, prepared.test ? &*prepared.test : nullptr);
    const core::DpsgdLearner learner(sweep, spec, core::UtilityMetric::TrainAccuracy);
    const core::Index n = prepared.train.rows();
    const core::SgdPrivacyParams params{0.0, spec.sgd.samplingRate(n), spec.sgd.totalSteps(n), spec.privacy.delta};

    auto runCurve = [&](double at) {
        Curve c;
        core::SgdMonitor monitor;
        if (sweep.testX) {
            monitor.testX = sweep.testX;
            monitor.testClasses = &learner.testClasses();
        }
        monitor.onEpoch = [&](const core::EpochReport& r) {
            std::cerr << "epoch " << r.epoch << "/" << spec.sgd.epochs << ": train accuracy " << r.train.accuracy
                      << "\n";
        };
        c.sigma = std::isfinite(at) ? learner.sigmaFor(at) : 0.0;
        c.epochs = learner.train(at, seed.value(), repetition, {}, &monitor).epochs;
        return c;
    };
    const Curve run = runCurve(e);
    std::optional<Curve> ref;
    if (reference && std::isfinite(e))
        ref = runCurve(std::numeric_limits<double>::infinity());

    auto spent = [&](const Curve& c, const core::EpochReport& r) {
        if (c.sigma <= 0.0)
            return std::numeric_limits<double>::infinity();
        // In the guarantee's terms (replace-one unless N is declared public): the last epoch's is its ε.
        return core::DpsgdLearner::epsilonSpent(spec, n, c.sigma, r.steps);
    };
    if (csv) {
        std::ostringstream text;
        text.precision(10);
        text << "run,epoch,steps,learning_rate,train_loss,train_accuracy,test_loss,test_accuracy,eps_spent\n";
        auto rows = [&](const char* name, const Curve& c) {
            for (const core::EpochReport& r : c.epochs)
                text << name << ',' << r.epoch << ',' << r.steps << ',' << r.learningRate << ',' << r.train.loss << ','
                     << r.train.accuracy << ',' << r.test.loss << ',' << r.test.accuracy << ',' << spent(c, r) << "\n";
        };
        rows(std::isfinite(e) ? "private" : "nonprivate", run);
        if (ref)
            rows("nonprivate", *ref);
        writeOutput(out, text.str());
        return 0;
    }
    auto curveJson = [&](const Curve& c) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const core::EpochReport& r : c.epochs)
            a.push_back({{"epoch", r.epoch},
                         {"steps", r.steps},
                         {"learning_rate", r.learningRate},
                         {"train_loss", r.train.loss},
                         {"train_accuracy", r.train.accuracy},
                         {"test_loss", core::numberOrNull(r.test.loss)},
                         {"test_accuracy", core::numberOrNull(r.test.accuracy)},
                         {"eps_spent", core::numberOrNull(spent(c, r))}});
        return a;
    };
    nlohmann::ordered_json j;
    j["command"] = "train";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = seed.json();
    j["seed_mode"] = core::toString(seed.mode());
    j["repetition"] = repetition;
    j["data"] = dataJson(prepared);
    j["mechanism"] = {{"name", "dpsgd"},
                      {"q", params.q},
                      {"steps", params.steps},
                      {"delta", spec.privacy.delta},
                      {"sgd", mech.parametersJson()}};
    j["eps"] = core::numberOrNull(e);
    j["sigma"] = run.sigma;
    j["guarantee"] = std::isfinite(e) ? core::guaranteeJson(seed.guarantee(core::withPipeline(
                                            learner.guarantee(e), core::pipelineFacts(prepared.train))))
                                      : nlohmann::ordered_json();
    j["epochs"] = curveJson(run);
    if (ref)
        j["reference"] = curveJson(*ref);
    writeOutput(out, j.dump(1) + "\n");
    return 0;
}

} // namespace elab::app
