// Benchmark (issue 12): DP-SGD and its accountants.
//  - the accountants: ε for one (σ, q, T, δ) (target ≤ 1 ms) and calibration of σ for a target ε
//    (target ≤ 20 ms), at the paper's MNIST and DIGITS settings;
//  - DIGITS 64→500→10, S = 100, per-layer clip C = 2, 100 epochs (target ≤ 2 s per run; the
//    reference, Opacus 1.4.0 on this kind of machine: 9.3–11.7 s DP, 1.34 s non-private), DP at
//    ε = 1 (δ = 1e-4, RDP) and non-private SGD of the same model: DP overhead target ≤ 1.5×;
//  - MNIST 784→1000→10, S = 600, per-layer C = 3: seconds per epoch DP and non-private (target
//    ≤ 3 s; Opacus 55–84 s, non-private torch 1.8–1.9 s), when ../shared/datasets/mnist exists;
//    in the same run its floor, the time of three 60,000 × 784 × 1,000 fp32 products (sgemm through
//    the engine's dense-product path, split over the units across all threads as the trainer does),
//    and the DP epoch ÷ that floor (target ≤ 1.25×).
// Usage: bench_dpsgd [threads] [mnist-epochs]. Appends JSON lines to EPSILONLAB_BENCH_OUT.

#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/learner/sweep_data.h"
#include "core/learners/dpsgd/dpsgd_learner.h"
#include "core/learners/dpsgd/unit_slices.h"
#include "core/optim/dense_products.h"
#include "core/privacy/accountant.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

using namespace elab::core;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void accountants(std::ofstream& out) {
    struct Setting {
        const char* name;
        double q;
        long long steps;
    };
    for (const Setting s :
         {Setting{"MNIST q=0.01 T=20000", 0.01, 20000}, Setting{"DIGITS q=100/1439 T=1500", 100.0 / 1439.0, 1500}}) {
        for (AccountantKind k :
             {AccountantKind::Rdp, AccountantKind::AdvancedComposition, AccountantKind::ZcdpPublished}) {
            const SgdPrivacyParams p{1.1, s.q, s.steps, 1e-4};
            const int reps = 50;
            auto start = Clock::now();
            double sink = 0.0;
            for (int r = 0; r < reps; ++r)
                sink += accountEpsilon(k, p).epsilon;
            const double oneMs = seconds(start) * 1e3 / reps;
            double worstCal = 0.0;
            for (double eps : {0.5, 1.0, 10.0}) {
                start = Clock::now();
                sink += calibrateSigma(k, eps, p).sigma;
                worstCal = std::max(worstCal, seconds(start) * 1e3);
            }
            std::printf(
                "bench_dpsgd accountant %-14s %s: epsilon %.3f ms (target <= 1 ms), calibration worst %.2f ms over "
                "eps 0.5/1/10 (target <= 20 ms)%s\n",
                toString(k), s.name, oneMs, worstCal, sink < 0 ? "!" : "");
            out << "{\"bench\":\"accountant\",\"accountant\":\"" << toString(k) << "\",\"setting\":\"" << s.name
                << "\",\"epsilon_ms\":" << oneMs << ",\"calibration_worst_ms\":" << worstCal << "}\n";
        }
    }
}

/// Seconds for three n × p × h single-precision products (the forward product's shape, A·Bᵀ with
/// A n × p and B h × p), split over the single-precision path's slices of units on `threads`
/// threads: the floor of an epoch.
double threeProductsSeconds(Index n, Index p, Index h, int threads) {
    const Eigen::MatrixXf A = Eigen::MatrixXf::Random(n, p);
    const Eigen::MatrixXf B = Eigen::MatrixXf::Random(h, p);
    Eigen::MatrixXf C(n, h);
    tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
    const auto start = Clock::now();
    arena.execute([&] {
        for (int r = 0; r < 3; ++r)
            detail::forUnitSlices(
                h,
                [&](Index begin, Index count) {
                    denseProduct(false, true, n, count, p, 1.0f, A.data(), n, B.data() + begin, h, 0.0f,
                                 C.data() + begin * n, n);
                },
                detail::kSingleUnitSlice);
    });
    const double s = seconds(start);
    if (!std::isfinite(C(0, 0)))
        std::printf("!");
    return s;
}

struct Timed {
    double seconds = 0.0;
    double testAccuracy = 0.0;
};

Timed run(const DpsgdLearner& learner, double eps, int threads, const FeatureMatrix& testX,
          const Eigen::VectorXi& testY) {
    (void)threads;
    const auto start = Clock::now();
    const SgdResult r = learner.train(eps, 1, 0, {}, nullptr);
    Timed t;
    t.seconds = seconds(start);
    t.testAccuracy = classificationMetrics(networkLogits(r.net, testX), testY).accuracy;
    return t;
}

void network(std::ofstream& out, const char* name, const char* path, const char* testPath, int hidden, double batch,
             double clip, double lr, int epochs, int threads, double testFraction, const char* target,
             bool floor = false) {
    Dataset d;
    std::optional<Dataset> test;
    const auto loadStart = Clock::now();
    try {
        LoadOptions options;
        options.csv.labelColumn = "label";
        d = loadDataset(path, options, {});
        if (testPath)
            test = loadDataset(testPath, options, {});
    } catch (const std::exception& e) {
        std::printf("bench_dpsgd %s: skipped (%s)\n", name, e.what());
        return;
    }
    const double loadSeconds = seconds(loadStart);
    DataPreparation prep;
    prep.testFraction = test ? 0.0 : testFraction;
    const PreparedData data = prepareExperimentData(d, test, prep, 1);
    MechanismSpec spec;
    spec.kind = MechanismKind::Dpsgd;
    spec.privacy.delta = 1e-4;
    spec.sgd.hidden = hidden;
    spec.sgd.batchSize = batch;
    spec.sgd.clip = clip;
    spec.sgd.clipMode = ClipMode::PerLayer;
    spec.sgd.learningRate = lr;
    spec.sgd.epochs = epochs;
    spec.sgd.threads = threads;
    const SweepData sweep = sweepDataOf(data.train, &*data.test);
    const DpsgdLearner learner(sweep, spec, UtilityMetric::TestAccuracy);
    const double floorBefore = floor ? threeProductsSeconds(60000, 784, hidden, threads) : 0.0;
    const Timed dp = run(learner, 1.0, threads, *sweep.testX, learner.testClasses());
    const double floorAfter = floor ? threeProductsSeconds(60000, 784, hidden, threads) : 0.0;
    const Timed np =
        run(learner, std::numeric_limits<double>::infinity(), threads, *sweep.testX, learner.testClasses());
    std::printf("bench_dpsgd %s (%ld x %ld, H = %d, S = %g, per-layer C = %g, %d epochs, %d threads; load %.1f s): DP "
                "at eps = 1 "
                "(sigma %.3f, RDP, delta 1e-4) %.2f s = %.3f s/epoch, test accuracy %.4f; non-private SGD %.2f s, test "
                "accuracy %.4f; DP overhead %.2fx (target <= 1.5x); %s\n",
                name, static_cast<long>(data.train.rows()), static_cast<long>(data.train.featureCount()), hidden, batch,
                clip, epochs, threads, loadSeconds, learner.sigmaFor(1.0), dp.seconds, dp.seconds / epochs,
                dp.testAccuracy, np.seconds, np.testAccuracy, dp.seconds / np.seconds, target);
    const bool single = spec.sgd.singlePrecision(data.train.featureCount(), data.train.features.isSparse());
    const double floorSeconds = std::min(floorBefore, floorAfter);
    if (floor)
        std::printf("bench_dpsgd %s floor: three 60000 x 784 x %d fp32 products %.3f s (%.3f s before the DP run, %.3f "
                    "s after; %.0f GFLOP/s); DP epoch %.3f s = %.2fx the floor (target <= 1.25x); hidden layer in "
                    "%s precision; %s\n",
                    name, hidden, floorSeconds, floorBefore, floorAfter,
                    3 * 2.0 * 60000 * 784 * hidden / floorSeconds / 1e9, dp.seconds / epochs,
                    dp.seconds / epochs / floorSeconds, single ? "single" : "double", denseProductBackend());
    out << "{\"bench\":\"dpsgd\",\"dataset\":\"" << name << "\",\"epochs\":" << epochs << ",\"threads\":" << threads
        << ",\"dp_seconds\":" << dp.seconds << ",\"nonprivate_seconds\":" << np.seconds
        << ",\"dp_test_accuracy\":" << dp.testAccuracy << ",\"nonprivate_test_accuracy\":" << np.testAccuracy
        << ",\"single_precision\":" << (single ? "true" : "false");
    if (floor)
        out << ",\"floor_seconds\":" << floorSeconds << ",\"epoch_over_floor\":" << dp.seconds / epochs / floorSeconds;
    out << "}\n";
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int mnistEpochs = argc > 2 ? std::atoi(argv[2]) : 1;
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    accountants(out);
    network(out, "DIGITS", EPSILONLAB_SHARED_DIR "/datasets/digits/digits.csv", nullptr, 500, 100, 2.0, 0.05, 100,
            threads, 0.2, "target <= 2 s per run; Opacus 9.3-11.7 s DP, 1.34 s non-private");
    network(out, "MNIST", EPSILONLAB_SHARED_DIR "/datasets/mnist/mnist_train.csv.gz",
            EPSILONLAB_SHARED_DIR "/datasets/mnist/mnist_test.csv.gz", 1000, 600, 3.0, 0.1, mnistEpochs, threads, 0.0,
            "target <= 3 s per epoch; Opacus 55-84 s per DP epoch, torch 1.8-1.9 s non-private", true);
    return 0;
}
