// One-vs-rest with the budget split (core/learners/linear_erm/one_vs_rest.h): the whole classifier's
// F′ and F″ against finite differences of its measured utility (same noise, ε ± h); two
// classes against the binary model; the composed guarantee; the utility definitions; label
// validation.

#include "core/learners/linear_erm/one_vs_rest.h"

#include "core/data/data_preparation.h"
#include "core/data/generators.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

// Three (or K) Gaussian blobs around the unit circle, rows clipped to ‖x‖ ≤ 1 (MATH.md §1).
Dataset blobs(Index rows, int classes, double noise, std::uint64_t seed) {
    GeneratorOptions options;
    options.rows = rows;
    options.classes = classes;
    options.noise = noise;
    options.seed = seed;
    return prepareExperimentData(generateDataset("blobs", options), std::nullopt, DataPreparation{}, seed).train;
}

NewtonCgOptions tight() {
    NewtonCgOptions o;
    o.gradientTolerance = 1e-14;
    o.relativeTolerance = 0.0;
    o.maxIterations = 200;
    return o;
}

const MechanismSpec kGauss{MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};

} // namespace

class TestOneVsRest : public QObject {
    Q_OBJECT

private slots:
    void derivativesMatchFiniteDifferences_data() {
        QTest::addColumn<double>("eps");
        QTest::addColumn<int>("repetition");
        QTest::newRow("eps 0.6, repetition 0") << 0.6 << 0;
        QTest::newRow("eps 3, repetition 1") << 3.0 << 1;
    }
    void derivativesMatchFiniteDifferences() {
        QFETCH(double, eps);
        QFETCH(int, repetition);
        const Dataset d = blobs(400, 3, 0.3, 2);
        const OneVsRest problem(sweepDataOf(d), kGauss, UtilityMetric::TrainLoss);
        QCOMPARE(problem.models(), 3);
        const std::vector<NoiseDraw> noise = problem.drawNoise(9, repetition);
        const auto measured = [&](double e) { return problem.utility(problem.fit(e, noise, nullptr, {}, tight())); };
        const OneVsRest::Models centre = problem.fit(eps, noise, nullptr, {}, tight());
        for (const PrivateFit& f : centre)
            QCOMPARE(f.solver.status, NewtonCgStatus::Converged);
        std::vector<TaylorPoint> perModel;
        const TaylorPoint point = problem.taylorPoint(eps, noise, centre, true, &perModel);
        QCOMPARE(perModel.size(), std::size_t(3));
        QCOMPARE(perModel[1].eps, eps / 3);
        ELAB_FUZZY(point.value, problem.utility(centre), 1e-15);

        const double h = 1e-4 * eps;
        const double fd1 = (measured(eps + h) - measured(eps - h)) / (2 * h);
        ELAB_FUZZY(point.d1, fd1, 1e-5 * std::abs(fd1));
        const double H = 1e-2 * eps;
        const double fd2 = (measured(eps + H) - 2 * point.value + measured(eps - H)) / (H * H);
        ELAB_FUZZY(point.d2, fd2, 1e-3 * std::abs(fd2));
        QVERIFY(point.d1 < 0.0);
        QCOMPARE(point.thetaD1.size(), Index(3 * 2));
    }

    void estimatorsPerModelEqualCombined() {
        // Every estimator is linear in (F, F′, F″, anchor) after the chain rule, so the combined
        // point at ε̄ gives what the per-model points give at ε̂/K, averaged.
        const Dataset d = blobs(300, 4, 0.3, 3);
        const OneVsRest problem(sweepDataOf(d), kGauss, UtilityMetric::TrainLoss);
        const std::vector<NoiseDraw> noise = problem.drawNoise(5, 0);
        const double eps = 1.5;
        std::vector<TaylorPoint> points;
        std::vector<TaylorAnchor> anchors;
        const TaylorPoint point = problem.taylorPoint(eps, noise, problem.fit(eps, noise, nullptr), true, &points);
        const TaylorAnchor anchor = problem.taylorAnchor(noise, problem.fitNonPrivate(), &anchors);
        for (Estimator e : {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored})
            for (double target : {0.1, 1.0, 7.0, double(INFINITY)}) {
                if (e == Estimator::SecondOrder && std::isinf(target))
                    continue;
                if (e == Estimator::FirstOrder && std::isinf(target))
                    continue;
                double perModel = 0.0;
                for (std::size_t k = 0; k < points.size(); ++k)
                    perModel += estimateUtility(points[k], e, target / 4, &anchors[k]) / 4;
                const double combined = estimateUtility(point, e, target, &anchor);
                ELAB_FUZZY(combined, perModel, 1e-12 * (1.0 + std::abs(perModel)));
            }
    }

    void twoClassesMirrorTheBinaryModel() {
        // K = 2: model 1 (class 1 against the rest) is the binary model trained at (ε/2, δ/2)
        // with the stream (seed, r, 1); non-private, model 0 is its mirror θ₀ = −θ₁, so the
        // one-vs-rest loss and accuracy are the binary ones.
        const auto b = elab::test::syntheticBinary(400, 3, 6, {1.0, -1.0}, 0.3, true);
        const Eigen::VectorXd classIndex = (b.y.array() + 1.0) / 2.0;
        const SweepData multi{b.X, classIndex, nullptr, std::nullopt, 2};
        const SweepData binary{b.X, b.y};
        for (UtilityMetric metric : {UtilityMetric::TrainLoss, UtilityMetric::TrainAccuracy}) {
            const OneVsRest ovr(multi, kGauss, metric), one(binary, kGauss, metric);
            const OneVsRest::Models models = ovr.fitNonPrivate(), single = one.fitNonPrivate();
            QVERIFY((models[0].theta + models[1].theta).norm() < 1e-9);
            ELAB_FUZZY(ovr.utility(models), one.utility(single), 1e-9);
        }
        const OneVsRest ovr(multi, kGauss, UtilityMetric::TrainLoss);
        const std::vector<NoiseDraw> noise = ovr.drawNoise(4, 2);
        Rng rng(deriveSeed(4, 2, 1));
        const NoiseDraw stream1 = drawNoise(3, rng);
        QCOMPARE(noise[1].z, stream1.z);
        MechanismSpec half = kGauss;
        half.privacy.delta = kGauss.privacy.delta / 2;
        const PrivateFit direct = fitPrivate(b.X, b.y, half, 0.5, stream1);
        const Eigen::VectorXd model1 = ovr.fit(1.0, noise, nullptr)[1].theta; // (its preconditioner differs)
        ELAB_FUZZY((model1 - direct.theta).norm(), 0.0, 1e-8 * direct.theta.norm());
    }

    void guaranteeStatesTheSplit() {
        const Dataset d = blobs(150, 3, 0.2, 1);
        const OneVsRest gauss(sweepDataOf(d), kGauss, UtilityMetric::TrainLoss);
        const PrivacyGuarantee g = gauss.guarantee(0.3);
        QCOMPARE(g.epsilon, 0.3);
        QCOMPARE(g.delta, 1e-5);
        QCOMPARE(g.notion, std::string("(ε, δ)-DP"));
        const QString split = QString::fromStdString(g.notes.front());
        QVERIFY2(
            split.contains("one-vs-rest over 3 classes: each model gets ε/K = 0.1, δ/K = 3.333e-06 (basic composition"),
            g.notes.front().c_str());
        QVERIFY(QString::fromStdString(g.source).contains("basic sequential composition"));
        QVERIFY(QString::fromStdString(g.assumptions.back()).contains("released together"));
        // Output perturbation (Gaussian, the analytic mechanism) holds at every ε per model: only
        // the split is noted, at ε = 6 (2 per model) as at ε = 2.
        MechanismSpec outpert = kGauss;
        outpert.kind = MechanismKind::OutPertGauss;
        outpert.model.lambda = 1.0;
        const OneVsRest out(sweepDataOf(d), outpert, UtilityMetric::TrainLoss);
        QCOMPARE(out.guarantee(2.0).notes.size(), std::size_t(1));
        QCOMPARE(out.guarantee(6.0).notes.size(), std::size_t(1));
        // Pure ε: no δ to split; the mechanism's own note (its branch) is stated for each model.
        MechanismSpec pure = kGauss;
        pure.kind = MechanismKind::ObjPertPure;
        const PrivacyGuarantee p = OneVsRest(sweepDataOf(d), pure, UtilityMetric::TrainLoss).guarantee(3.0);
        QCOMPARE(p.delta, 0.0);
        QVERIFY(QString::fromStdString(p.notes.front()).contains("ε/K = 1 (basic composition"));
        QCOMPARE(p.notes.size(), std::size_t(2));
        QVERIFY2(QString::fromStdString(p.notes[1]).startsWith("each model: ") &&
                     QString::fromStdString(p.notes[1]).contains("branch"),
                 p.notes[1].c_str());
        // A binary classifier keeps the mechanism's own wording.
        const auto b = elab::test::syntheticBinary(50, 2, 1, {1.0}, 0.1, true);
        QVERIFY(OneVsRest({b.X, b.y}, kGauss, UtilityMetric::TrainLoss).guarantee(0.3).notes.empty());
    }

    void utilityDefinitions() {
        // Two rows, three classes, hand-made scores.
        DenseMatrix x(2, 2);
        x << 1.0, 0.0, 0.0, 1.0;
        const FeatureMatrix X(x);
        Eigen::VectorXd labels(2);
        labels << 0.0, 2.0;
        std::vector<Eigen::VectorXd> thetas(3, Eigen::VectorXd::Zero(2));
        thetas[0] << 2.0, 0.0; // row 0: scores (2, 1, 0) → class 0, right
        thetas[1] << 1.0, 1.0; // row 1: scores (0, 1, 1) → tie of classes 1 and 2: wrong
        const Loss logistic(LossKind::Logistic);
        QCOMPARE(evaluateOneVsRest(UtilityMetric::TrainAccuracy, logistic, X, labels, thetas), 0.5);
        double expected = 0.0;
        const double scores[2][3] = {{2.0, 1.0, 0.0}, {0.0, 1.0, 0.0}};
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 2; ++i)
                expected += logistic.value(scores[i][k], labels[i] == k ? 1.0 : -1.0) / 6.0;
        ELAB_FUZZY(evaluateOneVsRest(UtilityMetric::TrainLoss, logistic, X, labels, thetas), expected, 1e-15);
    }

    void validatesLabels() {
        const Dataset d = blobs(60, 3, 0.2, 1);
        const SweepData asGiven{d.features, d.targets.classIndex}; // class indices, but classes = 0
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OneVsRest(asGiven, kGauss, UtilityMetric::TrainLoss));
        const SweepData tooFew{d.features, d.targets.classIndex, nullptr, std::nullopt, 2}; // label 2 out of range
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OneVsRest(tooFew, kGauss, UtilityMetric::TrainLoss));
        MechanismSpec squared{MechanismKind::NonPrivate, Loss(LossKind::Squared), 1e-2, 1e-5};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OneVsRest(sweepDataOf(d), squared, UtilityMetric::TrainLoss));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OneVsRest(sweepDataOf(d), kGauss, UtilityMetric::TestLoss));
        Dataset other = blobs(60, 4, 0.2, 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sweepDataOf(d, &other));
        QCOMPARE(sweepDataOf(d).classes, 3);
    }

    void labelsReadFromClassIndicesAreTheSignVectors() {
        // Model k reads y_k = ±1 from the class indices (no K label vectors): every value, and
        // the fits, metrics and Taylor terms of each model, equal those of the ±1 vector itself.
        const Dataset d = blobs(300, 3, 0.3, 5);
        const OneVsRest ovr(sweepDataOf(d), kGauss, UtilityMetric::TrainLoss);
        const Eigen::VectorXi& classes = d.targets.classIndex;
        QCOMPARE(d.targets.values.size(), Index(0)); // the class indices are stored once, as ints
        const Eigen::VectorXd classesAsDoubles = classes.cast<double>();
        Rng rng(11);
        const NoiseDraw noise = drawNoise(d.features.cols(), rng);
        for (int k = 0; k < 3; ++k) {
            const Labels read = ovr.trainLabels(k);
            Eigen::VectorXd sign(classes.size());
            for (Index i = 0; i < classes.size(); ++i)
                sign[i] = classes[i] == k ? 1.0 : -1.0;
            QCOMPARE(read.size(), classes.size());
            QVERIFY(read.toVector() == sign);
            // Class indices held as doubles (an audit's neighbour labels) read the same.
            QVERIFY(Labels(classesAsDoubles).oneVsRest(k).toVector() == sign);
            QVERIFY(Labels(classes).toVector() == classesAsDoubles);
            QVERIFY((sign.array() == 1.0).any() && (sign.array() == -1.0).any());
            const PrivateFit fromIndices = fitPrivate(d.features, read, ovr.modelSpec(), 0.5, noise);
            const PrivateFit fromVector = fitPrivate(d.features, sign, ovr.modelSpec(), 0.5, noise);
            QVERIFY(fromIndices.theta == fromVector.theta);
            QCOMPARE(fromIndices.trainLoss, fromVector.trainLoss);
            const Loss logistic(LossKind::Logistic);
            for (UtilityMetric m : {UtilityMetric::TrainLoss, UtilityMetric::TrainAccuracy})
                QCOMPARE(evaluateUtility(m, logistic, d.features, read, fromVector.theta),
                         evaluateUtility(m, logistic, d.features, sign, fromVector.theta));
            const TaylorPoint a = taylorPoint(d.features, read, ovr.modelSpec(), 0.5, noise.z, fromVector.minimiser,
                                              UtilityData{d.features, read}, true);
            const TaylorPoint b = taylorPoint(d.features, sign, ovr.modelSpec(), 0.5, noise.z, fromVector.minimiser,
                                              UtilityData{d.features, sign}, true);
            QCOMPARE(a.value, b.value);
            QCOMPARE(a.d1, b.d1);
            QCOMPARE(a.d2, b.d2);
        }
    }

    void summarisesSolverOutcomes() {
        SolverSummary s;
        s.add({1.0, 0, -1, NewtonCgStatus::Converged, 4, 1e-12});
        SolverSummary other;
        other.add({2.0, 3, 1, NewtonCgStatus::MaxIterations, 100, 1e-3});
        s.merge(other);
        QCOMPARE(s.fits, 2);
        QCOMPARE(s.converged, 1);
        QCOMPARE(s.maxIterations, 100);
        QCOMPARE(s.worstGradientNorm, 1e-3);
        QCOMPARE(s.notConverged.size(), std::size_t(1));
        QCOMPARE(s.notConverged[0].repetition, 3);
        QCOMPARE(s.notConverged[0].model, 1);
    }
};

QTEST_APPLESS_MAIN(TestOneVsRest)
#include "test_one_vs_rest.moc"
