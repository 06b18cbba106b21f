// Benchmark (PRODUCT.md targets): one objective-perturbation LR fit on Adult a9a (≤ 20 ms; issue
// 15: ≤ 10 ms, on the product's path) and the 20 ε × 10 repetition measured sweep (≤ 1.5 s).
// Prints solver work as well.

#include "core/data/dataset_loader.h"
#include "core/data/preprocess.h"
#include "core/learners/linear_erm/one_vs_rest.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/model/linear_objective.h"
#include "core/sweeps/utility_sweep.h"
#include "core/util/noise.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace elab::core;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 0;
    Dataset data = loadDataset(EPSILONLAB_SHARED_DIR "/datasets/adult/a9a_train.libsvm", {}, {});
    preprocess(data, nullptr, {});
    const MechanismSpec spec{MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
    Rng rng(deriveSeed(1, 0));
    const NoiseDraw noise = drawNoise(data.featureCount(), rng);

    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    const auto gramStart = Clock::now();
    const Eigen::MatrixXd gram = gramMatrix(data.features);
    std::printf("bench_fit Gram matrix X'X/n (once per dataset): %.1f ms\n",
                std::chrono::duration<double>(Clock::now() - gramStart).count() * 1e3);
    for (const Eigen::MatrixXd* g : {static_cast<const Eigen::MatrixXd*>(nullptr), &gram})
        for (double eps : {0.1, 1.0, 10.0}) {
            double best = 1e300;
            PrivateFit fit;
            for (int k = 0; k < 5; ++k) {
                const auto start = Clock::now();
                fit = fitPrivate(data.features, data.targets.values, spec, eps, noise, nullptr, {}, {}, g);
                best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
            }
            std::printf("bench_fit one objpert-gauss LR fit, a9a, eps=%-4g, %s: %.1f ms (best of 5), %d Newton, %d CG, "
                        "%s; target <= 20 ms\n",
                        eps, g ? "Gram precond." : "Jacobi", best * 1e3, fit.solver.iterations, fit.solver.cgIterations,
                        toString(fit.solver.status));
            out << "{\"bench\":\"fit\",\"eps\":" << eps << ",\"ms\":" << best * 1e3 << "}\n";
        }
    // The product's path (the CLI's and the GUI's fits): OneVsRest on the prepared problem, i.e.
    // equal rows merged, the prefix tree's passes and the anchored Hessian; issue 15's target for
    // one fit is 10 ms. Cold: from θ = 0 (a single-ε measurement); warm: from the minimiser at the
    // sweep grid's next larger ε (ratio 1.32), as a sweep or a slider probe starts.
    {
        const OneVsRest problem(SweepData{data.features, data.targets.values}, spec, UtilityMetric::TrainLoss);
        const std::vector<NoiseDraw> draws = problem.drawNoise(1, 0);
        for (double eps : {0.1, 1.0, 10.0}) {
            const std::vector<Eigen::VectorXd> warm = OneVsRest::minimisers(problem.fit(eps * 1.32, draws, nullptr));
            for (const std::vector<Eigen::VectorXd>* start :
                 {static_cast<const std::vector<Eigen::VectorXd>*>(nullptr), &warm}) {
                double best = 1e300;
                OneVsRest::Models fits;
                for (int k = 0; k < 5; ++k) {
                    const auto begin = Clock::now();
                    fits = problem.fit(eps, draws, start);
                    best = std::min(best, std::chrono::duration<double>(Clock::now() - begin).count());
                }
                const NewtonCgResult& solver = fits.front().solver;
                std::printf("bench_fit one objpert-gauss LR fit, a9a, eps=%-4g, product path, %s: %.1f ms (best of 5), "
                            "%d Newton (%d exact), %d CG, %s; target <= 10 ms\n",
                            eps, start ? "warm" : "cold", best * 1e3, solver.iterations, solver.exactSteps,
                            solver.cgIterations, toString(solver.status));
                out << "{\"bench\":\"fit_product\",\"eps\":" << eps << ",\"warm\":" << (start ? "true" : "false")
                    << ",\"ms\":" << best * 1e3 << "}\n";
            }
        }
    }
    // Reference: LIBLINEAR's non-private L2 logistic regression (-s 0), whole process, same file.
    if (std::system("command -v liblinear-train > /dev/null 2>&1") == 0) {
        double best = 1e300;
        for (int k = 0; k < 3; ++k) {
            const auto start = Clock::now();
            const int rc = std::system("liblinear-train -s 0 -q " EPSILONLAB_SHARED_DIR
                                       "/datasets/adult/a9a_train.libsvm /tmp/epsilonlab-bench-liblinear.model");
            if (rc != 0)
                break;
            best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
        }
        std::printf("bench_fit LIBLINEAR liblinear-train -s 0 on a9a (whole process, best of 3): %.1f ms\n",
                    best * 1e3);
        out << "{\"bench\":\"liblinear\",\"ms\":" << best * 1e3 << "}\n";
    } else {
        std::printf(
            "bench_fit LIBLINEAR reference skipped: liblinear-train not found (apt-get install liblinear-tools)\n");
    }

    UtilitySweepSpec sweep;
    sweep.mechanism = spec;
    sweep.grid = parseEpsGrid("0.05:10:20");
    sweep.repeats = 10;
    sweep.threads = threads;
    const auto start = Clock::now();
    const UtilitySweepResult r = runUtilitySweep({data.features, data.targets.values}, sweep);
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf(
        "bench_fit sweep 20 eps x 10 reps, a9a, threads=%d: %.3f s (grid fits %.3f s, %d fits); target <= 1.5 s\n",
        threads, total, r.secondsMeasured, r.fits);
    out << "{\"bench\":\"sweep\",\"threads\":" << threads << ",\"seconds\":" << total << "}\n";
    return 0;
}
