// The ε-sweep and the ε search on multiclass data (one-vs-rest, budget split): accuracy far
// above chance at large ε and near chance at tiny ε, identical numbers for 1 and 2 threads,
// the split stated in the guarantee, instant estimates per model, the solver summary.

#include "core/sweeps/choose_eps.h"
#include "core/sweeps/utility_sweep.h"

#include "core/data/data_preparation.h"
#include "core/data/generators.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>

#include <cmath>
#include <tuple>

using namespace elab::core;

namespace {

Dataset blobs(Index rows, double noise, std::uint64_t seed) {
    GeneratorOptions options;
    options.rows = rows;
    options.classes = 3;
    options.noise = noise;
    options.seed = seed;
    return prepareExperimentData(generateDataset("blobs", options), std::nullopt, DataPreparation{}, seed).train;
}

UtilitySweepSpec baseSpec() {
    UtilitySweepSpec spec;
    spec.mechanism = {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
    spec.grid = parseEpsGrid("0.1:10:6");
    spec.repeats = 4;
    spec.seed = 42;
    return spec;
}

} // namespace

class TestMulticlassSweep : public QObject {
    Q_OBJECT

private slots:
    void accuracyFromChanceToNonPrivate() {
        const Dataset d = blobs(600, 0.1, 1);
        UtilitySweepSpec spec = baseSpec();
        spec.metric = UtilityMetric::TrainAccuracy;
        spec.grid = {0.003, 300.0};
        spec.repeats = 20;
        const UtilitySweepResult r = runUtilitySweep(sweepDataOf(d), spec);
        QCOMPARE(r.classes, 3);
        QCOMPARE(r.models, 3);
        QCOMPARE(r.fits, 2 * 20 * 3);
        QVERIFY2(r.nonPrivate > 0.95, qPrintable(QString("non-private accuracy %1").arg(r.nonPrivate)));
        // At ε = 300 each model has ε/3 = 100: close to the non-private classifier.
        QVERIFY2(r.points[1].mean > 0.95, qPrintable(QString("accuracy at ε = 300: %1").arg(r.points[1].mean)));
        // At ε = 0.003 the noise decides: the mean over 20 noise draws is near chance (1/3);
        // one random direction per model has accuracy sd ≈ 0.3, so the mean's sd ≈ 0.07.
        QVERIFY2(std::abs(r.points[0].mean - 1.0 / 3.0) < 0.25,
                 qPrintable(QString("accuracy at ε = 0.003: %1, chance 1/3").arg(r.points[0].mean)));
        const PrivacyGuarantee& g = r.guaranteeAtMax;
        QCOMPARE(g.epsilon, 300.0);
        QCOMPARE(g.delta, 1e-5);
        const QString split = QString::fromStdString(g.notes.front());
        QVERIFY2(split.contains("one-vs-rest over 3 classes: each model gets ε/K = 100, δ/K = 3.333e-06"),
                 g.notes.front().c_str());
        QCOMPARE(r.solver.fits, r.fits);
        QCOMPARE(r.solver.converged, r.fits);
        QVERIFY(r.solver.notConverged.empty());
        QVERIFY(r.solver.maxIterations >= 1);
        QVERIFY(r.solver.worstGradientNorm <= 1e-10);
        QCOMPARE(r.measuringSolver.fits, 3); // the non-private reference models
    }

    void identicalForOneAndTwoThreads() {
        const Dataset d = blobs(300, 0.3, 2);
        UtilitySweepSpec spec = baseSpec();
        spec.measureAt = {0.5, 3.0};
        spec.estimators = {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored};
        spec.threads = 1;
        const auto one = runUtilitySweep(sweepDataOf(d), spec);
        spec.threads = 2;
        const auto two = runUtilitySweep(sweepDataOf(d), spec);
        QCOMPARE(one.points.size(), spec.grid.size());
        for (std::size_t g = 0; g < one.points.size(); ++g)
            QCOMPARE(one.points[g].values, two.points[g].values); // bit-identical
        QCOMPARE(one.estimates.size(), std::size_t(8));
        for (std::size_t k = 0; k < one.estimates.size(); ++k)
            QCOMPARE(one.estimates[k].values, two.estimates[k].values);
        ELAB_EXACT(one.nonPrivate, two.nonPrivate);
        QVERIFY(one.points.front().mean > one.points.back().mean);
        QVERIFY(one.points.back().mean >= one.nonPrivate - 1e-9);
        QCOMPARE(one.measuringSolver.fits, 3 + 2 * spec.repeats * 3);
        QCOMPARE(one.measuringSolver.converged, one.measuringSolver.fits);
        for (const auto& curve : one.estimates)
            QVERIFY(curve.derivative < 0.0);
    }

    void measuringFitsEstimatePerModel() {
        // unboundedEstimate evaluates each model at ε/K and averages; the combined per-repetition
        // points (F, F′ of the whole classifier) give the same; the estimate curves are meanEstimate,
        // the same held at the non-private loss.
        const Dataset d = blobs(300, 0.3, 3);
        UtilitySweepSpec spec = baseSpec();
        spec.measureAt = {1.0};
        spec.estimators = {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored};
        const auto r = runUtilitySweep(sweepDataOf(d), spec);
        QCOMPARE(r.measuring.size(), std::size_t(1));
        const MeasuringFit& fit = r.measuring[0];
        QCOMPARE(fit.models, 3);
        QCOMPARE(fit.points.size(), std::size_t(spec.repeats));
        QCOMPARE(fit.modelPoints.size(), std::size_t(spec.repeats));
        QCOMPARE(fit.modelPoints[0].size(), std::size_t(3));
        QCOMPARE(fit.modelAnchors.size(), std::size_t(spec.repeats));
        QCOMPARE(fit.modelPoints[0][2].eps, 1.0 / 3);
        for (const auto& curve : r.estimates)
            for (std::size_t g = 0; g < spec.grid.size(); ++g)
                ELAB_EXACT(meanEstimate(fit, curve.estimator, spec.grid[g]), curve.values[g]);
        for (Estimator e : {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored})
            for (double eps : {0.2, 2.0, 20.0}) {
                double combined = 0.0;
                for (std::size_t k = 0; k < fit.points.size(); ++k)
                    combined += estimateUtility(fit.points[k], e, eps, &fit.anchors[k]) / double(fit.points.size());
                const double perModel = unboundedEstimate(fit, e, eps);
                ELAB_FUZZY(perModel, combined, 1e-12);
                // What is shown is held at the non-private loss (MATH.md §4.6).
                ELAB_EXACT(meanEstimate(fit, e, eps), std::max(perModel, r.nonPrivate));
            }
        // The anchored estimate at ∞ is the non-private classifier's loss.
        ELAB_FUZZY(meanEstimate(fit, Estimator::Anchored, INFINITY), r.nonPrivate, 1e-9);
        // The measured F(ε̄ = 1) lies between the grid means around it (ε ≈ 0.63 and 1.58).
        QVERIFY(r.estimates[0].measuredValue <= r.points[2].mean && r.estimates[0].measuredValue >= r.points[3].mean);
        MeasuringFit noAnchors = fit;
        noAnchors.modelAnchors.clear();
        QVERIFY(std::isnan(meanEstimate(noAnchors, Estimator::Anchored, 1.0)));
    }

    void namesFitsThatDidNotConverge() {
        const Dataset d = blobs(200, 0.3, 5);
        UtilitySweepSpec spec = baseSpec();
        spec.grid = {0.5, 5.0};
        spec.repeats = 2;
        spec.solverOptions.maxIterations = 1;
        const auto r = runUtilitySweep(sweepDataOf(d), spec);
        QCOMPARE(r.solver.fits, 2 * 2 * 3);
        QVERIFY(r.solver.converged < r.solver.fits);
        QCOMPARE(int(r.solver.notConverged.size()), r.solver.fits - r.solver.converged);
        QCOMPARE(r.solver.maxIterations, 1);
        // In (grid, repetition, model) order whatever the threads did.
        const SolverRecord& first = r.solver.notConverged.front();
        QCOMPARE(first.eps, 0.5);
        QCOMPARE(first.repetition, 0);
        QCOMPARE(first.model, 0);
        QCOMPARE(first.status, NewtonCgStatus::MaxIterations);
        QVERIFY(first.gradientNorm > 1e-10);
        for (std::size_t k = 1; k < r.solver.notConverged.size(); ++k) {
            const SolverRecord& a = r.solver.notConverged[k - 1];
            const SolverRecord& b = r.solver.notConverged[k];
            QVERIFY(std::tie(a.eps, a.repetition, a.model) < std::tie(b.eps, b.repetition, b.model));
        }
        spec.solverOptions.maxIterations = 0;
        QVERIFY(!spec.validate().empty());
    }

    void chooseEpsOnMulticlass() {
        const Dataset d = blobs(400, 0.3, 4);
        ChooseEpsSpec spec;
        spec.mechanism = {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
        spec.estimator = Estimator::InverseEps;
        spec.repeats = 4;
        spec.seed = 3;
        spec.tolerance = 0.003;
        spec.target = 10.0;
        spec.maxSteps = 1;
        const double nonPrivate = chooseEpsilon(sweepDataOf(d), spec).nonPrivate;
        spec.target = nonPrivate + 0.03;
        spec.maxSteps = 12;
        const ChooseEpsResult r = chooseEpsilon(sweepDataOf(d), spec);
        QCOMPARE(r.classes, 3);
        QVERIFY2(r.converged, qPrintable(QString("steps %1").arg(r.steps.size())));
        const ChooseEpsStep& last = r.steps.back();
        QVERIFY(last.measured <= spec.target && last.measured >= spec.target - spec.tolerance);
        QCOMPARE(last.values.size(), std::size_t(spec.repeats));
        QCOMPARE(r.guarantee.epsilon, r.chosenEps);
        QVERIFY(QString::fromStdString(r.guarantee.notes.front()).startsWith("one-vs-rest over 3 classes"));
        QCOMPARE(r.solver.fits, last.trainings * 3);
        QCOMPARE(r.solver.converged, r.solver.fits);
        QVERIFY(r.bisection.back().meets);
    }
};

QTEST_APPLESS_MAIN(TestMulticlassSweep)
#include "test_multiclass_sweep.moc"
