// Out-of-tree diagnostic used for docs/li-reproduction.md: replays the fits of
// `epsilonlab-cli utility` (same subsample, noise and warm starts) and reports the Newton-CG
// status, iterations and final gradient norms, which the CLI's JSON does not expose.
// Not built by CMake. Written against commit a9398f1; build against an existing build tree B
// (B = build directory configured from source tree S), e.g.:
//   g++ -O2 -std=c++20 -DNDEBUG -I S -isystem /usr/include/eigen3 \
//       -isystem /usr/include/x86_64-linux-gnu/qt6 -isystem /usr/include/x86_64-linux-gnu/qt6/QtCore \
//       -isystem /usr/lib/x86_64-linux-gnu/qt6/mkspecs/linux-g++ solver_probe.cpp \
//       B/app/cli/CMakeFiles/epsilonlab-cli.dir/{experiment_data,data_options}.cpp.o \
//       B/resources/CMakeFiles/epsilonlab_resources_resources_1.dir/epsilonlab_resources_resources_1_autogen/mocs_compilation.cpp.o
//       \
//       B/resources/CMakeFiles/epsilonlab_resources_resources_1.dir/.rcc/qrc_builtin_datasets.cpp.o \
//       B/core/libepsilonlab_core.a B/resources/libepsilonlab_resources.a B/core/libepsilonlab_core.a \
//       -ltbb -lz -lQt6Core -o solver_probe
//   ./solver_probe --data a9a_train.libsvm --loss huber --eps 0.05:1:20 --measure-at 0.1,0.25,0.75
#include "app/cli/experiment_data.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/sweeps/utility_sweep.h"
#include "core/util/noise.h"
#include "core/util/random.h"
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
using namespace elab;
int main(int argc, char** argv) {
    CLI::App app("probe");
    app::ExperimentDataOptions data;
    data.addTo(app);
    std::string loss = "logistic", eps = "0.05:1:20", measure = "";
    double lambda = 1e-2, delta = 1e-5, h = 0.1;
    int R = 10;
    std::uint64_t seed = 1;
    app.add_option("--loss", loss);
    app.add_option("--eps", eps);
    app.add_option("--measure-at", measure);
    app.add_option("--lambda", lambda);
    app.add_option("--delta", delta);
    app.add_option("--repeats", R);
    app.add_option("--seed", seed);
    app.add_option("--huber-width", h);
    CLI11_PARSE(app, argc, argv);
    auto prepared = data.prepare(seed);
    const auto& X = prepared.train.features;
    const auto& y = prepared.train.targets.values;
    core::MechanismSpec spec;
    spec.kind = core::MechanismKind::ObjPertGauss;
    spec.model.loss = core::Loss(core::lossKindFromString(loss), h);
    spec.model.lambda = lambda;
    spec.privacy.delta = delta;
    auto grid = core::parseEpsGrid(eps);
    std::vector<core::NoiseDraw> noise;
    for (int r = 0; r < R; ++r) {
        core::Rng rng(core::deriveSeed(seed, r));
        noise.push_back(core::drawNoise(X.cols(), rng));
    }
    core::MechanismSpec np = spec;
    np.kind = core::MechanismKind::NonPrivate;
    auto ref = core::fitPrivate(X, y, np, 1.0, noise[0]);
    std::cout << "nonprivate status=" << core::toString(ref.solver.status) << " it=" << ref.solver.iterations
              << " |g|=" << ref.solver.gradientNorm << "\n";
    std::map<std::string, int> counts;
    double maxG = 0;
    int maxIt = 0;
    for (int r = 0; r < R; ++r) {
        Eigen::VectorXd warm;
        for (double e : grid) {
            auto f = core::fitPrivate(X, y, spec, e, noise[r], warm.size() ? &warm : nullptr);
            warm = f.minimiser;
            counts[core::toString(f.solver.status)]++;
            maxG = std::max(maxG, f.solver.gradientNorm);
            maxIt = std::max(maxIt, f.solver.iterations);
            if (f.solver.status != core::NewtonCgStatus::Converged)
                std::cout << "  grid r=" << r << " eps=" << e << " status=" << core::toString(f.solver.status)
                          << " it=" << f.solver.iterations << " |g|=" << f.solver.gradientNorm << "\n";
        }
    }
    std::cout << "grid fits:";
    for (auto& [k, v] : counts)
        std::cout << " " << k << "=" << v;
    std::cout << "  max|g|=" << maxG << " maxIt=" << maxIt << "\n";
    if (!measure.empty()) {
        counts.clear();
        maxG = 0;
        maxIt = 0;
        for (double e : core::parseEpsGrid(measure))
            for (int r = 0; r < R; ++r) {
                auto f = core::fitPrivate(X, y, spec, e, noise[r], &ref.minimiser);
                counts[core::toString(f.solver.status)]++;
                maxG = std::max(maxG, f.solver.gradientNorm);
                maxIt = std::max(maxIt, f.solver.iterations);
                if (f.solver.status != core::NewtonCgStatus::Converged)
                    std::cout << "  measure r=" << r << " eps=" << e << " status=" << core::toString(f.solver.status)
                              << " it=" << f.solver.iterations << " |g|=" << f.solver.gradientNorm << "\n";
            }
        std::cout << "measuring fits:";
        for (auto& [k, v] : counts)
            std::cout << " " << k << "=" << v;
        std::cout << "  max|g|=" << maxG << " maxIt=" << maxIt << "\n";
    }
}
