// The CSR row kernels of the objective (sparse_rows.h) against Eigen's dense products, for
// general rows, binary rows (one value per row, the a9a case), an uncompressed matrix and
// unsorted rows; and Newton-CG with the anchored Hessian preconditioner (setGram on sparse X)
// reaching the same optimum as with Jacobi, cold and warm; the fused value-and-gradient pass
// against the separate kernels, and the objective's logistic pass against Σ ℓ row by row.

#include "core/model/linear_objective.h"
#include "core/model/sparse_rows.h"
#include "core/optim/newton_cg.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <vector>

using namespace elab::core;

namespace {

// n rows of p columns, about k non-zeros per row; binary: every stored value of row i is 1/√nnz_i.
SparseMatrix randomSparse(Index n, Index p, int k, bool binary, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<Eigen::Triplet<double>> t;
    for (Index i = 0; i < n; ++i) {
        std::vector<Index> cols;
        for (Index j = 0; j < p; ++j)
            if (uniform01(rng) < static_cast<double>(k) / static_cast<double>(p))
                cols.push_back(j);
        for (Index j : cols)
            t.emplace_back(i, j,
                           binary ? 1.0 / std::sqrt(static_cast<double>(cols.size())) : 2.0 * uniform01(rng) - 1.0);
    }
    SparseMatrix X(n, p);
    X.setFromTriplets(t.begin(), t.end());
    return X;
}

Eigen::VectorXd randomVector(Index n, std::uint64_t seed) {
    Rng rng(seed);
    Eigen::VectorXd v(n);
    for (Index i = 0; i < n; ++i)
        v[i] = 2.0 * uniform01(rng) - 1.0;
    return v;
}

void compareVectors(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected, double tol, const char* what) {
    const double diff = (actual - expected).lpNorm<Eigen::Infinity>();
    const double scale = std::max(1.0, expected.lpNorm<Eigen::Infinity>());
    QVERIFY2(
        actual.size() == expected.size() && diff <= tol * scale,
        qPrintable(QString("%1: max |diff| = %2, scale %3, tolerance %4").arg(what).arg(diff).arg(scale).arg(tol)));
}

} // namespace

class TestSparseRows : public QObject {
    Q_OBJECT

private slots:
    void kernelsMatchDense_data() {
        QTest::addColumn<bool>("binary");
        QTest::addColumn<bool>("compressed");
        QTest::newRow("general values") << false << true;
        QTest::newRow("binary rows") << true << true;
        QTest::newRow("binary rows, uncompressed") << true << false;
    }
    void kernelsMatchDense() {
        QFETCH(bool, binary);
        QFETCH(bool, compressed);
        SparseMatrix X = randomSparse(300, 40, 6, binary, 7);
        if (!compressed) {
            X.uncompress();
            X.reserve(Eigen::VectorXi::Constant(X.outerSize(), 2)); // free slots after each row
        }
        const Eigen::MatrixXd D = Eigen::MatrixXd(X);
        const Eigen::VectorXd a = constantRowValues(X);
        QCOMPARE(a.size() > 0, binary);
        const Eigen::VectorXd v = randomVector(40, 8), w = randomVector(300, 9).cwiseAbs();
        for (const Eigen::VectorXd* scale : {static_cast<const Eigen::VectorXd*>(nullptr), &a}) {
            Eigen::VectorXd out;
            sparseRowDots(X, scale, v, out);
            compareVectors(out, D * v, 1e-14, "X v");
            sparseTransposedProduct(X, scale, w, out);
            compareVectors(out, D.transpose() * w, 1e-14, "X' w");
            out = v;
            sparseWeightedGramProduct(X, scale, w, 0.5, v, out);
            compareVectors(out, v + 0.5 * D.transpose() * (w.asDiagonal() * (D * v)), 1e-14, "v + X'WXv/2");
            // The fused pass: the same X v, and X' of the weights it returns, bit for bit.
            Eigen::VectorXd dots, weights(300), fused, separate;
            sparseRowDots(X, scale, v, dots);
            Index next = 0;
            bool inOrder = true;
            sparseRowDotsThenTransposed(
                X, scale, v,
                [&](Index i, double s) {
                    inOrder = inOrder && i == next++ && s == dots[i];
                    return weights[i] = std::sin(s) + w[i];
                },
                fused);
            QVERIFY2(inOrder && next == 300, "the fused pass visits every row once, in order, with x_i'v");
            sparseTransposedProduct(X, scale, weights, separate);
            QVERIFY2(fused == separate, "the fused X'w equals sparseTransposedProduct bit for bit");
            Eigen::MatrixXd H;
            sparseWeightedGram(X, scale, w, 0.5, H);
            const Eigen::MatrixXd expected = 0.5 * D.transpose() * w.asDiagonal() * D;
            QVERIFY2((H - expected).cwiseAbs().maxCoeff() <= 1e-14 * std::max(1.0, expected.cwiseAbs().maxCoeff()),
                     qPrintable(QString("X'WX/2: max |diff| = %1").arg((H - expected).cwiseAbs().maxCoeff())));
        }
    }

    // The objective's one pass (LinearObjective::evaluate on sparse X): the logistic value summed
    // through logarithms of products of 64 rows' factors equals Σ ℓ row by row to rounding, also
    // with margins from −800 to 800 (factors of 1 + 1e-300 and exp overflow avoided), and the
    // derivatives and gradient are the separate kernels' bit for bit.
    void objectivePassMatchesRowByRow_data() {
        QTest::addColumn<bool>("binary");
        QTest::addColumn<double>("scale");
        QTest::newRow("general values") << false << 1.0;
        QTest::newRow("binary rows") << true << 1.0;
        QTest::newRow("binary rows, margins to ±800") << true << 400.0;
    }
    void objectivePassMatchesRowByRow() {
        QFETCH(bool, binary);
        QFETCH(double, scale);
        const FeatureMatrix F(randomSparse(1000, 40, 6, binary, 31)); // 15 blocks of 64 rows and a partial one
        const Eigen::VectorXd theta = scale * randomVector(40, 32);
        Eigen::VectorXd y = randomVector(1000, 33);
        y = (y.array() > 0.0).select(Eigen::VectorXd::Ones(1000), -Eigen::VectorXd::Ones(1000));
        const Loss loss(LossKind::Logistic);
        const double mu = 1e-3;
        LinearObjective objective(F, y, loss, mu);
        const double value = objective.evaluate(theta);
        Eigen::VectorXd g;
        objective.gradient(g);

        Eigen::VectorXd p, d1, d2, xtd1;
        const Eigen::VectorXd a = constantRowValues(F.sparse());
        sparseRowDots(F.sparse(), &a, theta, p);
        loss.derivatives(p, y, d1, d2);
        double sum = 0.0;
        for (Index i = 0; i < 1000; ++i)
            sum += loss.value(p[i], y[i]);
        QVERIFY(objective.predictions() == p); // not kept by the pass: recomputed, the same sums
        LinearObjective keeping(F, y, loss, mu);
        keeping.keepPredictions();
        QCOMPARE(keeping.evaluate(theta), value);
        QVERIFY(keeping.predictions() == p); // kept by the pass
        // After another evaluation, the predictions are those of the new θ (kept or not).
        const Eigen::VectorXd theta2 = 0.5 * theta;
        Eigen::VectorXd p2;
        sparseRowDots(F.sparse(), &a, theta2, p2);
        objective.evaluate(theta2);
        keeping.evaluate(theta2);
        QVERIFY(objective.predictions() == p2);
        QVERIFY(keeping.predictions() == p2);
        // ∇³L[v, v] = (1/n) Σ ℓ'''(p_i)(x_iᵀv)² x_i, fused in one pass: the formula's numbers.
        const Eigen::VectorXd v = randomVector(40, 34);
        Eigen::VectorXd xv, third, expected;
        sparseRowDots(F.sparse(), nullptr, v, xv);
        for (Index i = 0; i < 1000; ++i)
            xv[i] = loss.d3(p2[i], y[i]) * (xv[i] * xv[i]);
        sparseTransposedProduct(F.sparse(), nullptr, xv, expected);
        expected /= 1000.0;
        objective.thirdDerivativeTerm(v, third);
        QVERIFY(third == expected);
        objective.evaluate(theta);
        ELAB_RELATIVE(objective.dataLoss(), sum / 1000.0, 1e-14);
        ELAB_RELATIVE(value, sum / 1000.0 + 0.5 * mu * theta.squaredNorm(), 1e-14);
        sparseTransposedProduct(F.sparse(), &a, d1, xtd1);
        xtd1 /= 1000.0;
        xtd1.noalias() += mu * theta;
        QVERIFY2(g == xtd1, "the gradient equals sparseTransposedProduct of Loss::derivatives' ℓ' bit for bit");
    }

    void unsortedRowsGiveTheSameGram() {
        // A row stored with its columns in descending order (valid CSR for the kernels).
        SparseMatrix X(2, 4);
        X.reserve(Eigen::VectorXi::Constant(2, 3));
        X.insert(0, 3) = 0.5;
        X.insert(0, 1) = 0.25;
        X.insert(1, 0) = 1.0;
        X.makeCompressed();
        std::swap(X.innerIndexPtr()[0], X.innerIndexPtr()[1]);
        std::swap(X.valuePtr()[0], X.valuePtr()[1]);
        Eigen::MatrixXd H;
        sparseWeightedGram(X, nullptr, Eigen::Vector2d(2.0, 3.0), 1.0, H);
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(4, 4);
        expected(0, 0) = 3.0;
        expected(1, 1) = 2.0 * 0.0625;
        expected(3, 3) = 2.0 * 0.25;
        expected(1, 3) = expected(3, 1) = 2.0 * 0.125;
        QVERIFY2((H - expected).cwiseAbs().maxCoeff() < 1e-15, "unsorted row");
    }

    void anchoredPreconditionerReachesTheSameOptimum_data() {
        QTest::addColumn<bool>("binary");
        QTest::newRow("general values") << false;
        QTest::newRow("binary rows") << true;
    }
    void anchoredPreconditionerReachesTheSameOptimum() {
        QFETCH(bool, binary);
        const FeatureMatrix F(randomSparse(2000, 30, 8, binary, 11));
        const Eigen::VectorXd truth = Eigen::VectorXd::LinSpaced(30, -3.0, 3.0);
        Eigen::VectorXd y(2000), p;
        multiply(F, truth, p);
        const Eigen::VectorXd noise = randomVector(2000, 12);
        for (Index i = 0; i < 2000; ++i)
            y[i] = p[i] + noise[i] > 0.0 ? 1.0 : -1.0;
        const Eigen::MatrixXd gram = gramMatrix(F);
        const Eigen::VectorXd c = 1e-3 * randomVector(30, 13);
        const auto solve = [&](const Eigen::MatrixXd* g, const Eigen::VectorXd& start, double mu) {
            LinearObjective objective(F, y, Loss(LossKind::Logistic), mu, c);
            if (g)
                objective.setGram(g);
            return minimizeNewtonCg(objective, start);
        };
        const NewtonCgResult jacobi = solve(nullptr, Eigen::VectorXd::Zero(30), 1e-3);
        const NewtonCgResult anchored = solve(&gram, Eigen::VectorXd::Zero(30), 1e-3);
        // Warm start from the optimum of a neighbouring problem (the sweep's path along ε).
        const NewtonCgResult warm = solve(&gram, solve(&gram, Eigen::VectorXd::Zero(30), 2e-3).theta, 1e-3);
        for (const NewtonCgResult* r : {&jacobi, &anchored, &warm})
            QCOMPARE(r->status, NewtonCgStatus::Converged);
        // ‖∇J‖ ≤ 1e-10 and ∇²J ⪰ μI bound ‖θ − θ*‖ by 1e-10/μ = 1e-7.
        compareVectors(anchored.theta, jacobi.theta, 2e-7, "anchored vs Jacobi");
        compareVectors(warm.theta, jacobi.theta, 2e-7, "warm anchored vs Jacobi");
        QVERIFY2(anchored.cgIterations <= jacobi.cgIterations,
                 qPrintable(QString("CG: anchored %1, Jacobi %2").arg(anchored.cgIterations).arg(jacobi.cgIterations)));
    }
};

QTEST_APPLESS_MAIN(TestSparseRows)
#include "test_sparse_rows.moc"
