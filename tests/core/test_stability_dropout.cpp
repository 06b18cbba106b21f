// Deterministic dropout (MATH.md §3.5): the Gauss–Hermite rule, the closed form for the
// squared loss (= the exact expectation over Bernoulli masks), derivatives against finite
// differences, and dropout gradient descent (Algorithm 1) against the deterministic optimum.

#include "core/model/linear_objective.h"
#include "core/optim/newton_cg.h"
#include "core/stability/dropout_gd.h"
#include "core/stability/dropout_objective.h"
#include "core/util/normal_sampler.h"

#include "tests/support/test_support.h"

#include <QtTest>

using namespace elab::core;

namespace {

// A small regression problem: y = xᵀw + noise, x uniform in [−1, 1]^p.
struct Regression {
    FeatureMatrix X;
    Eigen::VectorXd y;
};

Regression makeRegression(Index n, Index p, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, p);
    Eigen::VectorXd y(n);
    for (Index i = 0; i < n; ++i) {
        double score = 0.0;
        for (Index j = 0; j < p; ++j) {
            X(i, j) = 2.0 * uniform01(rng) - 1.0;
            score += (1.0 + static_cast<double>(j)) * X(i, j);
        }
        y[i] = score + 0.3 * (uniform01(rng) - 0.5);
    }
    return {FeatureMatrix(X), y};
}

// (f(θ + h e_j) − f(θ − h e_j)) / 2h for every j.
Eigen::VectorXd numericGradient(Objective& f, const Eigen::VectorXd& theta, double h) {
    Eigen::VectorXd g(theta.size());
    for (Index j = 0; j < theta.size(); ++j) {
        Eigen::VectorXd a = theta, b = theta;
        a[j] += h;
        b[j] -= h;
        g[j] = (f.evaluate(a) - f.evaluate(b)) / (2 * h);
    }
    return g;
}

} // namespace

class TestStabilityDropout : public QObject {
    Q_OBJECT

private slots:
    void hermiteIsExactForPolynomials() {
        const GaussHermiteRule rule = gaussHermiteRule(20);
        QCOMPARE(rule.nodes.size(), std::size_t(20));
        double sum = 0, m2 = 0, m4 = 0, m6 = 0, m3 = 0;
        for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
            const double z = rule.nodes[k], w = rule.weights[k];
            sum += w;
            m2 += w * z * z;
            m3 += w * z * z * z;
            m4 += w * std::pow(z, 4);
            m6 += w * std::pow(z, 6);
        }
        ELAB_FUZZY(sum, 1.0, 1e-13);
        ELAB_FUZZY(m2, 1.0, 1e-12);
        ELAB_FUZZY(m3, 0.0, 1e-12);
        ELAB_FUZZY(m4, 3.0, 1e-11);
        ELAB_FUZZY(m6, 15.0, 1e-10);
    }

    void hermiteLogisticMatchesMonteCarlo() {
        // E log(1 + e^{−u}), u ~ N(0.7, 1.3²): 24 nodes vs 10⁶ seeded normal draws (4σ/√N)
        // and vs a 150-node rule (converged reference).
        const Loss logistic(LossKind::Logistic);
        const double mean = 0.7, sd = 1.3;
        const DropoutMoments gh = dropoutMoments(logistic, mean, 1.0, sd * sd, gaussHermiteRule(24));
        const DropoutMoments ref = dropoutMoments(logistic, mean, 1.0, sd * sd, gaussHermiteRule(150));
        ELAB_FUZZY(gh.value, ref.value, 1e-6);
        ELAB_FUZZY(gh.d1, ref.d1, 1e-6);
        Rng rng(7);
        NormalSampler normal(rng);
        const int N = 1000000;
        double sum = 0.0, sum2 = 0.0;
        for (int k = 0; k < N; ++k) {
            const double v = logistic.value(mean + sd * normal(), 1.0);
            sum += v;
            sum2 += v * v;
        }
        const double mc = sum / N, se = std::sqrt((sum2 / N - mc * mc) / N);
        ELAB_FUZZY(gh.value, mc, 4 * se);
    }

    void squaredClosedFormIsTheMaskExpectation() {
        // J(θ) = (1/n) Σ_i [(θᵀx_i − y_i)² + r Σ_j x_ij² θ_j²] equals the exact average over all
        // 2^p masks of (⟨b ⊙ x_i, θ⟩/q − y_i)², weighted by q^{|b|}(1 − q)^{p − |b|}.
        const Regression d = makeRegression(7, 3, 3);
        const double q = 0.7;
        const Eigen::VectorXd theta = Eigen::Vector3d(0.4, -1.2, 2.0);
        DropoutObjective objective(d.X, d.y, Loss(LossKind::Squared), q);
        const double value = objective.evaluate(theta);
        double exact = 0.0, closed = 0.0;
        const DenseMatrix& X = d.X.dense();
        for (Index i = 0; i < X.rows(); ++i) {
            for (int mask = 0; mask < 8; ++mask) {
                double u = 0.0, weight = 1.0;
                for (int j = 0; j < 3; ++j) {
                    const bool kept = (mask >> j) & 1;
                    weight *= kept ? q : 1 - q;
                    u += kept ? X(i, j) * theta[j] / q : 0.0;
                }
                exact += weight * (u - d.y[i]) * (u - d.y[i]);
            }
            const double p = X.row(i).dot(theta);
            closed += (p - d.y[i]) * (p - d.y[i]) + (1 - q) / q * X.row(i).cwiseAbs2().dot(theta.cwiseAbs2());
        }
        ELAB_FUZZY(value, exact / 7.0, 1e-12);
        ELAB_FUZZY(value, closed / 7.0, 1e-12);
    }

    void derivativesMatchFiniteDifferences_data() {
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<bool>("squared");
        QTest::newRow("logistic dense") << false << false;
        QTest::newRow("logistic sparse") << true << false;
        QTest::newRow("squared dense") << false << true;
    }
    void derivativesMatchFiniteDifferences() {
        QFETCH(bool, sparse);
        QFETCH(bool, squared);
        auto problem = elab::test::syntheticBinary(40, 5, 11, {1.0, -2.0, 0.5}, 0.5, true);
        FeatureMatrix X = sparse ? FeatureMatrix(SparseMatrix(problem.X.dense().sparseView())) : problem.X;
        DropoutObjective f(X, problem.y, Loss(squared ? LossKind::Squared : LossKind::Logistic), 0.6, 0.01);
        Eigen::VectorXd theta(5);
        theta << 0.3, -1.1, 2.2, 0.0, -0.4;
        f.evaluate(theta);
        Eigen::VectorXd g;
        f.gradient(g);
        const Eigen::VectorXd numeric = numericGradient(f, theta, 1e-5);
        QVERIFY2((g - numeric).norm() <= 1e-7 * std::max(1.0, g.norm()),
                 qPrintable(QString("gradient error %1").arg((g - numeric).norm())));
        // Hessian-vector product vs the difference of gradients.
        const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(5, -1.0, 1.5);
        f.evaluate(theta);
        Eigen::VectorXd hv, gPlus, gMinus;
        f.hessianVector(v, hv);
        const double h = 1e-5;
        f.evaluate(theta + h * v);
        f.gradient(gPlus);
        f.evaluate(theta - h * v);
        f.gradient(gMinus);
        const Eigen::VectorXd numericHv = (gPlus - gMinus) / (2 * h);
        QVERIFY2((hv - numericHv).norm() <= 1e-6 * std::max(1.0, hv.norm()),
                 qPrintable(QString("Hessian-vector error %1").arg((hv - numericHv).norm())));
    }

    // The sparse Hessian-vector product runs fused passes over X and Q = X ⊙ X; the dense one
    // the separate products: the same numbers up to round-off, also after re-evaluation.
    void sparseAndDenseAgree() {
        auto problem = elab::test::syntheticBinary(60, 8, 5, {1.0, -2.0, 0.5}, 0.5, true);
        const FeatureMatrix sparseX(SparseMatrix(problem.X.dense().sparseView()));
        DropoutObjective dense(problem.X, problem.y, Loss(LossKind::Logistic), 0.5);
        DropoutObjective sparse(sparseX, problem.y, Loss(LossKind::Logistic), 0.5);
        const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(8, -1.0, 2.0);
        for (double scale : {0.1, 1.5}) {
            const Eigen::VectorXd theta = scale * Eigen::VectorXd::LinSpaced(8, 1.0, -0.7);
            QCOMPARE(sparse.evaluate(theta), dense.evaluate(theta));
            Eigen::VectorXd gs, gd, hs, hd;
            sparse.gradient(gs);
            dense.gradient(gd);
            sparse.hessianVector(v, hs);
            dense.hessianVector(v, hd);
            QVERIFY((gs - gd).norm() <= 1e-12 * std::max(1.0, gd.norm()));
            QVERIFY((hs - hd).norm() <= 1e-12 * std::max(1.0, hd.norm()));
        }
    }

    void newtonMinimisesLogisticDropout() {
        auto problem = elab::test::syntheticBinary(300, 4, 5, {3.0, -3.0}, 0.0, true); // separable
        DropoutObjective f(problem.X, problem.y, Loss(LossKind::Logistic), 0.5);
        const NewtonCgResult r = minimizeNewtonCg(f, Eigen::VectorXd::Zero(4));
        QVERIFY2(r.status == NewtonCgStatus::Converged, toString(r.status));
        QVERIFY(r.gradientNorm < 1e-10);
        QVERIFY(r.theta.allFinite()); // dropout keeps θ finite on separable data
        QVERIFY(r.theta.norm() < 100.0);
    }

    void dropoutGdConvergesToDeterministicOptimum() {
        // Squared loss: the dropout GD steps are unbiased gradients of the closed-form
        // objective, so the tail-averaged iterate approaches its minimiser.
        const Regression d = makeRegression(60, 3, 21);
        const double q = 0.8;
        DropoutObjective f(d.X, d.y, Loss(LossKind::Squared), q);
        const Eigen::VectorXd optimum = minimizeNewtonCg(f, Eigen::VectorXd::Zero(3)).theta;
        DropoutGdOptions options;
        options.keep = q;
        options.epochs = 600;
        const Eigen::VectorXd theta = dropoutGradientDescent(d.X, d.y, Loss(LossKind::Squared), options, 99);
        const double relative = (theta - optimum).norm() / optimum.norm();
        QVERIFY2(relative < 0.02, qPrintable(QString("relative distance %1, optimum (%2, %3, %4)")
                                                 .arg(relative)
                                                 .arg(optimum[0])
                                                 .arg(optimum[1])
                                                 .arg(optimum[2])));
        // And it is not the unregularised least-squares solution: dropout shrinks.
        LinearObjective ls(d.X, d.y, Loss(LossKind::Squared), 0.0);
        const Eigen::VectorXd plain = minimizeNewtonCg(ls, Eigen::VectorXd::Zero(3)).theta;
        QVERIFY((plain - optimum).norm() > 5 * (theta - optimum).norm());
    }

    void dropoutGdIsSeeded() {
        const Regression d = makeRegression(30, 3, 2);
        DropoutGdOptions options;
        options.batchSize = 4;
        const Loss squared(LossKind::Squared);
        QCOMPARE(dropoutGradientDescent(d.X, d.y, squared, options, 5),
                 dropoutGradientDescent(d.X, d.y, squared, options, 5));
        QVERIFY(dropoutGradientDescent(d.X, d.y, squared, options, 5) !=
                dropoutGradientDescent(d.X, d.y, squared, options, 6));
    }
};

QTEST_APPLESS_MAIN(TestStabilityDropout)
#include "test_stability_dropout.moc"
