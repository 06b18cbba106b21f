// Merged training rows (core/model/merged_rows.h, docs/MATH.md §2.1): which rows merge; the
// objective on merged rows against the objective on every row (value, gradient, Hessian-vector
// products; sparse and dense X, two margin losses); fits on merged rows against fits on every
// row for each linear mechanism (same minimiser, same guarantee: the mechanism sees n, not the
// distinct rows); one-vs-rest with merged rows against per-model fits on every row; and the
// Newton step taken from a preconditioner that is the Hessian (including at θ = 0, where it
// was once the Hessian divided by n, and with XᵀDX formed by the prefix tree).

#include "core/learners/linear_erm/one_vs_rest.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/model/linear_objective.h"
#include "core/model/merged_rows.h"
#include "core/model/prefix_tree.h"
#include "core/model/sparse_rows.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace elab::core;

namespace {

// `distinct` random rows (p columns, rows of norm ≤ 1), each repeated 1–4 times, shuffled; labels
// ±1 drawn per copy (so equal rows often carry both labels), or class indices 0..classes−1.
struct Repeated {
    FeatureMatrix X;
    Eigen::VectorXd y;
    Index distinct = 0;
};

Repeated repeatedRows(Index distinct, Index p, bool sparse, bool binary, int classes, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<std::vector<std::pair<Index, double>>> base(static_cast<std::size_t>(distinct));
    for (auto& row : base) {
        for (Index j = 0; j < p; ++j)
            if (uniform01(rng) < 0.3)
                row.emplace_back(j, binary ? 1.0 : 2.0 * uniform01(rng) - 1.0);
        if (row.empty())
            row.emplace_back(static_cast<Index>(uniform01(rng) * static_cast<double>(p)) % p,
                             binary ? 1.0 : 0.5 + uniform01(rng));
        double norm = 0.0;
        for (const auto& e : row)
            norm += e.second * e.second;
        for (auto& e : row)
            e.second /= std::sqrt(norm); // binary rows stay one value per row (1/√nnz)
    }
    std::vector<std::size_t> rows;
    for (std::size_t u = 0; u < base.size(); ++u)
        for (int c = 1 + static_cast<int>(uniform01(rng) * 4.0); c > 0; --c)
            rows.push_back(u);
    for (std::size_t i = rows.size(); i > 1; --i) // Fisher–Yates
        std::swap(rows[i - 1], rows[static_cast<std::size_t>(uniform01(rng) * static_cast<double>(i))]);
    const auto n = static_cast<Index>(rows.size());
    Repeated out;
    out.distinct = distinct;
    out.y.resize(n);
    std::vector<Eigen::Triplet<double>> t;
    DenseMatrix D = DenseMatrix::Zero(n, p);
    for (Index i = 0; i < n; ++i) {
        for (const auto& [j, v] : base[rows[static_cast<std::size_t>(i)]]) {
            t.emplace_back(i, j, v);
            D(i, j) = v;
        }
        out.y[i] = classes >= 2 ? std::floor(uniform01(rng) * classes) : (uniform01(rng) < 0.4 ? 1.0 : -1.0);
    }
    if (sparse) {
        SparseMatrix S(n, p);
        S.setFromTriplets(t.begin(), t.end());
        out.X = FeatureMatrix(std::move(S));
    } else {
        out.X = FeatureMatrix(std::move(D));
    }
    return out;
}

Eigen::VectorXd randomVector(Index n, std::uint64_t seed, double scale) {
    Rng rng(seed);
    Eigen::VectorXd v(n);
    for (Index i = 0; i < n; ++i)
        v[i] = scale * (2.0 * uniform01(rng) - 1.0);
    return v;
}

double relativeDiff(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return (a - b).lpNorm<Eigen::Infinity>() / std::max(1e-300, b.lpNorm<Eigen::Infinity>());
}

} // namespace

class TestMergedRows : public QObject {
    Q_OBJECT

private slots:
    void equalRowsMergeAndOnlyThose() {
        // Rows 0, 2 and 4 are equal; row 1 has the same columns but another value; row 3 the
        // same value in another column; row 5 equals row 1.
        SparseMatrix S(6, 3);
        S.insert(0, 0) = 0.5;
        S.insert(0, 2) = 0.5;
        S.insert(1, 0) = 0.5;
        S.insert(1, 2) = 0.25;
        S.insert(2, 0) = 0.5;
        S.insert(2, 2) = 0.5;
        S.insert(3, 1) = 0.5;
        S.insert(3, 2) = 0.5;
        S.insert(4, 0) = 0.5;
        S.insert(4, 2) = 0.5;
        S.insert(5, 0) = 0.5;
        S.insert(5, 2) = 0.25;
        S.makeCompressed();
        const FeatureMatrix X(S);
        const auto merged = mergeEqualRows(X, 0.1);
        QVERIFY(merged.has_value());
        QCOMPARE(merged->X.rows(), Index{3});
        QCOMPARE(merged->originalRows, Index{6});
        QCOMPARE(merged->rowOf, (std::vector<Index>{0, 1, 0, 2, 0, 1}));
        QCOMPARE(merged->count, Eigen::Vector3d(3.0, 2.0, 1.0).eval());
        QCOMPARE(merged->X.value(0, 2), 0.5);
        QCOMPARE(merged->X.value(1, 2), 0.25);
        QCOMPARE(merged->X.value(2, 1), 0.5);
        const Eigen::VectorXd y = (Eigen::VectorXd(6) << 1, -1, -1, 1, 1, 1).finished();
        QCOMPARE(merged->countWhere(y, 1.0), Eigen::Vector3d(2.0, 1.0, 1.0).eval());
        // Three of six rows merge: a threshold above one half refuses.
        QVERIFY(!mergeEqualRows(X, 0.6).has_value());

        // Reordered: row u of the new X is row order[u] of the old; counts and the map follow.
        MergedRows reordered = *merged;
        reordered.reorder({2, 0, 1});
        QCOMPARE(reordered.rowOf, (std::vector<Index>{1, 2, 1, 0, 1, 2}));
        QCOMPARE(reordered.count, Eigen::Vector3d(1.0, 3.0, 2.0).eval());
        QCOMPARE(reordered.X.value(0, 1), 0.5);
        QCOMPARE(reordered.X.value(1, 2), 0.5);
        QCOMPARE(reordered.X.value(2, 2), 0.25);
        QCOMPARE(reordered.countWhere(y, 1.0), Eigen::Vector3d(1.0, 2.0, 1.0).eval());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reordered.reorder({0, 0, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reordered.reorder({0, 1}));

        // Dense: the same rows.
        const FeatureMatrix D(DenseMatrix(S.toDense()));
        const auto mergedDense = mergeEqualRows(D, 0.1);
        QVERIFY(mergedDense.has_value());
        QCOMPARE(mergedDense->rowOf, merged->rowOf);
        QCOMPARE(mergedDense->X.dense(), DenseMatrix(merged->X.sparse().toDense()));
    }

    void distinctRowsAreNotMerged() {
        const Repeated r = repeatedRows(40, 6, true, false, 0, 3);
        const auto merged = mergeEqualRows(r.X, 0.0);
        QVERIFY(merged.has_value());
        // Against a brute-force count: rows i and j are equal iff every entry is.
        const DenseMatrix D = r.X.sparse().toDense();
        Index expected = 0;
        for (Index i = 0; i < D.rows(); ++i) {
            bool seen = false;
            for (Index j = 0; j < i && !seen; ++j)
                seen = (D.row(j).array() == D.row(i).array()).all();
            expected += !seen;
            for (Index j = 0; j < i; ++j)
                if ((D.row(j).array() == D.row(i).array()).all()) {
                    QCOMPARE(merged->rowOf[static_cast<std::size_t>(i)], merged->rowOf[static_cast<std::size_t>(j)]);
                    break;
                }
        }
        QVERIFY(expected <= r.distinct && expected < D.rows());
        QCOMPARE(merged->X.rows(), expected);
        for (Index i = 0; i < D.rows(); ++i)
            QVERIFY(
                (DenseMatrix(merged->X.sparse().toDense()).row(merged->rowOf[static_cast<std::size_t>(i)]).array() ==
                 D.row(i).array())
                    .all());
        QCOMPARE(merged->count.sum(), static_cast<double>(r.X.rows()));
        // The distinct rows of the distinct rows: nothing merges any more.
        QVERIFY(!mergeEqualRows(merged->X, 1e-9).has_value());
        QVERIFY(!mergeEqualRows(FeatureMatrix(DenseMatrix(DenseMatrix::Identity(5, 5))), 1e-9).has_value());
    }

    void mergedObjectiveIsTheSameFunction_data() {
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<bool>("binary");
        QTest::addColumn<int>("loss");
        QTest::newRow("sparse binary logistic") << true << true << int(LossKind::Logistic);
        QTest::newRow("sparse logistic") << true << false << int(LossKind::Logistic);
        QTest::newRow("sparse huber") << true << false << int(LossKind::HuberSvm);
        QTest::newRow("dense logistic") << false << false << int(LossKind::Logistic);
        QTest::newRow("dense huber") << false << false << int(LossKind::HuberSvm);
    }

    void mergedObjectiveIsTheSameFunction() {
        QFETCH(bool, sparse);
        QFETCH(bool, binary);
        QFETCH(int, loss);
        const Loss L = loss == int(LossKind::HuberSvm) ? Loss(LossKind::HuberSvm, 0.1) : Loss(LossKind::Logistic);
        const Repeated r = repeatedRows(150, 8, sparse, binary, 0, 11);
        const auto merged = mergeEqualRows(r.X, 0.1);
        QVERIFY(merged.has_value());
        QVERIFY(merged->X.rows() < r.X.rows());
        const Eigen::VectorXd plus = merged->countWhere(r.y, 1.0);
        const Eigen::VectorXd c = randomVector(8, 5, 0.01);
        LinearObjective all(r.X, r.y, L, 0.02, c);
        LinearObjective few(merged->X, plus, merged->count, L, 0.02, c);
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            // Margins up to ±40: e^{-|m|} spans every regime of the logistic pass.
            const Eigen::VectorXd theta = randomVector(8, seed, seed == 3u ? 40.0 : 2.0);
            const double a = all.evaluate(theta), b = few.evaluate(theta);
            QVERIFY2(std::abs(a - b) <= 1e-13 * std::max(1.0, std::abs(a)),
                     qPrintable(QString("J: %1 vs %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
            QVERIFY(std::abs(all.dataLoss() - few.dataLoss()) <= 1e-13 * std::max(1.0, all.dataLoss()));
            Eigen::VectorXd ga(8), gb(8);
            all.gradient(ga);
            few.gradient(gb);
            QVERIFY2(relativeDiff(gb, ga) <= 1e-12, qPrintable(QString("gradient: %1").arg(relativeDiff(gb, ga))));
            const Eigen::VectorXd v = randomVector(8, seed + 10, 1.0);
            Eigen::VectorXd ha(8), hb(8);
            all.hessianVector(v, ha);
            few.hessianVector(v, hb);
            QVERIFY2(relativeDiff(hb, ha) <= 1e-12, qPrintable(QString("Hv: %1").arg(relativeDiff(hb, ha))));
        }
        Eigen::VectorXd third;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, few.thirdDerivativeTerm(Eigen::VectorXd::Ones(8), third));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 LinearObjective(merged->X, plus, merged->count, Loss(LossKind::Squared), 0.02));
    }

    void fitsOnMergedRowsAreTheFitsOnEveryRow_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("objpert-gauss") << int(MechanismKind::ObjPertGauss);
        QTest::newRow("objpert-pure") << int(MechanismKind::ObjPertPure);
        QTest::newRow("outpert-gauss") << int(MechanismKind::OutPertGauss);
        QTest::newRow("nonprivate") << int(MechanismKind::NonPrivate);
    }

    void fitsOnMergedRowsAreTheFitsOnEveryRow() {
        QFETCH(int, kind);
        const Repeated r = repeatedRows(300, 10, true, true, 0, 21);
        const auto merged = mergeEqualRows(r.X, 0.1);
        QVERIFY(merged.has_value());
        const Eigen::VectorXd plus = merged->countWhere(r.y, 1.0);
        MechanismSpec spec;
        spec.kind = static_cast<MechanismKind>(kind);
        Rng rng(7);
        const NoiseDraw noise = drawNoise(r.X.cols(), rng);
        for (double eps : {0.3, 3.0}) {
            const PrivateFit a = fitPrivate(r.X, r.y, spec, eps, noise);
            const PrivateFit b = fitPrivate(*merged, plus, spec, eps, noise);
            QCOMPARE(a.solver.status, NewtonCgStatus::Converged);
            QCOMPARE(b.solver.status, NewtonCgStatus::Converged);
            // The mechanism saw n rows: with the distinct rows' count instead, μ and c (and the
            // output noise) would move the minimiser by far more than this.
            QVERIFY2(relativeDiff(b.minimiser, a.minimiser) <= 1e-8,
                     qPrintable(QString("minimiser: %1").arg(relativeDiff(b.minimiser, a.minimiser))));
            QVERIFY2(relativeDiff(b.theta, a.theta) <= 1e-8, "released θ");
            QCOMPARE(b.guarantee.epsilon, a.guarantee.epsilon);
            QCOMPARE(b.guarantee.delta, a.guarantee.delta);
            QCOMPARE(b.guarantee.notes, a.guarantee.notes);
            QCOMPARE(std::isnan(b.trainLoss), std::isnan(a.trainLoss));
            if (!std::isnan(a.trainLoss))
                QVERIFY(std::abs(a.trainLoss - b.trainLoss) <= 1e-12);
        }
    }

    void oneVsRestFitsMergedRowsPerModel_data() {
        QTest::addColumn<bool>("binary");
        QTest::newRow("general values") << false;
        QTest::newRow("binary (prefix tree, rows in its walk order)") << true;
    }

    void oneVsRestFitsMergedRowsPerModel() {
        QFETCH(bool, binary);
        const Repeated r = repeatedRows(200, 9, true, binary, 3, 31);
        if (binary) { // OneVsRest builds the tree (and reorders the merged rows) only where it pays
            const PrefixTree tree(mergeEqualRows(r.X)->X.csrRows());
            QVERIFY(tree.gramPays() || tree.passesPay());
        }
        const SweepData data{r.X, r.y, nullptr, std::nullopt, 3};
        MechanismSpec spec;
        const OneVsRest ovr(data, spec, UtilityMetric::TrainLoss);
        const std::vector<NoiseDraw> noise = ovr.drawNoise(5, 0);
        const OneVsRest::Models fits = ovr.fit(1.5, noise, nullptr);
        QCOMPARE(static_cast<int>(fits.size()), 3);
        for (int k = 0; k < 3; ++k) {
            const PrivateFit direct = fitPrivate(r.X, ovr.trainLabels(k), ovr.modelSpec(), ovr.modelEps(1.5),
                                                 noise[static_cast<std::size_t>(k)]);
            QVERIFY2(relativeDiff(fits[static_cast<std::size_t>(k)].minimiser, direct.minimiser) <= 1e-8,
                     qPrintable(QString("model %1").arg(k)));
        }
    }

    void aFactorisedHessianGivesTheNewtonStep_data() {
        QTest::addColumn<bool>("zero");
        QTest::addColumn<bool>("prefixTree");
        QTest::newRow("at θ = 0 (equal curvatures)") << true << false;
        QTest::newRow("at a random θ") << false << false;
        QTest::newRow("at a random θ, XᵀDX by prefix tree") << false << true;
    }

    void aFactorisedHessianGivesTheNewtonStep() {
        QFETCH(bool, zero);
        QFETCH(bool, prefixTree);
        const Repeated r = repeatedRows(120, 7, true, true, 0, 41);
        const Eigen::MatrixXd gram = gramMatrix(r.X);
        const PrefixTree plan(r.X.sparse());
        LinearObjective objective(r.X, r.y, Loss(LossKind::Logistic), 0.01);
        objective.setGram(&gram);
        if (prefixTree)
            objective.setPrefixTree(&plan);
        objective.evaluate(zero ? Eigen::VectorXd::Zero(7).eval() : randomVector(7, 9, 1.0));
        const auto M = objective.preconditioner();
        QVERIFY(M);
        QVERIFY(objective.preconditionerIsHessian());
        const Eigen::VectorXd v = randomVector(7, 4, 1.0);
        Eigen::VectorXd hv, back;
        objective.hessianVector(v, hv);
        M(hv, back);
        QVERIFY2(relativeDiff(back, v) <= 1e-10, qPrintable(QString("M⁻¹Hv vs v: %1").arg(relativeDiff(back, v))));
        // A step later the factor is reused (curvatures within 25 %): no longer the Hessian there.
        objective.evaluate((zero ? Eigen::VectorXd::Zero(7).eval() : randomVector(7, 9, 1.0)) +
                           randomVector(7, 8, 0.01));
        QVERIFY(objective.preconditioner());
        QVERIFY(!objective.preconditionerIsHessian());
    }

    void mergedRowsAtZeroAnchorOnTheGram() {
        // At θ = 0 every row has ℓ'' = 1/4, and merged row u holds c_u/4: the Hessian is
        // G/4 + μI with G = XᵀX/n of the rows as given, formed from G without a pass over the
        // rows (the same factor bit for bit), and it is the merged objective's Hessian.
        const Repeated r = repeatedRows(120, 7, true, true, 0, 41);
        const auto merged = mergeEqualRows(r.X);
        QVERIFY(merged.has_value());
        const Eigen::MatrixXd gram = gramMatrix(r.X);
        const Eigen::VectorXd plus = merged->countWhere(r.y, 1.0);
        const double mu = 0.01;
        LinearObjective objective(merged->X, plus, merged->count, Loss(LossKind::Logistic), mu);
        objective.setGram(&gram);
        const PrefixTree plan(merged->X.csrRows());
        objective.setPrefixTree(&plan);
        objective.evaluate(Eigen::VectorXd::Zero(7));
        const auto M = objective.preconditioner();
        QVERIFY(M);
        QVERIFY(objective.preconditionerIsHessian());
        Eigen::MatrixXd expectedH = 0.25 * gram;
        expectedH.diagonal().array() += mu;
        const auto expected = CholeskyFactor::make(std::move(expectedH));
        QVERIFY(expected);
        const Eigen::VectorXd v = randomVector(7, 4, 1.0);
        Eigen::VectorXd solved, expectedSolved, hv, back;
        M(v, solved);
        expected->solve(v, expectedSolved);
        QVERIFY2(solved == expectedSolved, "the factor of G/4 + μI");
        objective.hessianVector(v, hv);
        M(hv, back);
        QVERIFY2(relativeDiff(back, v) <= 1e-10, qPrintable(QString("M⁻¹Hv vs v: %1").arg(relativeDiff(back, v))));
        // Away from θ = 0 the curvatures differ: XᵀDX is formed from the rows (here by the tree).
        LinearObjective away(merged->X, plus, merged->count, Loss(LossKind::Logistic), mu);
        away.setGram(&gram);
        away.setPrefixTree(&plan);
        away.evaluate(randomVector(7, 9, 1.0));
        QVERIFY(away.preconditioner());
        QVERIFY(away.preconditionerIsHessian());
        away.hessianVector(v, hv);
        away.preconditioner()(hv, back);
        QVERIFY2(relativeDiff(back, v) <= 1e-10,
                 qPrintable(QString("away: M⁻¹Hv vs v: %1").arg(relativeDiff(back, v))));
    }

    void aLongSolveFormsANewAnchor() {
        // docs/MATH.md §0.4: a CG solve that took half of what a new anchor costs (and at least
        // 3 products) makes the next call anchor at θ; a shorter one keeps the factor. 80
        // features of density 0.3: an anchor costs ≈ 7 products, so the threshold is above 3.
        const Repeated r = repeatedRows(100, 80, true, true, 0, 43);
        const Eigen::MatrixXd gram = gramMatrix(r.X);
        LinearObjective objective(r.X, r.y, Loss(LossKind::Logistic), 0.01);
        objective.setGram(&gram);
        const Eigen::VectorXd theta = randomVector(80, 9, 1.0);
        objective.evaluate(theta);
        QVERIFY(objective.preconditioner());
        QVERIFY(objective.preconditionerIsHessian());
        const Eigen::VectorXd moved = theta + randomVector(80, 8, 0.01);
        objective.evaluate(moved);
        QVERIFY(objective.preconditioner());
        QVERIFY(!objective.preconditionerIsHessian());
        const int stale = static_cast<int>(std::ceil(0.5 * objective.anchorCostInProducts()));
        QVERIFY2(stale > 3, qPrintable(QString("threshold %1").arg(stale)));
        objective.cgIterationsTaken(stale - 1);
        QVERIFY(objective.preconditioner());
        QVERIFY(!objective.preconditionerIsHessian());
        objective.cgIterationsTaken(stale);
        QVERIFY(objective.preconditioner());
        QVERIFY(objective.preconditionerIsHessian());
        // The new anchor is the Hessian at the moved θ (reused from the next call on).
        const Eigen::VectorXd v = randomVector(80, 4, 1.0);
        Eigen::VectorXd hv, back;
        objective.hessianVector(v, hv);
        objective.preconditioner()(hv, back);
        QVERIFY(!objective.preconditionerIsHessian());
        QVERIFY2(relativeDiff(back, v) <= 1e-10, qPrintable(QString("M⁻¹Hv vs v: %1").arg(relativeDiff(back, v))));
    }

    void aMovedAnchorIsReplacedOnceTheIterateSettles() {
        // docs/MATH.md §0.4: once the curvatures have moved more than 25 % (L1) from the anchor's,
        // the factor is dropped; a new anchor is formed only at an iterate that moved them less
        // than 10 % since the last call (else the Gram-scaled M steers CG meanwhile).
        const Repeated r = repeatedRows(100, 80, true, true, 0, 43);
        const Eigen::MatrixXd gram = gramMatrix(r.X);
        LinearObjective objective(r.X, r.y, Loss(LossKind::Logistic), 0.01);
        objective.setGram(&gram);
        objective.evaluate(Eigen::VectorXd::Zero(80));
        QVERIFY(objective.preconditioner());
        QVERIFY(objective.preconditionerIsHessian()); // the first call anchors
        const Eigen::VectorXd far = randomVector(80, 9, 3.0);
        objective.evaluate(far);
        QVERIFY(objective.preconditioner());
        QVERIFY2(!objective.preconditionerIsHessian(), "moved far from the anchor, and far since the last call");
        objective.evaluate(far + randomVector(80, 8, 1e-6));
        const auto M = objective.preconditioner();
        QVERIFY(M);
        QVERIFY2(objective.preconditionerIsHessian(), "settled: anchors here");
        const Eigen::VectorXd v = randomVector(80, 4, 1.0);
        Eigen::VectorXd hv, back;
        objective.hessianVector(v, hv);
        M(hv, back);
        QVERIFY2(relativeDiff(back, v) <= 1e-10, qPrintable(QString("M⁻¹Hv vs v: %1").arg(relativeDiff(back, v))));
    }

    void anAnchorCostsItsUpdatesInProducts() {
        // docs/MATH.md §0.4: (pairs + p³/24) / (2·nnz + p²/4) without a tree.
        const Repeated r = repeatedRows(120, 7, true, true, 0, 41);
        LinearObjective objective(r.X, r.y, Loss(LossKind::Logistic), 0.01);
        const CsrRows rows = r.X.csrRows();
        const double p = 7.0;
        const double expected = (static_cast<double>(sparseRowPairs(rows)) + p * p * p / 24.0) /
                                (2.0 * static_cast<double>(rows.nonZeros()) + p * p / 4.0);
        QCOMPARE(objective.anchorCostInProducts(), expected);
    }

    void manyFeaturesOnFewRowsTakeJacobi() {
        // docs/MATH.md §0.4: 400 features on ≈ 100 rows, where factorising 400 × 400 costs far
        // more than 24 products: no anchor, no Gram-scaled M, but M = diag((1/n) Σ ℓ''_i x_ij² + μ).
        const Repeated r = repeatedRows(40, 400, true, true, 0, 47);
        const Eigen::MatrixXd gram = gramMatrix(r.X);
        QCOMPARE(gram.rows(), Eigen::Index(400));
        LinearObjective objective(r.X, r.y, Loss(LossKind::Logistic), 0.01);
        objective.setGram(&gram);
        QVERIFY2(objective.anchorCostInProducts() > 24.0,
                 qPrintable(QString::number(objective.anchorCostInProducts())));
        const Eigen::VectorXd theta = randomVector(400, 9, 1.0);
        objective.evaluate(theta);
        const auto M = objective.preconditioner();
        QVERIFY(M);
        QVERIFY(!objective.preconditionerIsHessian());
        const Loss loss(LossKind::Logistic);
        const Eigen::MatrixXd dense = Eigen::MatrixXd(r.X.sparse());
        const auto n = static_cast<double>(dense.rows());
        Eigen::VectorXd diagonal = Eigen::VectorXd::Constant(400, 0.01);
        for (Eigen::Index i = 0; i < dense.rows(); ++i) {
            const double d2 = loss.d2(dense.row(i).dot(theta), r.y[i]);
            diagonal += (d2 / n) * dense.row(i).transpose().cwiseAbs2();
        }
        const Eigen::VectorXd v = randomVector(400, 4, 1.0);
        Eigen::VectorXd out;
        M(v, out);
        QVERIFY2(relativeDiff(out, v.cwiseQuotient(diagonal)) <= 1e-12,
                 qPrintable(QString("M⁻¹v vs v ./ diag: %1").arg(relativeDiff(out, v.cwiseQuotient(diagonal)))));
    }
};

QTEST_APPLESS_MAIN(TestMergedRows)
#include "test_merged_rows.moc"
