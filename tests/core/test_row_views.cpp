// Sparse and dense views (core/data/feature_matrix.h): a prepared training matrix that shares the loaded
// dataset's buffers — the norm step's row factors and the intercept column kept beside them —
// must give every row kernel, the objective, the merged rows and the fits the same numbers, bit
// for bit, as the plain matrix the same steps make on an unshared copy, without ever copying
// the view (FeatureMatrix::viewsMaterialised).

#include "core/data/data_preparation.h"
#include "core/data/generators.h"
#include "core/learner/prediction.h"
#include "core/learners/linear_erm/one_vs_rest.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/model/dense_rows.h"
#include "core/model/linear_objective.h"
#include "core/model/merged_rows.h"
#include "core/model/prefix_tree.h"
#include "core/model/sparse_rows.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <optional>
#include <vector>

using namespace elab::core;

namespace {

// n rows of p columns, ≈ k non-zeros per row, every 5th row repeated from the row before (for
// the merged rows); binary: every stored value is 1.
SparseMatrix randomRows(Index n, Index p, int k, bool binary, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<Eigen::Triplet<double>> t;
    std::vector<Eigen::Triplet<double>> previous;
    for (Index i = 0; i < n; ++i) {
        std::vector<Eigen::Triplet<double>> row;
        if (i % 5 == 4) {
            for (const auto& e : previous)
                row.emplace_back(i, e.col(), e.value());
        } else {
            for (Index j = 0; j < p; ++j)
                if (uniform01(rng) < static_cast<double>(k) / static_cast<double>(p))
                    row.emplace_back(i, j, binary ? 1.0 : 4.0 * uniform01(rng) - 2.0);
        }
        t.insert(t.end(), row.begin(), row.end());
        previous = row;
    }
    SparseMatrix X(n, p);
    X.setFromTriplets(t.begin(), t.end());
    return X;
}

Eigen::VectorXd randomVector(Index n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
    Rng rng(seed);
    Eigen::VectorXd v(n);
    for (Index i = 0; i < n; ++i)
        v[i] = lo + (hi - lo) * uniform01(rng);
    return v;
}

// Bit-for-bit equality of two vectors (== on doubles; NaN never appears here).
#define ELAB_SAME(a, b) QVERIFY2((a).size() == (b).size() && (a) == (b), #a " differs from " #b)

// The objective on a view and on its plain copy, at θ with direction v: value, gradient,
// Hessian-vector product, preconditioner, third-derivative term and predictions, bit for bit.
// (QVERIFY returns from here on failure; callers check QTest::currentTestFailed().)
// The preparation steps the engine applies to a loaded matrix: the intercept column, then the
// norm step (1/‖x‖ where ‖x‖ > 1, else 1: rows inside are left as they are).
void prepareLikeTheEngine(FeatureMatrix& m, bool intercept, bool clip) {
    if (intercept)
        m.appendConstantColumn(1.0);
    if (clip) {
        const Eigen::VectorXd norms = m.rowNorms();
        Eigen::VectorXd f = Eigen::VectorXd::Ones(m.rows());
        for (Index i = 0; i < m.rows(); ++i)
            if (norms[i] > 1.0)
                f[i] = 1.0 / norms[i];
        m.scaleRows(f);
    }
}

void verifySameObjective(LinearObjective& oV, LinearObjective& oP, const Eigen::VectorXd& theta,
                         const Eigen::VectorXd& v) {
    QVERIFY(oV.evaluate(theta) == oP.evaluate(theta)); // bit for bit (QCOMPARE is fuzzy on doubles)
    Eigen::VectorXd gV, gP;
    oV.gradient(gV);
    oP.gradient(gP);
    ELAB_SAME(gV, gP);
    oV.hessianVector(v, gV);
    oP.hessianVector(v, gP);
    ELAB_SAME(gV, gP);
    oV.preconditioner()(v, gV);
    oP.preconditioner()(v, gP);
    ELAB_SAME(gV, gP);
    oV.thirdDerivativeTerm(v, gV);
    oP.thirdDerivativeTerm(v, gP);
    ELAB_SAME(gV, gP);
    ELAB_SAME(oV.predictions(), oP.predictions());
}

} // namespace

class TestRowViews : public QObject {
    Q_OBJECT

private slots:
    void kernelsOnAViewEqualThePlainMatrix_data() {
        QTest::addColumn<bool>("binary");
        QTest::addColumn<bool>("intercept");
        QTest::addColumn<bool>("clip");
        QTest::addColumn<bool>("uncompressed");
        for (bool binary : {true, false})
            for (bool intercept : {true, false})
                for (bool clip : {true, false})
                    for (bool uncompressed : {false, true})
                        if (intercept || clip)
                            QTest::addRow("%s%s%s%s", binary ? "binary" : "values", intercept ? ", intercept" : "",
                                          clip ? ", clipped" : "", uncompressed ? ", uncompressed" : "")
                                << binary << intercept << clip << uncompressed;
    }

    void kernelsOnAViewEqualThePlainMatrix() {
        QFETCH(bool, binary);
        QFETCH(bool, intercept);
        QFETCH(bool, clip);
        QFETCH(bool, uncompressed);
        const Index n = 300, p = 40;
        SparseMatrix base = randomRows(n, p, 6, binary, 11);
        if (uncompressed) { // free slots after each row's live entries
            base.reserve(Eigen::VectorXi::Constant(n, 2));
            QVERIFY(!base.isCompressed());
        }
        FeatureMatrix plain{SparseMatrix(base)}; // an Eigen copy: compressed
        const FeatureMatrix loaded(std::move(base));
        QCOMPARE(loaded.sparse().isCompressed(), !uncompressed);
        // The same steps on a shared copy (a view) and on an unshared one (plain).
        FeatureMatrix view = loaded;
        for (FeatureMatrix* m : {&view, &plain})
            prepareLikeTheEngine(*m, intercept, clip);
        QVERIFY(view.isView());
        QVERIFY(view.sharesBuffersWith(loaded));
        QVERIFY(!plain.isView());
        const long copiesBefore = FeatureMatrix::viewsMaterialised();

        const CsrRows V = view.csrRows(), P = plain.csrRows();
        QCOMPARE(view.rows(), plain.rows());
        QCOMPARE(view.cols(), plain.cols());
        QCOMPARE(view.storedEntries(), plain.storedEntries());
        QCOMPARE(sparseRowPairs(V), sparseRowPairs(P));
        ELAB_SAME(view.rowNorms(), plain.rowNorms());
        for (Index i = 0; i < n; i += 7)
            for (Index j = 0; j < view.cols(); ++j)
                QCOMPARE(view.value(i, j), plain.value(i, j));

        const Eigen::VectorXd aV = constantRowValues(V), aP = constantRowValues(P);
        ELAB_SAME(aV, aP);
        QCOMPARE(aV.size() > 0, binary); // binary rows stay binary with the intercept's 1
        const Eigen::VectorXd v = randomVector(view.cols(), 3), w = randomVector(n, 4),
                              d = randomVector(n, 5, 0.0, 0.25);
        for (const Eigen::VectorXd* a : {static_cast<const Eigen::VectorXd*>(nullptr), &aV}) {
            Eigen::VectorXd outV, outP;
            sparseRowDots(V, a, v, outV);
            sparseRowDots(P, a, v, outP);
            ELAB_SAME(outV, outP);
            sparseTransposedProduct(V, a, w, outV);
            sparseTransposedProduct(P, a, w, outP);
            ELAB_SAME(outV, outP);
            outV = v;
            outP = v;
            sparseWeightedGramProduct(V, a, d, 0.5, v, outV);
            sparseWeightedGramProduct(P, a, d, 0.5, v, outP);
            ELAB_SAME(outV, outP);
            const auto weight = [&w](Index i, double s) { return w[i] * s; };
            sparseRowDotsThenTransposed(V, a, v, weight, outV);
            sparseRowDotsThenTransposed(P, a, v, weight, outP);
            ELAB_SAME(outV, outP);
            Eigen::MatrixXd HV, HP;
            sparseWeightedGram(V, a, d, 0.5, HV);
            sparseWeightedGram(P, a, d, 0.5, HP);
            QVERIFY(HV == HP);
        }
        QVERIFY(gramMatrix(view) == gramMatrix(plain));
        if (binary) {
            const PrefixTree treeV(V), treeP(P);
            Eigen::MatrixXd HV, HP;
            treeV.compute(aV, d, 0.5, HV);
            treeP.compute(aP, d, 0.5, HP);
            QVERIFY(HV == HP);
            // The tree's passes: the same on the view and the plain copy, and the row kernels' up to rounding.
            std::vector<double> work;
            Eigen::VectorXd outV, outP, rows;
            const auto weight = [&w](Index i, double s) { return w[i] * s; };
            treeV.rowDotsThenTransposed(aV, v, weight, outV, work);
            treeP.rowDotsThenTransposed(aP, v, weight, outP, work);
            ELAB_SAME(outV, outP);
            sparseRowDotsThenTransposed(V, &aV, v, weight, rows);
            QVERIFY2((outV - rows).norm() <= 1e-13 * rows.norm(), "tree pass vs row pass on a view");
            outV = v;
            outP = v;
            rows = v;
            treeV.weightedGramProduct(aV, d, 0.5, v, outV, work);
            treeP.weightedGramProduct(aP, d, 0.5, v, outP, work);
            ELAB_SAME(outV, outP);
            sparseWeightedGramProduct(V, &aV, d, 0.5, v, rows);
            QVERIFY2((outV - rows).norm() <= 1e-13 * rows.norm(), "tree product vs row product on a view");
        }

        // The objective: value, gradient, Hessian-vector product, preconditioner, third derivatives.
        const Eigen::VectorXd y = randomVector(n, 6).unaryExpr([](double x) { return x < 0.0 ? -1.0 : 1.0; });
        const Eigen::MatrixXd G = gramMatrix(plain);
        LinearObjective oV(view, y, Loss(LossKind::Logistic), 0.01), oP(plain, y, Loss(LossKind::Logistic), 0.01);
        oV.setGram(&G);
        oP.setGram(&G);
        const Eigen::VectorXd theta = randomVector(view.cols(), 7);
        verifySameObjective(oV, oP, theta, v);
        if (QTest::currentTestFailed())
            return;
        Eigen::VectorXd gV, gP;
        LinearObjective jV(view, y, Loss(LossKind::SmoothHinge), 0.01), jP(plain, y, Loss(LossKind::SmoothHinge), 0.01);
        QVERIFY(jV.evaluate(theta) == jP.evaluate(theta));
        jV.preconditioner()(v, gV); // no Gram matrix: Jacobi, Σ ℓ'' x² by columns
        jP.preconditioner()(v, gP);
        ELAB_SAME(gV, gP);

        // Merged rows: the same groups and the same distinct rows (a plain matrix).
        const auto mV = mergeEqualRows(view), mP = mergeEqualRows(plain);
        QVERIFY(mV && mP);
        QCOMPARE(mV->rowOf, mP->rowOf);
        ELAB_SAME(mV->count, mP->count);
        QVERIFY(!mV->X.isView());
        QVERIFY(DenseMatrix(mV->X.sparse()) == DenseMatrix(mP->X.sparse()));

        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore); // nothing above copied the view
        QVERIFY(DenseMatrix(view.sparse()) == DenseMatrix(plain.sparse()));
        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore + 1);
    }

    void denseKernelsOnAViewEqualThePlainMatrix_data() {
        QTest::addColumn<bool>("intercept");
        QTest::addColumn<bool>("clip");
        QTest::addColumn<int>("rows");
        for (int n : {300, 9001}) // one block; three blocks, the last one short
            for (bool intercept : {true, false})
                for (bool clip : {true, false})
                    if (intercept || clip)
                        QTest::addRow("%d rows%s%s", n, intercept ? ", intercept" : "", clip ? ", clipped" : "")
                            << intercept << clip << n;
    }

    // The dense counterpart: row factors and the intercept beside a shared column-major matrix,
    // every row-block kernel, the objective and the merged rows bit for bit as on the plain copy,
    // and the kernels equal to their formulas (to rounding).
    void denseKernelsOnAViewEqualThePlainMatrix() {
        QFETCH(bool, intercept);
        QFETCH(bool, clip);
        QFETCH(int, rows);
        const Index n = rows, p = 4;
        DenseMatrix base(n, p);
        Rng rng(21);
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < p; ++j) // every 5th row repeats the one before (for the merged rows)
                base(i, j) = i % 5 == 4 ? base(i - 1, j) : 3.0 * uniform01(rng) - 1.5;
        FeatureMatrix plain{DenseMatrix(base)};
        const FeatureMatrix loaded(std::move(base));
        FeatureMatrix view = loaded;
        for (FeatureMatrix* m : {&view, &plain})
            prepareLikeTheEngine(*m, intercept, clip);
        QVERIFY(!view.isSparse());
        QVERIFY(view.isView());
        QVERIFY(view.sharesBuffersWith(loaded));
        QVERIFY(!plain.isView());
        QVERIFY(view.memoryBytes() < plain.memoryBytes() + loaded.memoryBytes());
        const long copiesBefore = FeatureMatrix::viewsMaterialised();

        const DenseRows V = view.denseRows(), P = plain.denseRows();
        QCOMPARE(view.rows(), plain.rows());
        QCOMPARE(view.cols(), plain.cols());
        QCOMPARE(view.storedEntries(), plain.storedEntries());
        ELAB_SAME(view.rowNorms(), plain.rowNorms());
        for (Index i = 0; i < n; i += 97)
            for (Index j = 0; j < view.cols(); ++j)
                QVERIFY(view.value(i, j) == plain.dense()(i, j));
        const std::vector<Index> some{7, 0, n - 1, 7};
        QVERIFY(view.selectRows(some).dense() == plain.selectRows(some).dense());

        const DenseMatrix& X = plain.dense();
        const Eigen::VectorXd v = randomVector(view.cols(), 3), w = randomVector(n, 4),
                              d = randomVector(n, 5, 0.0, 0.25);
        const double tol = 1e-12 * static_cast<double>(n);
        Eigen::VectorXd outV, outP;
        denseRowDots(V, v, outV);
        denseRowDots(P, v, outP);
        ELAB_SAME(outV, outP);
        QVERIFY((outP - X * v).lpNorm<Eigen::Infinity>() <= 1e-14);
        denseTransposedProduct(V, w, outV);
        denseTransposedProduct(P, w, outP);
        ELAB_SAME(outV, outP);
        QVERIFY((outP - X.transpose() * w).lpNorm<Eigen::Infinity>() <= tol);
        outV = v;
        outP = v;
        denseWeightedGramProduct(V, d, 0.5, v, outV);
        denseWeightedGramProduct(P, d, 0.5, v, outP);
        ELAB_SAME(outV, outP);
        const Eigen::VectorXd hv = v + 0.5 * X.transpose() * (d.array() * (X * v).array()).matrix();
        QVERIFY((outP - hv).lpNorm<Eigen::Infinity>() <= tol);
        const auto weight = [&w](Index i, double s) { return w[i] * s; };
        denseRowDotsThenTransposed(V, v, weight, outV);
        denseRowDotsThenTransposed(P, v, weight, outP);
        ELAB_SAME(outV, outP);
        QVERIFY((outP - X.transpose() * (w.array() * (X * v).array()).matrix()).lpNorm<Eigen::Infinity>() <= tol);
        denseWeightedSquares(V, d, outV);
        denseWeightedSquares(P, d, outP);
        ELAB_SAME(outV, outP);
        QVERIFY((outP - X.cwiseAbs2().transpose() * d).lpNorm<Eigen::Infinity>() <= tol);
        Eigen::MatrixXd HV, HP;
        denseWeightedGram(V, &d, 0.5, HV);
        denseWeightedGram(P, &d, 0.5, HP);
        QVERIFY(HV == HP);
        QVERIFY((HP - 0.5 * X.transpose() * d.asDiagonal() * X).lpNorm<Eigen::Infinity>() <= tol);
        QVERIFY(gramMatrix(view) == gramMatrix(plain));

        const Eigen::VectorXd y = randomVector(n, 6).unaryExpr([](double x) { return x < 0.0 ? -1.0 : 1.0; });
        for (LossKind kind : {LossKind::Logistic, LossKind::SmoothHinge}) {
            LinearObjective oV(view, y, Loss(kind), 0.01), oP(plain, y, Loss(kind), 0.01);
            const Eigen::VectorXd theta = randomVector(view.cols(), 7);
            verifySameObjective(oV, oP, theta, v);
            if (QTest::currentTestFailed())
                return;
            QVERIFY((oP.predictions() - X * theta).lpNorm<Eigen::Infinity>() <= 1e-14);
            // The third-derivative term forms x_iᵀθ by blocks in its own pass (no n-vector):
            // the numbers of the kept predictions' path and of the formula, bit for bit.
            LinearObjective kept(view, y, Loss(kind), 0.01), streamed(view, y, Loss(kind), 0.01);
            kept.keepPredictions();
            kept.evaluate(theta);
            streamed.evaluate(theta);
            Eigen::VectorXd fromKept, fromStream, pred, s, expected;
            kept.thirdDerivativeTerm(v, fromKept);
            streamed.thirdDerivativeTerm(v, fromStream);
            ELAB_SAME(fromStream, fromKept);
            denseRowDots(V, theta, pred);
            denseRowDots(V, v, s);
            for (Index i = 0; i < n; ++i)
                s[i] = Loss(kind).d3(pred[i], y[i]) * (s[i] * s[i]);
            denseTransposedProduct(V, s, expected);
            expected /= static_cast<double>(n);
            ELAB_SAME(fromStream, expected);
            ELAB_SAME(streamed.predictions(), pred); // still there when asked for
        }

        const auto mV = mergeEqualRows(view), mP = mergeEqualRows(plain);
        QVERIFY(mV && mP);
        QCOMPARE(mV->rowOf, mP->rowOf);
        ELAB_SAME(mV->count, mP->count);
        QVERIFY(!mV->X.isView());
        QVERIFY(mV->X.dense() == mP->X.dense());

        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore); // nothing above copied the view
        QVERIFY(view.dense() == plain.dense());
        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore + 1);
    }

    void metricsByBlocksEqualTheScoreMatrix_data() {
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<int>("models");
        for (bool sparse : {false, true})
            for (int models : {1, 3})
                QTest::addRow("%s, %d model%s", sparse ? "sparse" : "dense", models, models > 1 ? "s" : "")
                    << sparse << models;
    }

    // Accuracy and mean loss computed block by block (no n × K score matrix) equal those of the
    // score matrix, bit for bit, on plain matrices and views, over several blocks.
    void metricsByBlocksEqualTheScoreMatrix() {
        QFETCH(bool, sparse);
        QFETCH(int, models);
        const Index n = 9001, p = 6;
        FeatureMatrix loaded;
        if (sparse) {
            loaded = FeatureMatrix(randomRows(n, p, 3, false, 31));
        } else {
            DenseMatrix d(n, p);
            Rng rng(31);
            for (Index i = 0; i < n; ++i)
                for (Index j = 0; j < p; ++j)
                    d(i, j) = 2.0 * uniform01(rng) - 1.0;
            loaded = FeatureMatrix(std::move(d));
        }
        FeatureMatrix view = loaded; // shared: the intercept and the factors beside it
        view.appendConstantColumn(1.0);
        view.scaleRows(randomVector(n, 32, 0.5, 1.0));
        QVERIFY(view.isView());
        const Eigen::VectorXd u = randomVector(n, 33, 0.0, 1.0);
        const Eigen::VectorXd labels = models == 1
                                           ? Eigen::VectorXd(u.unaryExpr([](double x) { return x < 0.4 ? -1.0 : 1.0; }))
                                           : Eigen::VectorXd((u * 3.0).array().floor());
        for (const FeatureMatrix* X : {&loaded, &view}) {
            std::vector<Eigen::VectorXd> thetas;
            for (int k = 0; k < models; ++k)
                thetas.push_back(randomVector(X->cols(), 40 + static_cast<std::uint64_t>(k)));
            const Eigen::MatrixXd S = linearScores(*X, thetas);
            const double accuracy = accuracyOfLinearModels(*X, thetas, labels);
            QVERIFY(accuracy == accuracyOf(S, labels)); // bit for bit (QCOMPARE is fuzzy on doubles)
            QVERIFY(accuracy > 0.0 && accuracy < 1.0);
            for (LossKind kind : {LossKind::Logistic, LossKind::SmoothHinge})
                QVERIFY(meanLossOfLinearModels(Loss(kind), *X, thetas, labels) == meanLossOf(Loss(kind), S, labels));
        }
    }

    void sparseCopyHoldsThePlainCopysValues() {
        // A dense view (intercept, clipped rows) of a matrix with 70 % zeros: its CSR copy holds
        // the plain copy's values bit for bit, zeros left out, each row's columns ascending,
        // without materialising the view; too dense for the limit, or sparse already: none.
        const Index n = 300, p = 12;
        DenseMatrix base = DenseMatrix::Zero(n, p);
        Rng rng(23);
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < p; ++j)
                if (uniform01(rng) < 0.3)
                    base(i, j) = 4.0 * uniform01(rng) - 2.0;
        FeatureMatrix plain{DenseMatrix(base)};
        const FeatureMatrix loaded(std::move(base));
        FeatureMatrix view = loaded;
        for (FeatureMatrix* m : {&view, &plain})
            prepareLikeTheEngine(*m, true, true);
        QVERIFY(view.isView() && !view.isSparse());
        const long copiesBefore = FeatureMatrix::viewsMaterialised();
        const std::optional<FeatureMatrix> copy = view.sparseCopy(0.5);
        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore);
        QVERIFY(copy.has_value());
        QVERIFY(copy->isSparse() && !copy->isView());
        const SparseMatrix& S = copy->sparse();
        QVERIFY(S.isCompressed());
        QVERIFY(DenseMatrix(S) == plain.dense());
        QCOMPARE(static_cast<Index>(S.nonZeros()), static_cast<Index>((plain.dense().array() != 0.0).count()));
        for (Index i = 0; i < n; ++i)
            for (int k = S.outerIndexPtr()[i] + 1; k < S.outerIndexPtr()[i + 1]; ++k)
                QVERIFY(S.innerIndexPtr()[k - 1] < S.innerIndexPtr()[k]);
        QVERIFY(!view.sparseCopy(0.2).has_value()); // ≈ 35 % non-zeros with the intercept
        QVERIFY(!copy->sparseCopy(1.0).has_value());
    }

    void mostlyZeroDenseRowsAreFittedFromACsrCopy_data() {
        QTest::addColumn<double>("density");
        QTest::addColumn<bool>("copied");
        QTest::newRow("15 % non-zero: a CSR copy") << 0.15 << true;
        QTest::newRow("50 % non-zero: dense") << 0.5 << false;
    }

    void mostlyZeroDenseRowsAreFittedFromACsrCopy() {
        // 4,096 × 300 dense rows (over the 2^20 entries below which dense sets stay dense): the
        // fits through OneVsRest, from the copy or not, give the fits on the dense rows.
        QFETCH(double, density);
        QFETCH(bool, copied);
        const Index n = 4096, p = 300;
        DenseMatrix X = DenseMatrix::Zero(n, p);
        Eigen::VectorXd y(n);
        Rng rng(29);
        for (Index i = 0; i < n; ++i) {
            for (Index j = 0; j < p; ++j)
                if (uniform01(rng) < density)
                    X(i, j) = uniform01(rng);
            y[i] = X(i, 0) + X(i, 1) > 0.3 * density ? 1.0 : -1.0;
        }
        FeatureMatrix features{std::move(X)};
        prepareLikeTheEngine(features, true, true);
        const MechanismSpec spec{MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
        const OneVsRest problem(SweepData{features, y}, spec, UtilityMetric::TrainLoss);
        QCOMPARE(problem.fitsSparseCopy(), copied);
        const auto noise = problem.drawNoise(3, 0);
        const auto fits = problem.fit(1.0, noise, nullptr);
        const PrivateFit direct = fitPrivate(features, y, problem.modelSpec(), problem.modelEps(1.0), noise[0]);
        const Eigen::VectorXd& a = fits[0].minimiser;
        const double diff =
            (a - direct.minimiser).lpNorm<Eigen::Infinity>() / direct.minimiser.lpNorm<Eigen::Infinity>();
        QVERIFY2(diff <= 1e-8, qPrintable(QString("minimiser: %1").arg(diff)));
        QCOMPARE(fits[0].solver.status, NewtonCgStatus::Converged);
    }

    // The GUI's case: a view prepares its data from the loaded dataset it keeps (a copy shares
    // the buffers). The prepared training matrix is a view of the loaded one, and private fits on
    // it give the numbers of the CLI's case (the loaded dataset handed over, prepared in place),
    // bit for bit, without copying it.
    void preparedDataOfAKeptDatasetIsAViewWithTheSameFits_data() {
        QTest::addColumn<QString>("generator");
        QTest::newRow("sparse") << "sparse";
        QTest::newRow("blobs (dense, 3 classes)") << "blobs";
    }

    void preparedDataOfAKeptDatasetIsAViewWithTheSameFits() {
        QFETCH(QString, generator);
        const bool sparse = generator == "sparse";
        GeneratorOptions g;
        g.rows = 400;
        g.features = 60;
        g.active = 6;
        const Dataset loaded = generateDataset(generator.toStdString(), g);
        QCOMPARE(loaded.features.isSparse(), sparse);
        DataPreparation steps;
        steps.preprocess.intercept = true; // and the default norm step: clip rows
        const PreparedData kept = prepareExperimentData(loaded, std::nullopt, steps, 5);
        Dataset handedOver = loaded;
        handedOver.features = sparse ? FeatureMatrix(SparseMatrix(loaded.features.sparse())) // not shared
                                     : FeatureMatrix(DenseMatrix(loaded.features.dense()));
        const PreparedData own = prepareExperimentData(std::move(handedOver), std::nullopt, steps, 5);
        QVERIFY(kept.train.features.isView());
        QVERIFY(kept.train.features.sharesBuffersWith(loaded.features));
        QVERIFY(!own.train.features.isView());
        QCOMPARE(kept.train.log.size(), own.train.log.size());
        for (std::size_t k = 0; k < kept.train.log.size(); ++k)
            QCOMPARE(kept.train.log[k].detail, own.train.log[k].detail);

        const long copiesBefore = FeatureMatrix::viewsMaterialised();
        const MechanismSpec spec{MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
        const OneVsRest onKept(sweepDataOf(kept.train), spec, UtilityMetric::TrainLoss);
        const OneVsRest onOwn(sweepDataOf(own.train), spec, UtilityMetric::TrainLoss);
        const auto noise = onKept.drawNoise(9, 0);
        for (double eps : {0.3, 3.0}) {
            const auto a = onKept.fit(eps, noise, nullptr), b = onOwn.fit(eps, noise, nullptr);
            QCOMPARE(a.size(), sparse ? std::size_t{1} : std::size_t{3}); // one model per class beyond two
            for (std::size_t k = 0; k < a.size(); ++k) {
                ELAB_SAME(a[k].theta, b[k].theta);
                QCOMPARE(a[k].solver.iterations, b[k].solver.iterations);
            }
            QVERIFY(onKept.utility(a) == onOwn.utility(b));
        }
        const auto refKept = onKept.fitNonPrivate(), refOwn = onOwn.fitNonPrivate();
        for (std::size_t k = 0; k < refKept.size(); ++k)
            ELAB_SAME(refKept[k].theta, refOwn[k].theta);
        QCOMPARE(FeatureMatrix::viewsMaterialised(), copiesBefore);
    }
};

QTEST_APPLESS_MAIN(TestRowViews)
#include "test_row_views.moc"
