// The ε-sweep: identical numbers for 1 and 2 threads, streaming of complete grid points,
// cancellation leaving a consistent partial result, grid parsing, validation and the
// Taylor estimate curves.

#include "core/sweeps/utility_sweep.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <mutex>
#include <set>

using namespace elab::core;

namespace {

elab::test::BinaryProblem makeData(Index n, Index p, std::uint64_t seed) {
    return elab::test::syntheticBinary(n, p, seed, {1.0, 1.0}, 0.3);
}

UtilitySweepSpec baseSpec() {
    UtilitySweepSpec spec;
    spec.mechanism = {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
    spec.grid = parseEpsGrid("0.1:10:8");
    spec.repeats = 6;
    spec.seed = 42;
    return spec;
}

} // namespace

class TestUtilitySweep : public QObject {
    Q_OBJECT

private slots:
    void identicalForOneAndTwoThreads() {
        const auto d = makeData(600, 6, 1);
        UtilitySweepSpec spec = baseSpec();
        spec.measureAt = {0.25, 2.5};
        spec.estimators = {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored};
        spec.threads = 1;
        const auto one = runUtilitySweep({d.X, d.y}, spec);
        spec.threads = 2;
        const auto two = runUtilitySweep({d.X, d.y}, spec);
        QCOMPARE(one.points.size(), spec.grid.size());
        QCOMPARE(two.points.size(), spec.grid.size());
        for (std::size_t g = 0; g < one.points.size(); ++g) {
            QCOMPARE(one.points[g].values, two.points[g].values); // bit-identical
            ELAB_EXACT(one.points[g].mean, two.points[g].mean);
        }
        QCOMPARE(one.estimates.size(), std::size_t(8));
        for (std::size_t k = 0; k < one.estimates.size(); ++k)
            QCOMPARE(one.estimates[k].values, two.estimates[k].values);
        QCOMPARE(one.fits, int(spec.grid.size()) * spec.repeats);
        // A binary classifier: one model per fit; every fit converged, reported as such.
        QCOMPARE(one.classes, 0);
        QCOMPARE(one.models, 1);
        QCOMPARE(one.solver.fits, one.fits);
        QCOMPARE(one.solver.converged, one.fits);
        QVERIFY(one.solver.notConverged.empty());
        QVERIFY(one.solver.maxIterations >= 1 && one.solver.worstGradientNorm <= 1e-10);
        QCOMPARE(one.measuringSolver.fits, 1 + 2 * spec.repeats); // reference + measuring fits
        QCOMPARE(one.measuringSolver.converged, one.measuringSolver.fits);
        // The measured loss falls towards the non-private level as ε grows.
        QVERIFY(one.points.front().mean > one.points.back().mean);
        QVERIFY(one.points.back().mean >= one.nonPrivate - 1e-9);
        // The measured F(ε̄ = 2.5) lies between the measured means at the grid points around
        // it (ε ≈ 1.39 and 2.68), since the mean loss falls with ε.
        const auto& at25 = one.estimates.back();
        QCOMPARE(at25.measureAt, 2.5);
        QVERIFY(at25.measuredValue <= one.points[4].mean && at25.measuredValue >= one.points[5].mean);
        for (const auto& curve : one.estimates) {
            // Li et al. Table 2's error: the mean over the grid of |estimate − measured mean|.
            double sum = 0.0;
            for (std::size_t g = 0; g < spec.grid.size(); ++g)
                sum += std::abs(curve.values[g] - one.points[g].mean);
            ELAB_RELATIVE(curve.meanAbsError, sum / double(spec.grid.size()), 1e-12);
            QVERIFY(curve.derivative < 0.0); // more privacy budget, lower training loss
        }
        // The per-repetition measuring fits reproduce every curve at the grid and evaluate
        // anywhere else (the live view's instant estimate); +∞ is the non-private limit.
        QCOMPARE(one.measuring.size(), std::size_t(2));
        for (const auto& curve : one.estimates) {
            const auto& fit = one.measuring[curve.measureAt == 0.25 ? 0 : 1];
            QCOMPARE(fit.measureAt, curve.measureAt);
            QCOMPARE(fit.points.size(), std::size_t(spec.repeats));
            for (std::size_t g = 0; g < spec.grid.size(); ++g)
                ELAB_EXACT(meanEstimate(fit, curve.estimator, spec.grid[g]), curve.values[g]);
        }
        const double atInfinity = meanEstimate(one.measuring[1], Estimator::Anchored, INFINITY);
        QVERIFY2(std::abs(atInfinity - one.nonPrivate) < 1e-9 * (1.0 + std::abs(one.nonPrivate)),
                 qPrintable(QString("anchored at ∞ %1, non-private %2")
                                .arg(atInfinity, 0, 'g', 17)
                                .arg(one.nonPrivate, 0, 'g', 17)));
        MeasuringFit noAnchors = one.measuring[0];
        noAnchors.anchors.clear();
        QVERIFY(std::isnan(meanEstimate(noAnchors, Estimator::Anchored, 1.0)));
    }

    // Measuring points with no grid (the live view's Taylor job): the same measuring fits, bit
    // for bit, as the full sweep's, and no measured grid or estimate error made up.
    void measuringPointsAloneGiveTheSameMeasuringFits() {
        const auto d = makeData(600, 6, 1);
        UtilitySweepSpec spec = baseSpec();
        spec.measureAt = {0.25, 2.5};
        spec.estimators = {Estimator::FirstOrder, Estimator::Anchored};
        const auto full = runUtilitySweep({d.X, d.y}, spec);
        spec.grid.clear();
        QCOMPARE(QString::fromStdString(spec.validate()), QString());
        const auto alone = runUtilitySweep({d.X, d.y}, spec);
        QVERIFY(alone.points.empty() && alone.guarantees.empty());
        QCOMPARE(alone.fits, 0);
        QCOMPARE(alone.measuringSolver.fits, 1 + 2 * spec.repeats); // reference + measuring fits
        ELAB_EXACT(alone.nonPrivate, full.nonPrivate);
        QCOMPARE(alone.measuring.size(), full.measuring.size());
        for (std::size_t m = 0; m < full.measuring.size(); ++m)
            for (std::size_t r = 0; r < full.measuring[m].points.size(); ++r) {
                ELAB_EXACT(alone.measuring[m].points[r].value, full.measuring[m].points[r].value);
                ELAB_EXACT(alone.measuring[m].points[r].d1, full.measuring[m].points[r].d1);
                ELAB_EXACT(alone.measuring[m].anchors[r].slopeV, full.measuring[m].anchors[r].slopeV);
            }
        for (const auto& curve : alone.estimates) {
            QVERIFY(curve.values.empty());
            QVERIFY(std::isnan(curve.meanAbsError));
        }
        spec.measureAt.clear(); // neither grid nor measuring points: nothing to run
        QVERIFY(!spec.validate().empty());
    }

    // Where theory bounds the estimate (docs/MATH.md §4): at the measuring point it IS the
    // measured value (same noise, same minimiser up to the solver's tolerance); a step h above
    // it the first-order estimate errs by the Taylor remainder ½F″(ξ)h², ξ in [ε̄, ε̄ + h], at
    // most ½F″(ε̄)h² since F″ falls with ε here (F ≈ a + b/ε + c/ε², b, c > 0). For a small
    // step (h = ε̄/10) the second-order estimate (error O(h³)) does better still.
    void estimatesBoundedWhereTheoryBoundsThem() {
        const auto d = makeData(600, 6, 1);
        UtilitySweepSpec spec = baseSpec();
        const double at = spec.grid[4];
        spec.grid.insert(spec.grid.begin() + 5, 1.1 * at); // grid[5] = ε̄ + ε̄/10, grid[6] ≈ 1.9 ε̄
        spec.measureAt = {at};
        spec.estimators = {Estimator::FirstOrder, Estimator::SecondOrder};
        const auto r = runUtilitySweep({d.X, d.y}, spec);
        QCOMPARE(r.estimates.size(), std::size_t(2));
        const EstimateCurve &first = r.estimates[0], &second = r.estimates[1];
        ELAB_FUZZY(first.values[4], r.points[4].mean, 1e-9);
        ELAB_FUZZY(second.values[4], r.points[4].mean, 1e-9);
        double meanD2 = 0.0;
        for (const TaylorPoint& t : r.measuring[0].points)
            meanD2 += t.d2 / double(r.measuring[0].points.size());
        QVERIFY2(meanD2 > 0.0, qPrintable(QString("F″(ε̄) = %1: the loss is convex in ε here").arg(meanD2)));
        for (std::size_t g : {std::size_t(5), std::size_t(6)}) {
            const double h = spec.grid[g] - at, bound = 0.5 * meanD2 * h * h;
            const double error = std::abs(first.values[g] - r.points[g].mean);
            QVERIFY2(error <= bound,
                     qPrintable(QString("first-order error %1 > ½F″h² = %2 at h = %3").arg(error).arg(bound).arg(h)));
        }
        const double errorFirst = std::abs(first.values[5] - r.points[5].mean);
        const double errorSecond = std::abs(second.values[5] - r.points[5].mean);
        QVERIFY2(
            errorSecond < errorFirst,
            qPrintable(QString("h = ε̄/10: second-order error %1 ≥ first-order %2").arg(errorSecond).arg(errorFirst)));
    }

    void streamsEachCompletePointOnce() {
        const auto d = makeData(300, 4, 2);
        UtilitySweepSpec spec = baseSpec();
        std::mutex m;
        std::multiset<Index> seen;
        std::vector<std::size_t>
            sizes; // checked on the test thread: a QCOMPARE on a worker only returns from the lambda
        const auto result = runUtilitySweep({d.X, d.y}, spec, nullptr, [&](const SweepPoint& p) {
            const std::lock_guard lock(m);
            seen.insert(p.gridIndex);
            sizes.push_back(p.values.size());
        });
        for (std::size_t size : sizes)
            QCOMPARE(size, std::size_t(spec.repeats));
        QCOMPARE(seen.size(), spec.grid.size());
        for (Index g = 0; g < Index(spec.grid.size()); ++g)
            QCOMPARE(seen.count(g), std::size_t(1));
        QVERIFY(!result.cancelled);
    }

    void cancelKeepsConsistentPartialResult() {
        const auto d = makeData(800, 8, 3);
        UtilitySweepSpec spec = baseSpec();
        spec.grid = parseEpsGrid("0.05:50:30");
        spec.repeats = 4;
        spec.threads = 2;
        std::stop_source source;
        int delivered = 0;
        RunContext ctx(source.get_token(), {});
        const auto result = runUtilitySweep({d.X, d.y}, spec, &ctx, [&](const SweepPoint&) {
            if (++delivered == 5)
                source.request_stop();
        });
        QVERIFY(result.cancelled);
        QVERIFY(result.points.size() >= 5);
        QVERIFY(result.points.size() < spec.grid.size());
        // Kept points are complete and equal to an uncancelled run's.
        spec.grid.resize(result.points.back().gridIndex + 1);
        const auto full = runUtilitySweep({d.X, d.y}, spec);
        for (const auto& p : result.points) {
            QCOMPARE(int(p.values.size()), spec.repeats);
            QCOMPARE(p.values, full.points[std::size_t(p.gridIndex)].values);
        }
    }

    void parsesGrids() {
        const auto logGrid = parseEpsGrid("0.1:10:3");
        QCOMPARE(logGrid.size(), std::size_t(3));
        QCOMPARE(logGrid[0], 0.1);
        ELAB_FUZZY(logGrid[1], 1.0, 1e-12);
        ELAB_FUZZY(logGrid[2], 10.0, 1e-12);
        QCOMPARE(parseEpsGrid("2,0.5,1"), (std::vector<double>{0.5, 1.0, 2.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseEpsGrid("1:x:3"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseEpsGrid("0:1:3"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseEpsGrid("1:2"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseEpsGrid("1,,2"));
    }

    void validates() {
        UtilitySweepSpec spec = baseSpec();
        QVERIFY(spec.validate().empty());
        spec.measureAt = {1.0};
        spec.metric = UtilityMetric::TestAccuracy;
        QVERIFY(QString::fromStdString(spec.validate()).contains("differentiable"));
        spec.metric = UtilityMetric::TrainLoss;
        spec.mechanism.kind = MechanismKind::OutPertPure;
        spec.mechanism.model.lambda = 1.0;
        QVERIFY(QString::fromStdString(spec.validate()).contains("need Gaussian objective perturbation"));
        spec = baseSpec();
        spec.grid = {1.0, 0.5};
        QVERIFY(QString::fromStdString(spec.validate()).contains("ascending"));
        const auto d = makeData(50, 2, 4);
        spec = baseSpec();
        spec.metric = UtilityMetric::TestLoss;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runUtilitySweep({d.X, d.y}, spec));
    }
};

QTEST_APPLESS_MAIN(TestUtilitySweep)
#include "test_utility_sweep.moc"
