// The learners of the stability study: separable data is detected (unregularised logistic
// regression), k-fold CV picks the known-best μ, the intercept by centring, and the removal
// selections (adversarial removes the smallest margins; random is seeded).

#include "core/stability/cross_validation.h"
#include "core/stability/removal.h"
#include "core/stability/stability_learner.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>

using namespace elab::core;

namespace {

// y = xᵀw + noise·N-ish(0, 1), x uniform in [−1, 1]^p, dense.
struct Regression {
    FeatureMatrix X;
    Eigen::VectorXd y;
};

Regression makeRegression(Index n, Index p, double signal, double noise, double offset, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, p);
    Eigen::VectorXd y(n);
    for (Index i = 0; i < n; ++i) {
        y[i] = offset + noise * (uniform01(rng) + uniform01(rng) + uniform01(rng) - 1.5) * 2.0;
        for (Index j = 0; j < p; ++j) {
            X(i, j) = 2.0 * uniform01(rng) - 1.0;
            y[i] += signal * X(i, j);
        }
    }
    return {FeatureMatrix(X), y};
}

} // namespace

class TestStabilityLearners : public QObject {
    Q_OBJECT

private slots:
    void separableDataIsDetected() {
        auto problem = elab::test::syntheticBinary(200, 3, 4, {2.0, -1.0}, 0.0); // noiseless: separable
        LearnerOptions options;
        const LearnerFit fit = fitLearner(StabilityMethod::None, problem.X, problem.y, options, 0.0, 0);
        QVERIFY(fit.separable);
        QVERIFY2(fit.status == NewtonCgStatus::Converged, toString(fit.status));
        QVERIFY(fit.model.theta.allFinite());
        QVERIFY2(fit.trainLoss <= options.separableLoss, qPrintable(QString::number(fit.trainLoss)));
        QCOMPARE(predictionError(StabilityModel::Logistic, fit.model, problem.X, problem.y), 0.0);
    }

    void overlappingDataIsNotFlagged() {
        auto problem = elab::test::syntheticBinary(400, 3, 4, {2.0, -1.0}, 2.0); // label noise
        const LearnerFit fit = fitLearner(StabilityMethod::None, problem.X, problem.y, LearnerOptions{}, 0.0, 0);
        QVERIFY(!fit.separable);
        QVERIFY2(fit.status == NewtonCgStatus::Converged, toString(fit.status));
        QVERIFY(fit.trainLoss > 0.1);
    }

    void crossValidationPicksTheKnownBestMu_data() {
        QTest::addColumn<double>("signal");
        QTest::addColumn<double>("noise");
        QTest::addColumn<double>("expected");
        // Pure noise: any weight only fits noise, the strongest shrinkage predicts best.
        QTest::newRow("pure noise → largest μ") << 0.0 << 1.0 << 1e3;
        // Noiseless linear target: shrinkage only biases, the weakest wins.
        QTest::newRow("noiseless → smallest μ") << 1.0 << 0.0 << 1e-6;
    }
    void crossValidationPicksTheKnownBestMu() {
        QFETCH(double, signal);
        QFETCH(double, noise);
        QFETCH(double, expected);
        const Regression d = makeRegression(120, 8, signal, noise, 0.0, 8);
        LearnerOptions options;
        options.model = StabilityModel::Linear;
        options.l2Grid = {1e-6, 1e-3, 1e3};
        const CrossValidation cv = chooseL2ByCrossValidation(d.X, d.y, options, 3);
        QCOMPARE(cv.chosen, expected);
        QCOMPARE(cv.scores.size(), options.l2Grid.size());
        QCOMPARE(cv.folds, 5);
    }

    // p ≫ n sparse: L2 fits use the dual (Woodbury) preconditioner; the dense path the primal
    // one. Both converge to the same minimiser; the Gram of a row subset is the submatrix.
    void l2DualPreconditionerMatchesThePrimal() {
        Rng rng(17);
        const Index n = 40, p = 300;
        SparseMatrix S(n, p);
        Eigen::VectorXd y(n);
        for (Index i = 0; i < n; ++i) {
            y[i] = uniform01(rng) < 0.5 ? -1.0 : 1.0;
            for (Index j = 0; j < p; ++j)
                if (uniform01(rng) < 0.05)
                    S.insert(i, j) = (j % 3 == 0 ? y[i] : 1.0) * uniform01(rng);
        }
        S.makeCompressed();
        const FeatureMatrix sparseX{SparseMatrix(S)}, denseX{DenseMatrix(S.toDense())};
        QVERIFY(usesRowGram(sparseX) && !usesRowGram(denseX));
        LearnerOptions options;
        for (double mu : {1e-4, 1e-2}) {
            const LearnerFit a = fitLearner(StabilityMethod::L2, sparseX, y, options, mu, 0);
            const LearnerFit b = fitLearner(StabilityMethod::L2, denseX, y, options, mu, 0);
            QCOMPARE(a.status, NewtonCgStatus::Converged);
            QCOMPARE(b.status, NewtonCgStatus::Converged);
            QVERIFY2((a.model.theta - b.model.theta).norm() <= 1e-6 * b.model.theta.norm(),
                     qPrintable(QString("‖Δθ‖ %1").arg((a.model.theta - b.model.theta).norm())));
            // A given Gram gives the same fit as the one computed inside.
            const Eigen::MatrixXd G = rowGram(sparseX);
            const LearnerFit c = fitLearner(StabilityMethod::L2, sparseX, y, options, mu, 0, nullptr, {}, -1, &G);
            QVERIFY(c.model.theta == a.model.theta);
        }
        const std::vector<Index> rows{0, 3, 4, 9, 20, 39};
        QVERIFY(selectGram(rowGram(sparseX), rows) == rowGram(sparseX.selectRows(rows)));
        // CV with and without a given Gram, and folds summed in order: identical.
        const Eigen::MatrixXd G = rowGram(sparseX);
        const CrossValidation cv1 = chooseL2ByCrossValidation(sparseX, y, options, 5);
        const CrossValidation cv2 = chooseL2ByCrossValidation(sparseX, y, options, 5, {}, &G);
        QVERIFY(cv1.scores == cv2.scores && cv1.losses == cv2.losses && cv1.chosen == cv2.chosen);
    }

    void foldsAreSeededAndBalanced() {
        const std::vector<int> a = crossValidationFolds(103, 5, 1), b = crossValidationFolds(103, 5, 1);
        QCOMPARE(a, b);
        QVERIFY(a != crossValidationFolds(103, 5, 2));
        for (int f = 0; f < 5; ++f) {
            const auto count = std::count(a.begin(), a.end(), f);
            QVERIFY(count == 20 || count == 21);
        }
    }

    void interceptByCentring() {
        const Regression d = makeRegression(80, 2, 1.0, 0.0, 3.0, 5); // y = 3 + x1 + x2
        LearnerOptions options;
        options.model = StabilityModel::Linear;
        options.fitIntercept = true;
        const LearnerFit fit = fitLearner(StabilityMethod::None, d.X, d.y, options, 0.0, 0);
        ELAB_FUZZY(fit.model.intercept, 3.0, 1e-8);
        ELAB_FUZZY(fit.model.theta[0], 1.0, 1e-8);
        // Dropout shrinks θ, never the intercept: predictions stay centred on ȳ.
        const LearnerFit dropout = fitLearner(StabilityMethod::DeterministicDropout, d.X, d.y, options, 0.0, 0);
        ELAB_FUZZY(predict(dropout.model, d.X).mean(), d.y.mean(), 1e-8);
        options.model = StabilityModel::Logistic;
        QVERIFY(!options.validate().empty());
    }

    void adversarialRemovesTheSmallestMargins() {
        Eigen::VectorXd score(8);
        score << 0.5, -0.1, 3.0, 0.05, -2.0, 0.2, -0.3, 1.0;
        const std::vector<Index> kept = adversarialKeep(score, 3); // |s|: 0.05 (3), 0.1 (1), 0.2 (5)
        QCOMPARE(kept, (std::vector<Index>{0, 2, 4, 6, 7}));
        QCOMPARE(adversarialKeep(score, 0).size(), std::size_t(8));
    }

    void randomRemovalIsSeeded() {
        const std::vector<Index> a = randomKeep(50, 20, 9);
        QCOMPARE(a.size(), std::size_t(30));
        QVERIFY(std::is_sorted(a.begin(), a.end()));
        QCOMPARE(a, randomKeep(50, 20, 9));
        QVERIFY(a != randomKeep(50, 20, 10));
        QCOMPARE(removalCount(100, 0.25), Index(25));
        QCOMPARE(removalCount(10, 0.95), Index(8)); // at least 2 rows stay
    }

    void rhoGridIsLinear() {
        const std::vector<double> g = parseRhoGrid("0:0.9:10");
        QCOMPARE(g.size(), std::size_t(10));
        ELAB_FUZZY(g[1], 0.1, 1e-15);
        ELAB_FUZZY(g[9], 0.9, 1e-15);
        QCOMPARE(parseRhoGrid("0.5,0,0.25"), (std::vector<double>{0.0, 0.25, 0.5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRhoGrid("0:1:5"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRhoGrid("0.1,x"));
    }

    void methodNamesRoundTrip() {
        for (auto m : {StabilityMethod::None, StabilityMethod::L2, StabilityMethod::Dropout,
                       StabilityMethod::DeterministicDropout})
            QCOMPARE(stabilityMethodFromString(toString(m)), m);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stabilityMethodFromString("ridge"));
    }
};

QTEST_APPLESS_MAIN(TestStabilityLearners)
#include "test_stability_learners.moc"
