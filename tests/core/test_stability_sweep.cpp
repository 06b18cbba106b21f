// The removal sweep: identical numbers for 1 and 2 threads, every cell streamed once,
// cancellation keeping a consistent partial result, adversarial removal with deterministic
// learners, validation.

#include "core/stability/stability_sweep.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <atomic>
#include <set>

using namespace elab::core;

namespace {

struct Problem {
    elab::test::BinaryProblem train, test;
};

Problem makeProblem() {
    return {elab::test::syntheticBinary(160, 6, 1, {1.5, -1.0, 0.5}, 0.8, true),
            elab::test::syntheticBinary(200, 6, 2, {1.5, -1.0, 0.5}, 0.8, true)};
}

StabilitySpec baseSpec() {
    StabilitySpec spec;
    spec.rho = parseRhoGrid("0:0.6:4");
    spec.repeats = 4;
    spec.stabilitySamples = 3;
    spec.seed = 17;
    spec.learner.l2Grid = {1e-4, 1e-2, 1.0};
    spec.learner.cvFolds = 3;
    spec.learner.epochs = 10;
    return spec;
}

StabilityData dataOf(const Problem& p) { return {p.train.X, p.train.y, p.test.X, p.test.y}; }

// Sparse with more features than rows (text-like): L2 takes the dual preconditioner path.
FeatureMatrix wideSparse(const FeatureMatrix& X, Index width, std::uint64_t seed) {
    Rng rng(seed);
    SparseMatrix S(X.rows(), width);
    for (Index i = 0; i < X.rows(); ++i) {
        for (Index j = 0; j < X.cols(); ++j)
            S.insert(i, j) = X.dense()(i, j);
        for (Index j = X.cols(); j < width; ++j)
            if (uniform01(rng) < 0.03)
                S.insert(i, j) = uniform01(rng);
    }
    S.makeCompressed();
    return FeatureMatrix(std::move(S));
}

} // namespace

class TestStabilitySweep : public QObject {
    Q_OBJECT

private slots:
    void identicalForOneAndTwoThreads_data() {
        QTest::addColumn<QString>("removal");
        QTest::addColumn<bool>("wide");
        QTest::newRow("random") << "random" << false;
        QTest::newRow("adversarial") << "adversarial" << false;
        QTest::newRow("random, sparse p > n") << "random" << true;
    }
    void identicalForOneAndTwoThreads() {
        QFETCH(QString, removal);
        QFETCH(bool, wide);
        Problem p = makeProblem();
        if (wide) {
            p.train.X = wideSparse(p.train.X, 400, 3);
            p.test.X = wideSparse(p.test.X, 400, 4);
            QVERIFY(usesRowGram(p.train.X));
        }
        StabilitySpec spec = baseSpec();
        spec.removal = removalKindFromString(removal.toStdString());
        spec.threads = 1;
        const StabilityResult one = runStabilitySweep(dataOf(p), spec);
        spec.threads = 2;
        const StabilityResult two = runStabilitySweep(dataOf(p), spec);
        QCOMPARE(one.cells.size(), spec.rho.size() * spec.methods.size());
        QCOMPARE(two.cells.size(), one.cells.size());
        for (std::size_t k = 0; k < one.cells.size(); ++k) {
            QCOMPARE(two.cells[k].errors, one.cells[k].errors); // bitwise
            ELAB_EXACT(two.cells[k].marginalError.mean, one.cells[k].marginalError.mean);
        }
        QCOMPARE(one.stability.size(), spec.methods.size());
        for (std::size_t m = 0; m < one.stability.size(); ++m)
            ELAB_EXACT(two.stability[m].distance.mean, one.stability[m].distance.mean);
        QCOMPARE(two.baselines[1].mu, one.baselines[1].mu);
        QCOMPARE(one.baselines[1].cv.scores.size(), std::size_t(3));
    }

    void everyCellIsStreamedOnce() {
        const Problem p = makeProblem();
        const StabilitySpec spec = baseSpec();
        std::set<std::pair<std::size_t, std::size_t>> seen;
        int calls = 0;
        std::vector<std::size_t> sizes; // checked on the test thread, not in the (worker-thread) sink
        const StabilityResult r = runStabilitySweep(dataOf(p), spec, nullptr, [&](const StabilityCell& c) {
            ++calls;
            seen.insert({c.rhoIndex, c.methodIndex});
            sizes.push_back(c.errors.size());
        });
        for (std::size_t size : sizes)
            QCOMPARE(size, std::size_t(spec.repeats));
        QCOMPARE(calls, int(spec.rho.size() * spec.methods.size()));
        QCOMPARE(seen.size(), std::size_t(calls));
        QVERIFY(!r.cancelled);
        // ρ = 0 with random removal trains on all rows: deterministic learners give err(0).
        for (const StabilityCell& c : r.cells)
            if (c.rhoIndex == 0 && c.method != StabilityMethod::Dropout)
                QCOMPARE(c.marginalError.mean, 0.0);
    }

    void adversarialDeterministicLearnersRepeatExactly() {
        const Problem p = makeProblem();
        StabilitySpec spec = baseSpec();
        spec.removal = RemovalKind::Adversarial;
        const StabilityResult r = runStabilitySweep(dataOf(p), spec);
        for (const StabilityCell& c : r.cells) {
            if (c.method == StabilityMethod::Dropout)
                continue;
            QCOMPARE(c.testError.sd, 0.0);
            QCOMPARE(c.errors.size(), std::size_t(spec.repeats));
        }
    }

    void cancelKeepsConsistentCells() {
        const Problem p = makeProblem();
        StabilitySpec spec = baseSpec();
        spec.threads = 2;
        spec.rho = parseRhoGrid("0:0.8:9");
        const StabilityResult full = runStabilitySweep(dataOf(p), spec);
        std::stop_source source;
        RunContext ctx(source.get_token(), {});
        std::atomic<int> streamed{0};
        const StabilityResult r = runStabilitySweep(dataOf(p), spec, &ctx, [&](const StabilityCell&) {
            if (++streamed == 3)
                source.request_stop();
        });
        QVERIFY(r.cancelled);
        QVERIFY(r.cells.size() >= 3);
        QVERIFY(r.cells.size() < full.cells.size());
        QVERIFY(r.stability.empty());
        for (const StabilityCell& c : r.cells) {
            const StabilityCell& same = full.cells[c.rhoIndex * spec.methods.size() + c.methodIndex];
            QCOMPARE(c.errors, same.errors); // complete and equal to the uncancelled run's
        }
    }

    void separableTrainingDataIsReported() {
        const auto train = elab::test::syntheticBinary(60, 20, 3, {1.0, 1.0}, 0.0, true);
        const auto test = elab::test::syntheticBinary(60, 20, 4, {1.0, 1.0}, 0.0, true);
        StabilitySpec spec = baseSpec();
        spec.methods = {StabilityMethod::None};
        const StabilityResult r = runStabilitySweep({train.X, train.y, test.X, test.y}, spec);
        QVERIFY(r.baselines[0].separable);
        QCOMPARE(r.cells[0].separable, spec.repeats);
    }

    void invalidSpecsAreRejected() {
        const Problem p = makeProblem();
        StabilitySpec spec = baseSpec();
        spec.rho = {0.5, 0.2};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runStabilitySweep(dataOf(p), spec));
        spec = baseSpec();
        spec.methods = {StabilityMethod::L2, StabilityMethod::L2};
        QVERIFY(!spec.validate().empty());
        spec = baseSpec();
        spec.learner.keep = 0.0;
        QVERIFY(!spec.validate().empty());
        spec = baseSpec();
        spec.learner.hermiteNodes = 10;
        QVERIFY(!spec.validate().empty());
    }
};

QTEST_APPLESS_MAIN(TestStabilitySweep)
#include "test_stability_sweep.moc"
