// Benchmark (issue 11 targets): the decision-regions engine and the Gaussian classifier.
//   grid evaluation 256² for linear and quadratic 10-class models (scores + classes) ≤ 5 ms;
//   one slider step on the regions view (R = 10 draws, n = 5,000 rows, warm start) ≤ 16 ms;
//   a corrected Gaussian-classifier fit on digits (1,437 × 64, 10 classes) ≤ 1 s on 2 cores.
// Prints the figures and appends them to build/bench-results.jsonl.

#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/regions/decision_regions.h"
#include "core/regions/regions_impl.h"
#include "core/util/noise.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

using namespace elab::core;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double gridEvaluation(bool quadratic, std::ofstream& out) {
    GeneratorOptions g;
    g.rows = 2000;
    g.classes = 10;
    RegionsSpec spec;
    spec.plane.quadratic = quadratic;
    spec.gridSize = 256;
    spec.draws = 1;
    spec.mechanism.kind = MechanismKind::NonPrivate;
    const RegionsProblem problem(generateDataset("blobs", g), std::nullopt, spec);
    const auto model = problem.prepared().reference({}, spec.solver);
    double best = 1e300;
    for (int k = 0; k < 20; ++k) {
        const auto start = Clock::now();
        const Eigen::MatrixXd S = model->scores(problem.impl().grid);
        std::vector<std::uint8_t> cls(static_cast<std::size_t>(S.rows()));
        for (Index i = 0; i < S.rows(); ++i) {
            Index c = 0;
            S.row(i).maxCoeff(&c);
            cls[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c);
        }
        best = std::min(best, seconds(start));
    }
    std::printf("bench_regions grid evaluation 256^2, %s 10-class one-vs-rest model (%d score columns): %.2f ms "
                "(best of 20); target <= 5 ms\n",
                quadratic ? "quadratic" : "linear", model->outputs(), best * 1e3);
    out << "{\"bench\":\"regions_grid\",\"quadratic\":" << (quadratic ? "true" : "false") << ",\"ms\":" << best * 1e3
        << "}\n";
    return best;
}

void sliderSteps(std::ofstream& out) {
    GeneratorOptions g;
    g.rows = 5000;
    g.noise = 0.2;
    RegionsSpec spec;
    spec.draws = 10;
    spec.gridSize = 256;
    spec.mechanism.kind = MechanismKind::ObjPertGauss;
    const RegionsProblem problem(generateDataset("moons", g), std::nullopt, spec);
    RegionsResult previous = evaluateRegions(problem, 1.0);
    std::vector<double> times;
    for (int k = 1; k <= 40; ++k) {
        const double eps = 1.0 * std::pow(1.05, k); // a drag: small steps to the right
        const auto start = Clock::now();
        RegionsResult next = evaluateRegions(problem, eps, {}, &previous);
        times.push_back(seconds(start));
        previous = std::move(next);
    }
    std::sort(times.begin(), times.end());
    std::printf(
        "bench_regions slider step (moons n = 5000, objpert-gauss, R = 10, G = 256, warm start): median %.1f ms, "
        "worst %.1f ms over 40 steps; target <= 16 ms\n",
        times[times.size() / 2] * 1e3, times.back() * 1e3);
    out << "{\"bench\":\"regions_step\",\"median_ms\":" << times[times.size() / 2] * 1e3
        << ",\"worst_ms\":" << times.back() * 1e3 << "}\n";
}

void gaussianClassifierDigits(std::ofstream& out) {
    Dataset digits;
    try {
        LoadOptions options;
        options.csv.labelColumn = "label";
        digits = loadDataset(EPSILONLAB_SHARED_DIR "/datasets/digits/digits.csv", options, {});
    } catch (const std::exception& e) {
        std::printf("bench_regions Gaussian classifier on digits: skipped (%s)\n", e.what());
        return;
    }
    DataPreparation prep;
    prep.testFraction = 0.2; // 1,437 training rows, as in the issue
    const PreparedData data = prepareExperimentData(digits, std::nullopt, prep, 1);
    MechanismSpec spec;
    spec.kind = MechanismKind::GaussianLm;
    spec.model.loss = Loss(LossKind::HuberSvm, 0.1);
    const auto problem = prepareProblem(sweepDataOf(data.train, &*data.test), spec, UtilityMetric::TestAccuracy);
    const PrivateLearner& learner = problem->learner();
    for (double eps : {1.0, 10.0, 100.0}) {
        const auto noise = learner.drawNoise(1, 0);
        const auto start = Clock::now();
        const auto model = learner.fit(eps, *noise, nullptr, {}, {});
        const double t = seconds(start);
        std::printf(
            "bench_regions Gaussian-classifier fit, digits %ld x %ld, 10 classes, eps = %g: %.2f s, test accuracy "
            "%.3f; target <= 1 s\n",
            static_cast<long>(data.train.rows()), static_cast<long>(data.train.featureCount()), eps, t,
            learner.utility(*model));
        out << "{\"bench\":\"glm_digits\",\"eps\":" << eps << ",\"seconds\":" << t << "}\n";
    }
}

} // namespace

int main() {
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    gridEvaluation(false, out);
    gridEvaluation(true, out);
    sliderSteps(out);
    gaussianClassifierDigits(out);
    return 0;
}
