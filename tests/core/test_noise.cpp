// Statistical tests of the noise samplers (fixed seeds, k·σ/√N bounds with k = 5, so a
// correct sampler fails with probability < 1e-6 per check; the seeds are fixed, so the
// outcome is deterministic).

#include "core/util/noise.h"
#include "core/util/ziggurat_normal.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

class TestNoise : public QObject {
    Q_OBJECT

private slots:
    void standardNormalMomentsAndCovariance() {
        const int N = 40000;
        const Eigen::Index p = 4;
        Rng rng(deriveSeed(11, 0));
        Eigen::MatrixXd draws(N, p);
        for (int k = 0; k < N; ++k)
            draws.row(k) = standardNormalVector(p, rng).transpose();
        const Eigen::RowVectorXd mean = draws.colwise().mean();
        const Eigen::MatrixXd centred = draws.rowwise() - mean;
        const Eigen::MatrixXd cov = centred.transpose() * centred / (N - 1);
        const double k = 5.0;
        for (Eigen::Index j = 0; j < p; ++j) {
            QVERIFY2(std::abs(mean[j]) < k / std::sqrt(N), qPrintable(QString("mean %1").arg(mean[j])));
            // Var of the sample variance of N(0,1) is 2/N.
            QVERIFY2(std::abs(cov(j, j) - 1.0) < k * std::sqrt(2.0 / N), qPrintable(QString("var %1").arg(cov(j, j))));
            for (Eigen::Index l = 0; l < j; ++l)
                QVERIFY2(std::abs(cov(j, l)) < k / std::sqrt(N), qPrintable(QString("cov %1").arg(cov(j, l))));
        }
        // Tails: P(|z| > 2) = 0.0455; binomial sd √(p(1−p)/N).
        const double tail = (draws.array().abs() > 2.0).cast<double>().mean();
        ELAB_FUZZY(tail, 0.0455003, k * std::sqrt(0.0455 * 0.9545 / (N * p)));
    }

    void zigguratIsStandardNormal() {
        // DP-SGD's noise (core/util/ziggurat_normal.h on xoshiro256++): moments and the probability
        // of each band of |z| — the base strip, the wedges and the tail beyond r = 3.654 — against Φ.
        const long N = 4000000;
        Xoshiro256pp rng(deriveSeed(13, 1));
        ZigguratNormal<Xoshiro256pp> normal(rng);
        const std::vector<double> edges{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, ZigguratNormal<>::kR, 4.5, 1e9};
        std::vector<long> counts(edges.size() - 1, 0);
        double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
        for (long i = 0; i < N; ++i) {
            const double z = normal();
            sum += z;
            sum2 += z * z;
            sum4 += z * z * z * z;
            const double a = std::abs(z);
            for (std::size_t k = 0; k + 1 < edges.size(); ++k)
                if (a < edges[k + 1]) {
                    ++counts[k];
                    break;
                }
        }
        const double k = 5.0;
        ELAB_FUZZY(sum / N, 0.0, k / std::sqrt(double(N)));
        ELAB_FUZZY(sum2 / N, 1.0, k * std::sqrt(2.0 / N));
        ELAB_FUZZY(sum4 / N, 3.0, k * std::sqrt(96.0 / N)); // Var(z⁴) = 105 − 9
        for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
            const double p = std::erfc(edges[b] / std::sqrt(2.0)) - std::erfc(edges[b + 1] / std::sqrt(2.0));
            ELAB_FUZZY(double(counts[b]) / N, p, k * std::sqrt(p * (1.0 - p) / N));
        }
    }

    void gammaMoments_data() {
        QTest::addColumn<double>("shape");
        QTest::newRow("shape 0.5 (boost branch)") << 0.5;
        QTest::newRow("shape 1 (exponential)") << 1.0;
        QTest::newRow("shape 3") << 3.0;
        QTest::newRow("shape 123 (a9a p)") << 123.0;
    }
    void gammaMoments() {
        QFETCH(double, shape);
        const int N = 40000;
        Rng rng(deriveSeed(12, static_cast<std::uint64_t>(shape * 10)));
        Eigen::VectorXd g(N);
        for (int k = 0; k < N; ++k)
            g[k] = standardGamma(shape, rng);
        QVERIFY(g.minCoeff() > 0.0);
        const double mean = g.mean();
        const double var = (g.array() - mean).square().sum() / (N - 1);
        // Gamma(k, 1): mean k, variance k, central 4th moment 3k² + 6k.
        const double k = 5.0;
        QVERIFY2(std::abs(mean - shape) < k * std::sqrt(shape / N),
                 qPrintable(QString("mean %1 expected %2").arg(mean).arg(shape)));
        QVERIFY2(std::abs(var - shape) < k * std::sqrt((2 * shape * shape + 6 * shape) / N),
                 qPrintable(QString("variance %1 expected %2").arg(var).arg(shape)));
    }

    void uniformDirection() {
        const int N = 40000;
        const Eigen::Index p = 6;
        Rng rng(deriveSeed(13, 0));
        Eigen::VectorXd mean = Eigen::VectorXd::Zero(p), second = Eigen::VectorXd::Zero(p);
        for (int k = 0; k < N; ++k) {
            const Eigen::VectorXd u = elab::core::uniformDirection(p, rng);
            ELAB_FUZZY(u.norm(), 1.0, 1e-12);
            mean += u;
            second += u.cwiseAbs2();
        }
        mean /= N;
        second /= N;
        // u_j has mean 0, E u_j² = 1/p, Var u_j = 1/p, Var u_j² = 2(p−1)/(p²(p+2)).
        const double k = 5.0;
        for (Eigen::Index j = 0; j < p; ++j) {
            ELAB_FUZZY(mean[j], 0.0, k * std::sqrt(1.0 / p / N));
            ELAB_FUZZY(second[j], 1.0 / p, k * std::sqrt(2.0 * (p - 1) / (p * p * (p + 2.0)) / N));
        }
    }

    void gammaVectorNormAndDeterminism() {
        const Eigen::Index p = 10;
        const double scale = 0.3;
        const int N = 20000;
        Rng rng(deriveSeed(14, 0));
        double sum = 0.0;
        for (int k = 0; k < N; ++k)
            sum += drawNoise(p, rng).gammaVector(scale).norm();
        // ‖b‖ ~ Gamma(p, scale): mean p·scale, sd √p·scale.
        ELAB_FUZZY(sum / N, p * scale, 5.0 * std::sqrt(double(p)) * scale / std::sqrt(N));
        Rng a(99), b(99);
        const NoiseDraw da = drawNoise(p, a), db = drawNoise(p, b);
        QCOMPARE(da.z, db.z);
        QCOMPARE(da.direction, db.direction);
        QCOMPARE(da.gammaNorm, db.gammaNorm);
    }
};

QTEST_APPLESS_MAIN(TestNoise)
#include "test_noise.moc"
