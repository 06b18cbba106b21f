// Benchmark (PRODUCT.md target): the stability sweep on a 20 Newsgroups pair, 10 ρ × 20
// repetitions × 4 methods (none, L2 by 5-fold CV, dropout GD, deterministic dropout),
// random removal, ≤ 10 s on 2 cores. alt.atheism vs talk.religion.misc, train and test files
// pooled and split 50/50 (713 training rows, 18,089 features), rows clipped to norm 1.
// Usage: bench_stability [threads] [removal]. Prints the phases and appends a JSON line.

#include "core/data/dataset_loader.h"
#include "core/data/preprocess.h"
#include "core/stability/stability_sweep.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace elab::core;
using Clock = std::chrono::steady_clock;

namespace {

Dataset loadPair(const std::string& stem) {
    LoadOptions options;
    options.libsvm.featureCount = 18089; // lines of the pair's .vocab.txt
    Dataset train = loadDataset(stem + ".train.libsvm", options, {});
    const Dataset test = loadDataset(stem + ".test.libsvm", options, {});
    // Pool: the paper splits the 1,427 documents 50/50 itself.
    SparseMatrix pooled(train.rows() + test.rows(), train.featureCount());
    pooled.reserve(static_cast<Index>(train.features.storedEntries() + test.features.storedEntries()));
    Index row = 0;
    for (const Dataset* d : {static_cast<const Dataset*>(&train), &test})
        for (Index i = 0; i < d->rows(); ++i, ++row) {
            pooled.startVec(row);
            for (SparseMatrix::InnerIterator it(d->features.sparse(), i); it; ++it)
                pooled.insertBack(row, it.col()) = it.value();
        }
    pooled.finalize();
    Eigen::VectorXi classes(train.rows() + test.rows());
    classes << train.targets.classIndex.get(), test.targets.classIndex.get();
    train.features = FeatureMatrix(std::move(pooled));
    train.targets = Targets::classification(classes, train.targets.classNames);
    return train;
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const RemovalKind removal = argc > 2 ? removalKindFromString(argv[2]) : RemovalKind::Random;
    const Dataset pooled = loadPair(EPSILONLAB_SHARED_DIR "/datasets/20newsgroups/alt.atheism_vs_talk.religion.misc");
    TrainTestSplit parts = splitTrainTest(pooled, 0.5, 1);
    preprocess(parts.train, &parts.test, {});

    StabilitySpec spec;
    spec.rho = parseRhoGrid("0:0.9:10");
    spec.repeats = 20;
    spec.removal = removal;
    spec.threads = threads;
    spec.stabilitySamples = 10;
    const StabilityData data{parts.train.features, parts.train.targets.values, parts.test.features,
                             parts.test.targets.values};
    const auto start = Clock::now();
    const StabilityResult r = runStabilitySweep(data, spec);
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("bench_stability 20NG atheism/religion (%lld train x %lld features), 10 rho x 20 reps x 4 methods, "
                "%s, threads=%d: %.2f s (baseline+CV %.2f s, sweep %.2f s, model stability %.2f s; %d fits); "
                "target <= 10 s on 2 cores\n",
                static_cast<long long>(parts.train.rows()), static_cast<long long>(parts.train.featureCount()),
                toString(removal), threads, total, r.secondsBaseline, r.secondsSweep, r.secondsStability, r.fits);
    if (std::getenv("BENCH_STABILITY_DUMP")) // per-cell results, to compare builds
        for (const StabilityCell& c : r.cells)
            std::printf("cell rho=%.2f %s test %.17g sd %.17g marginal %.17g\n", c.rho, toString(c.method),
                        c.testError.mean, c.testError.sd, c.marginalError.mean);
    if (std::getenv("BENCH_STABILITY_DUMP"))
        for (const ModelStability& st : r.stability)
            std::printf("stability %s mean %.17g max %.17g\n", toString(st.method), st.distance.mean, st.maxDistance);
    std::ofstream(EPSILONLAB_BENCH_OUT, std::ios::app)
        << "{\"bench\":\"stability\",\"removal\":\"" << toString(removal) << "\",\"threads\":" << threads
        << ",\"seconds\":" << total << ",\"fits\":" << r.fits << "}\n";
    return 0;
}
