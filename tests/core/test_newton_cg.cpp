// Newton-CG on problems with known optima: ridge regression (closed form), every loss against
// an independent optimality check and (smooth losses) a dense Newton solve with the exact Hessian, dense = sparse, warm
// start, stop token and callback; CG against a direct solve; the in-place Cholesky factor against
// Eigen's LLT.

#include "core/model/linear_objective.h"
#include "core/optim/cholesky_factor.h"
#include "core/optim/conjugate_gradient.h"
#include "core/optim/newton_cg.h"
#include "core/util/random.h"

#include <Eigen/Dense>
#include <QtTest>

using namespace elab::core;

namespace {

DenseMatrix randomMatrix(Index n, Index p, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, p);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < p; ++j)
            X(i, j) = 2.0 * uniform01(rng) - 1.0;
    X = (1.0 / (X.rowwise().norm().array().max(1.0))).matrix().asDiagonal() * X; // clip rows
    return X;
}

Eigen::VectorXd labels(const DenseMatrix& X, std::uint64_t seed) {
    Rng rng(seed);
    Eigen::VectorXd truth = Eigen::VectorXd::LinSpaced(X.cols(), -2.0, 2.0);
    Eigen::VectorXd y(X.rows());
    for (Index i = 0; i < X.rows(); ++i)
        y[i] = (X.row(i).dot(truth) + 0.5 * (uniform01(rng) - 0.5)) > 0 ? 1.0 : -1.0;
    return y;
}

} // namespace

class TestNewtonCg : public QObject {
    Q_OBJECT

private slots:
    void ridgeMatchesClosedForm() {
        const DenseMatrix X = randomMatrix(200, 8, 1);
        Rng rng(2);
        Eigen::VectorXd y(200);
        for (Index i = 0; i < 200; ++i)
            y[i] = uniform01(rng);
        const double mu = 0.03;
        const FeatureMatrix F(X);
        LinearObjective objective(F, y, Loss(LossKind::Squared), mu);
        const NewtonCgResult r = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(8));
        QCOMPARE(r.status, NewtonCgStatus::Converged);
        // ∇J = (2/n) Xᵀ(Xθ − y) + μθ = 0  ⇔  (2/n XᵀX + μI) θ = (2/n) Xᵀy.
        const double n = 200.0;
        const Eigen::MatrixXd A = (2.0 / n) * X.transpose() * X + mu * Eigen::MatrixXd::Identity(8, 8);
        const Eigen::VectorXd exact = A.ldlt().solve((2.0 / n) * X.transpose() * y);
        QVERIFY2((r.theta - exact).norm() < 1e-9 * exact.norm(),
                 qPrintable(QString("|diff| = %1").arg((r.theta - exact).norm())));
    }

    // Every loss (data-driven): the minimiser satisfies the optimality condition ∇J = 0 computed
    // independently (explicit sums over rows), which for μ > 0 and a convex loss is the unique
    // global minimum; and for the twice-differentiable losses it equals plain Newton with the
    // explicit Hessian (50 full steps).
    void everyLossMatchesIndependentReference_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<bool>("smooth");
        QTest::newRow("logistic") << int(LossKind::Logistic) << 0.1 << 1.0 << true;
        QTest::newRow("huber h 0.1") << int(LossKind::HuberSvm) << 0.1 << 1.0 << false;
        QTest::newRow("huber h 0.5") << int(LossKind::HuberSvm) << 0.5 << 1.0 << false;
        QTest::newRow("smooth hinge t 0.5") << int(LossKind::SmoothHinge) << 0.1 << 0.5 << true;
        QTest::newRow("squared") << int(LossKind::Squared) << 0.1 << 1.0 << true;
    }
    void everyLossMatchesIndependentReference() {
        QFETCH(int, kind);
        QFETCH(double, width);
        QFETCH(double, temperature);
        QFETCH(bool, smooth);
        const DenseMatrix X = randomMatrix(300, 6, 3);
        const Eigen::VectorXd y = labels(X, 4);
        const double mu = 0.01, n = 300.0;
        const Eigen::VectorXd c = Eigen::VectorXd::LinSpaced(6, -0.01, 0.02);
        const FeatureMatrix F(X);
        const Loss loss(LossKind(kind), width, temperature);
        LinearObjective objective(F, y, loss, mu, c);
        const NewtonCgResult r = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(6));
        QCOMPARE(r.status, NewtonCgStatus::Converged);
        QVERIFY2(r.iterations < 30, qPrintable(QString("%1 iterations").arg(r.iterations)));
        const auto gradient = [&](const Eigen::VectorXd& theta) {
            Eigen::VectorXd g = mu * theta + c;
            for (Index i = 0; i < X.rows(); ++i)
                g += loss.d1(X.row(i).dot(theta), y[i]) / n * X.row(i).transpose();
            return g;
        };
        const double gradientNorm = gradient(r.theta).norm();
        QVERIFY2(gradientNorm <= 1e-9, qPrintable(QString("independent ‖∇J(θ*)‖ = %1").arg(gradientNorm)));
        QVERIFY(r.gradientNorm <= 1e-10);
        if (!smooth)
            return;
        Eigen::VectorXd theta = Eigen::VectorXd::Zero(6);
        for (int it = 0; it < 50; ++it) {
            Eigen::MatrixXd H = mu * Eigen::MatrixXd::Identity(6, 6);
            for (Index i = 0; i < X.rows(); ++i)
                H += loss.d2(X.row(i).dot(theta), y[i]) / n * X.row(i).transpose() * X.row(i);
            theta -= H.ldlt().solve(gradient(theta));
        }
        QVERIFY2((r.theta - theta).norm() < 1e-9 * theta.norm(),
                 qPrintable(QString("|θ_NewtonCG − θ_Newton| = %1").arg((r.theta - theta).norm())));
    }

    // Dense X of at most kExactHessianFeatures columns keeps XᵀDX (formed in the evaluation's
    // pass) instead of ℓ'' per row: its products are those of the rows' sums, its preconditioner
    // is the Hessian itself, and the solver takes exact Newton steps (no CG). Wider X keeps ℓ''.
    void denseFewColumnsKeepTheHessian_data() {
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("kind");
        QTest::newRow("6 columns, logistic") << 6 << int(LossKind::Logistic);
        QTest::newRow("16 columns, huber") << 16 << int(LossKind::HuberSvm);
        QTest::newRow("17 columns, logistic (per-row curvatures)") << 17 << int(LossKind::Logistic);
    }
    void denseFewColumnsKeepTheHessian() {
        QFETCH(int, columns);
        QFETCH(int, kind);
        const Index p = columns;
        const DenseMatrix X = randomMatrix(5000, p, 8); // more rows than one block of the pass
        const Eigen::VectorXd y = labels(X, 9);
        const Loss loss{LossKind(kind)};
        const double mu = 1e-3, n = 5000.0;
        const FeatureMatrix F(X);
        LinearObjective objective(F, y, loss, mu);
        const Eigen::VectorXd theta = Eigen::VectorXd::LinSpaced(p, -0.4, 0.6);
        const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(p, 1.0, -0.5);
        objective.evaluate(theta);
        Eigen::MatrixXd H = mu * Eigen::MatrixXd::Identity(p, p); // independent: row by row
        for (Index i = 0; i < X.rows(); ++i)
            H += loss.d2(X.row(i).dot(theta), y[i]) / n * X.row(i).transpose() * X.row(i);
        Eigen::VectorXd Hv;
        objective.hessianVector(v, Hv);
        QVERIFY2((Hv - H * v).norm() <= 1e-13 * (H * v).norm(), qPrintable(QString::number((Hv - H * v).norm())));
        const auto M = objective.preconditioner();
        const bool exact = p <= LinearObjective::kExactHessianFeatures;
        QCOMPARE(objective.preconditionerIsHessian(), exact);
        if (exact) {
            Eigen::VectorXd solved;
            M(H * v, solved); // M = H: M⁻¹(Hv) = v
            QVERIFY2((solved - v).norm() <= 1e-10 * v.norm(), qPrintable(QString::number((solved - v).norm())));
        }
        LinearObjective fresh(F, y, loss, mu);
        const NewtonCgResult r = minimizeNewtonCg(fresh, Eigen::VectorXd::Zero(p));
        QCOMPARE(r.status, NewtonCgStatus::Converged);
        QCOMPARE(r.cgIterations == 0, exact);
        QCOMPARE(r.exactSteps == r.iterations, exact);
    }

    void sparseEqualsDense() {
        DenseMatrix X = randomMatrix(150, 10, 5);
        X = (X.array().abs() < 0.3).select(0.0, X); // make it genuinely sparse
        const Eigen::VectorXd y = labels(X, 6);
        const FeatureMatrix dense(X);
        const FeatureMatrix sparse(SparseMatrix(X.sparseView()));
        LinearObjective a(dense, y, Loss(LossKind::HuberSvm, 0.1), 0.05);
        LinearObjective b(sparse, y, Loss(LossKind::HuberSvm, 0.1), 0.05);
        const auto ra = minimizeNewtonCg(a, Eigen::VectorXd::Zero(10));
        const auto rb = minimizeNewtonCg(b, Eigen::VectorXd::Zero(10));
        QCOMPARE(ra.status, NewtonCgStatus::Converged);
        QCOMPARE(rb.status, NewtonCgStatus::Converged);
        QVERIFY((ra.theta - rb.theta).norm() < 1e-10);
    }

    void warmStartNeedsNoIterations() {
        const DenseMatrix X = randomMatrix(100, 5, 7);
        const Eigen::VectorXd y = labels(X, 8);
        const FeatureMatrix F(X);
        LinearObjective objective(F, y, Loss(LossKind::Logistic), 0.1);
        const auto cold = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(5));
        const auto warm = minimizeNewtonCg(objective, cold.theta);
        QVERIFY(cold.iterations > 2);
        QCOMPARE(warm.iterations, 0);
        QCOMPARE(warm.status, NewtonCgStatus::Converged);
    }

    void stopTokenAndCallbackStop() {
        const DenseMatrix X = randomMatrix(100, 5, 9);
        const Eigen::VectorXd y = labels(X, 10);
        const FeatureMatrix F(X);
        LinearObjective objective(F, y, Loss(LossKind::Logistic), 0.1);
        std::stop_source source;
        source.request_stop();
        const auto stopped = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(5), {}, source.get_token());
        QCOMPARE(stopped.status, NewtonCgStatus::Stopped);
        QCOMPARE(stopped.iterations, 0);
        int calls = 0;
        const auto byCallback = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(5), {}, {},
                                                 [&calls](int, double, double) { return ++calls < 1; });
        QCOMPARE(byCallback.status, NewtonCgStatus::Stopped);
        QCOMPARE(byCallback.iterations, 1);
        QCOMPARE(calls, 1);
    }

    void conjugateGradientSolves() {
        const DenseMatrix M = randomMatrix(40, 12, 11);
        const Eigen::MatrixXd A = M.transpose() * M + 0.1 * Eigen::MatrixXd::Identity(12, 12);
        const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(12, 1.0, 2.0);
        const auto r =
            conjugateGradient([&A](const Eigen::VectorXd& v, Eigen::VectorXd& out) { out = A * v; }, b, 1e-12, 100);
        QVERIFY(r.converged);
        const Eigen::VectorXd exact = A.ldlt().solve(b);
        QVERIFY((r.x - exact).norm() < 1e-9 * exact.norm());
        // An indefinite operator is reported, not iterated on.
        const auto neg =
            conjugateGradient([](const Eigen::VectorXd& v, Eigen::VectorXd& out) { out = -v; }, b, 1e-12, 100);
        QVERIFY(neg.negativeCurvature);
        QVERIFY(!neg.converged);
    }

    void inPlaceCholeskyIsEigensLlt_data() {
        QTest::addColumn<int>("p");
        QTest::newRow("small (unblocked)") << 7;
        QTest::newRow("p = 300 (blocked)") << 300;
    }

    void inPlaceCholeskyIsEigensLlt() {
        // The preconditioners' factor is formed in the matrix itself; it must be the factor and
        // give the solves of LLT<MatrixXd> on a copy, bit for bit (the fits' numbers rest on it).
        QFETCH(int, p);
        const DenseMatrix M = randomMatrix(2 * p, p, 5);
        Eigen::MatrixXd A = M.transpose() * M;
        A.diagonal().array() += 1e-3;
        const Eigen::LLT<Eigen::MatrixXd> reference(A);
        QCOMPARE(reference.info(), Eigen::Success);
        const auto factor = CholeskyFactor::make(Eigen::MatrixXd(A));
        QVERIFY(factor != nullptr);
        const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(p, -1.0, 3.0);
        Eigen::VectorXd x;
        factor->solve(b, x);
        const Eigen::VectorXd expected = reference.solve(b);
        QVERIFY((x.array() == expected.array()).all());
        Eigen::VectorXd z = b;
        factor->solveInPlace(z);
        QVERIFY((z.array() == expected.array()).all());
        QVERIFY((A * x - b).norm() < 1e-8 * b.norm()); // and it is a solve
        // Not positive definite: no factor.
        Eigen::MatrixXd indefinite = A;
        indefinite(p / 2, p / 2) = -1.0;
        QVERIFY(CholeskyFactor::make(std::move(indefinite)) == nullptr);
    }
};

QTEST_APPLESS_MAIN(TestNewtonCg)
#include "test_newton_cg.moc"
