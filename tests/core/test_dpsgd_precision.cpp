// DP-SGD's single-precision products (core/learners/dpsgd/network_single.h; docs/MATH.md §3.6,
// clipping in finite precision): the per-example norms and clipped sums against the double path
// to tolerances derived from float rounding; the trained network's test accuracy against the
// double path's; clipping bounds every example's contribution by C, computed from the float
// product's own output, for adversarial rows whose float rounding is upward and norms just around
// C — and without the margin it does not; bit-identical results for 1 and 2 threads; which
// networks Auto runs in single precision.

#include "core/learners/dpsgd/network.h"
#include "core/learners/dpsgd/network_single.h"
#include "core/learners/dpsgd/sgd_trainer.h"
#include "core/util/normal_sampler.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

constexpr double kFloatUnit = 0x1p-24; // u: float's unit roundoff

/// n rows in R^p around K class means (drawn from seed 1: the same for every call; sd `spread`
/// per coordinate), rows scaled by `scale`.
struct Problem {
    FeatureMatrix X;
    Eigen::VectorXi y;
};

Problem blobs(Index n, Index p, int K, double spread, double scale, std::uint64_t seed) {
    Rng meanRng(1);
    NormalSampler meanNormal(meanRng);
    Eigen::MatrixXd means(K, p);
    for (Index k = 0; k < K; ++k)
        for (Index j = 0; j < p; ++j)
            means(k, j) = meanNormal() / std::sqrt(static_cast<double>(p));
    Rng rng(seed);
    NormalSampler normal(rng);
    Eigen::MatrixXd X(n, p);
    Eigen::VectorXi y(n);
    for (Index i = 0; i < n; ++i) {
        y(i) = static_cast<int>(i % K);
        for (Index j = 0; j < p; ++j)
            X(i, j) = scale * (means(y(i), j) + spread * normal() / std::sqrt(static_cast<double>(p)));
    }
    return {FeatureMatrix(std::move(X)), y};
}

std::vector<Index> allRows(Index n) {
    std::vector<Index> rows(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        rows[static_cast<std::size_t>(i)] = i;
    return rows;
}

long double squaredNorm(const DenseLayer& l) {
    long double s = 0;
    for (Index k = 0; k < l.W.size(); ++k)
        s += static_cast<long double>(l.W.data()[k]) * l.W.data()[k];
    for (Index k = 0; k < l.b.size(); ++k)
        s += static_cast<long double>(l.b(k)) * l.b(k);
    return s;
}

/// The norm that clipping must keep within C: the whole gradient (Total) or the larger layer's.
long double clippedNorm(const Network& g, ClipMode mode) {
    if (mode == ClipMode::Total)
        return std::sqrt(squaredNorm(g.layers[0]) + squaredNorm(g.layers[1]));
    return std::sqrt(std::max(squaredNorm(g.layers[0]), squaredNorm(g.layers[1])));
}

Eigen::VectorXd flat(const Network& net) {
    Eigen::VectorXd v(net.parameterCount());
    Index at = 0;
    for (const DenseLayer& l : net.layers) {
        v.segment(at, l.W.size()) = l.W.reshaped();
        at += l.W.size();
        v.segment(at, l.b.size()) = l.b;
        at += l.b.size();
    }
    return v;
}

} // namespace

class TestDpsgdPrecision : public QObject {
    Q_OBJECT

private slots:
    // The single path rounds x_i and W_h to float (relative error ≤ u each) and forms each of the
    // b × H pre-activations as a float dot product of length p: relative to Σ_j |x_ij w_uj| its
    // error is at most γ_p ≈ p·u (Higham, Accuracy and Stability, §3.1), typically √p·u. Through
    // ReLU, the output layer and the softmax (all double) the norms inherit that relative error up
    // to a factor of order one; 4·p·u bounds it with room. The clipped sums add the rounding of the
    // float product over the batch (γ_b relative to Σ_i |c_i δ_iu x_ij|) and the clip margin 2^-20.
    void perExampleNormsAndSumsAgreeWithTheDoublePath_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("total") << int(ClipMode::Total);
        QTest::newRow("per layer") << int(ClipMode::PerLayer);
    }
    void perExampleNormsAndSumsAgreeWithTheDoublePath() {
        QFETCH(int, mode);
        const Index n = 300, p = 64;
        const Problem pr = blobs(n, p, 10, 1.0, 1.0, 21);
        const Network net = initialNetwork(p, 80, 10, 5);
        const ClipRule rule{true, static_cast<ClipMode>(mode), 0.05, 0.0}; // small C: most examples clipped
        BatchWork work;
        Network sumDouble = net, sumSingle = net;
        Eigen::VectorXd normsDouble, normsSingle;
        clippedGradientSum(net, pr.X, pr.y, nullptr, rule, work, sumDouble, &normsDouble);
        const SingleRows rows = singleRows(pr.X);
        SingleWork single;
        ClipRule singleRule = rule;
        singleRule.margin = kSingleClipMargin;
        clippedGradientSumSingle(net, rows, allRows(n), pr.y, nullptr, singleRule, single, sumSingle, &normsSingle);
        const double normTolerance = 4.0 * static_cast<double>(p) * kFloatUnit;
        const double worst = ((normsSingle - normsDouble).array().abs() / normsDouble.array()).maxCoeff();
        QVERIFY2(worst <= normTolerance,
                 qPrintable(
                     QString("largest relative difference of the norms %1, allowed %2").arg(worst).arg(normTolerance)));
        QVERIFY(worst > 0.0); // the paths do differ: the single one is in use
        qInfo("per-example norms: largest relative difference %.3g (allowed %.3g)", worst, normTolerance);
        // The sums: every term is within C, so ‖Σ‖ ≤ nC; each path's rounding is relative to that.
        const double sumTolerance = (static_cast<double>(n) + 4.0 * static_cast<double>(p)) * kFloatUnit + 0x1p-20;
        const double sumDifference = (flat(sumSingle) - flat(sumDouble)).norm() / (static_cast<double>(n) * 0.05);
        QVERIFY2(
            sumDifference <= sumTolerance,
            qPrintable(QString("clipped sums differ by %1 of nC, allowed %2").arg(sumDifference).arg(sumTolerance)));
    }

    // One example at a time, rows whose every entry rounds up to float by almost u (entries
    // s·(1 + 2^-24 + 2^-40), s a power of 2, become s·(1 + 2^-23)): the contribution the float
    // product returns, summed in long double, must not exceed C — for C far below the example's
    // norm (clipped to C), just below it (clipped by a factor 1 − 2^-30) and just above it (not
    // clipped without a margin). Without the margin the rounding takes some past C.
    void clippingBoundsEveryContributionDespiteRounding_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("total") << int(ClipMode::Total);
        QTest::newRow("per layer") << int(ClipMode::PerLayer);
    }
    void clippingBoundsEveryContributionDespiteRounding() {
        QFETCH(int, mode);
        const auto clipMode = static_cast<ClipMode>(mode);
        const Index n = 12, p = 48;
        Rng rng(7);
        Eigen::MatrixXd X(n, p);
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < p; ++j) {
                const double s = std::ldexp(1.0, static_cast<int>(uniformIndex(rng, 3)) - 1); // ½, 1 or 2
                X(i, j) = (uniform01(rng) < 0.5 ? -s : s) * (1.0 + 0x1p-24 + 0x1p-40);
                QCOMPARE(std::abs(static_cast<double>(static_cast<float>(X(i, j)))), s * (1.0 + 0x1p-23));
            }
        Eigen::VectorXi y(n);
        for (Index i = 0; i < n; ++i)
            y(i) = static_cast<int>(i % 3);
        const FeatureMatrix features(X);
        const SingleRows rows = singleRows(features);
        const Network net = initialNetwork(p, 40, 3, 9);
        int checked = 0, pastWithoutMargin = 0;
        long double worstWithMargin = 0, worstWithout = 0;
        for (Index i = 0; i < n; ++i) {
            const std::vector<Index> one{i};
            Network g = net;
            SingleWork work;
            // The example's norm as clipping sees it (per layer: the larger layer's, both clipped alike).
            Eigen::VectorXd norms;
            clippedGradientSumSingle(net, rows, one, y, nullptr, {false, clipMode, 1.0, 0.0}, work, g, &norms);
            const double norm = clipMode == ClipMode::Total ? norms(0) : static_cast<double>(clippedNorm(g, clipMode));
            for (const double C : {norm / 16.0, norm * (1.0 - 0x1p-30), norm * (1.0 + 0x1p-30)}) {
                clippedGradientSumSingle(net, rows, one, y, nullptr, {true, clipMode, C, kSingleClipMargin}, work, g);
                const long double with = clippedNorm(g, clipMode) / C;
                QVERIFY2(with <= 1.0L, qPrintable(QString("row %1, C = %2: contribution %3·C")
                                                      .arg(i)
                                                      .arg(C)
                                                      .arg(static_cast<double>(with), 0, 'g', 17)));
                worstWithMargin = std::max(worstWithMargin, with);
                clippedGradientSumSingle(net, rows, one, y, nullptr, {true, clipMode, C, 0.0}, work, g);
                const long double without = clippedNorm(g, clipMode) / C;
                worstWithout = std::max(worstWithout, without);
                pastWithoutMargin += without > 1.0L ? 1 : 0;
                ++checked;
            }
        }
        qInfo("%d contributions: largest with the margin %.10Lf·C, without %.10Lf·C (%d past C)", checked,
              worstWithMargin, worstWithout, pastWithoutMargin);
        QVERIFY2(pastWithoutMargin > 0, "the adversarial rows should push some contribution past C without a margin");
    }

    // Both paths train the same network from the same seed (same samples, same noise): the float
    // rounding perturbs the trajectory, so the accuracies differ by chance, not by rounding. 0.03
    // on 1,000 test rows is about 3 standard deviations of one run's test accuracy at 0.9.
    void trainedAccuracyAgreesWithTheDoublePath() {
        const Problem train = blobs(3000, 64, 10, 2.5, 1.0, 31);
        const Problem test = blobs(1000, 64, 10, 2.5, 1.0, 32);
        SgdSpec s;
        s.hidden = 100;
        s.epochs = 8;
        s.batchSize = 100;
        s.clip = 1.0;
        s.clipMode = ClipMode::PerLayer;
        s.learningRate = 0.5;
        s.precision = SgdPrecision::Double;
        const SgdResult d = trainSgd(train.X, train.y, 10, s, {1.0, true, 3, 0});
        s.precision = SgdPrecision::Single;
        const SgdResult f = trainSgd(train.X, train.y, 10, s, {1.0, true, 3, 0});
        QVERIFY(flat(d.net) != flat(f.net)); // the single path did run
        const double accD = classificationMetrics(networkLogits(d.net, test.X), test.y).accuracy;
        const double accF = classificationMetrics(networkLogits(f.net, test.X), test.y).accuracy;
        qInfo("test accuracy: double %.4f, single %.4f", accD, accF);
        QVERIFY2(accD > 0.8, qPrintable(QString::number(accD))); // the problem is learnt at all
        QVERIFY2(std::abs(accF - accD) <= 0.03, qPrintable(QString("double %1, single %2").arg(accD).arg(accF)));
    }

    void singlePathIsDeterministicForAnyThreadCount() {
        const Problem pr = blobs(500, 40, 4, 1.0, 0.5, 41);
        SgdSpec s;
        s.hidden = 100; // four slices of units
        s.epochs = 2;
        s.batchSize = 50;
        s.dropout = DropoutKind::Gaussian;
        s.dropoutRate = 0.3;
        s.precision = SgdPrecision::Single;
        s.threads = 1;
        const SgdResult one = trainSgd(pr.X, pr.y, 4, s, {2.0, true, 8, 1});
        s.threads = 2;
        const SgdResult two = trainSgd(pr.X, pr.y, 4, s, {2.0, true, 8, 1});
        QVERIFY(flat(one.net) == flat(two.net));
        s.precision = SgdPrecision::Double;
        QVERIFY(flat(trainSgd(pr.X, pr.y, 4, s, {2.0, true, 8, 1}).net) != flat(one.net));
    }

    void autoChoosesSinglePrecisionForLargeHiddenLayers() {
        SgdSpec s;
        s.hidden = 1000;
        QVERIFY(s.singlePrecision(785, false)); // MNIST
        QVERIFY(!s.singlePrecision(785, true)); // sparse rows: Eigen's sparse products, double
        s.hidden = 500;
        QVERIFY(!s.singlePrecision(65, false)); // DIGITS: 32,500 weights
        s.precision = SgdPrecision::Single;
        QVERIFY(s.singlePrecision(65, false));
        s.hidden = 0;
        QVERIFY(!s.singlePrecision(65, false)); // a linear model has no hidden layer
        s.hidden = 1000;
        s.precision = SgdPrecision::Double;
        QVERIFY(!s.singlePrecision(785, false));
    }
};

QTEST_GUILESS_MAIN(TestDpsgdPrecision)
#include "test_dpsgd_precision.moc"
