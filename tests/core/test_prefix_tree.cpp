// Binary rows as a prefix tree (core/model/prefix_tree.h): XᵀDX against sparseWeightedGram and
// the dense product, the passes (x_iᵀv then Σ w_i x_i, and the Hessian-vector product) against
// the row kernels, and an objective and its fit with the tree against the same without it — rows
// of different lengths, repeated rows, empty rows, unsorted and uncompressed storage, a view with
// an implicit intercept; and the tree's costs against the work it replaces. (The objective's
// anchored preconditioner formed with it: test_merged_rows.cpp, aFactorisedHessianGivesTheNewtonStep.)

#include "core/model/linear_objective.h"
#include "core/model/prefix_tree.h"
#include "core/model/sparse_rows.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <numeric>
#include <vector>

using namespace elab::core;

namespace {

// n binary rows over p columns, column j on with probability falling in j (one-hot-like: a few
// frequent columns shared by most rows), every stored value of row i equal to 1/√nnz_i; some
// rows empty, some repeated.
SparseMatrix binaryRows(Index n, Index p, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<Eigen::Triplet<double>> t;
    std::vector<Index> previous;
    for (Index i = 0; i < n; ++i) {
        std::vector<Index> cols;
        if (i > 0 && uniform01(rng) < 0.2) {
            cols = previous;                 // a repeated row
        } else if (uniform01(rng) >= 0.05) { // else an empty row
            for (Index j = 0; j < p; ++j)
                if (uniform01(rng) < 0.9 / (1.0 + 0.3 * static_cast<double>(j)))
                    cols.push_back(j);
        }
        for (Index j : cols)
            t.emplace_back(i, j, 1.0 / std::sqrt(static_cast<double>(cols.size())));
        previous = cols;
    }
    SparseMatrix X(n, p);
    X.setFromTriplets(t.begin(), t.end());
    return X;
}

Eigen::VectorXd positive(Index n, std::uint64_t seed) {
    Rng rng(seed);
    Eigen::VectorXd v(n);
    for (Index i = 0; i < n; ++i)
        v[i] = 0.25 * uniform01(rng) * (i % 7 == 0 ? 0.0 : 1.0); // some zero weights
    return v;
}

double maxRelative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

Eigen::VectorXd signs(Index n, std::uint64_t seed) {
    Rng rng(seed);
    Eigen::VectorXd y(n);
    for (Index i = 0; i < n; ++i)
        y[i] = uniform01(rng) < 0.4 ? 1.0 : -1.0;
    return y;
}

// The tree's passes against the row kernels on X : every row visited
// once with the same x_iᵀv (up to rounding), and the same Σ w_i x_i and Hessian-vector product.
void verifyPasses(const CsrRows& X, const Eigen::VectorXd& a) {
    const PrefixTree tree(X);
    QCOMPARE(tree.rows(), X.n);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(X.cols, -1.0, 2.0);
    const Eigen::VectorXd w = positive(X.n, 11);
    std::vector<double> work;
    Eigen::VectorXd s(X.n), expectedS(X.n), out, expected;
    std::vector<int> visits(static_cast<std::size_t>(X.n), 0);
    tree.rowDotsThenTransposed(
        a, v,
        [&](Index i, double si) {
            ++visits[static_cast<std::size_t>(i)];
            s[i] = si;
            return w[i] * si - 0.1; // some weights negative: the running sums cancel
        },
        out, work);
    sparseRowDotsThenTransposed(
        X, &a, v,
        [&](Index i, double si) {
            expectedS[i] = si;
            return w[i] * si - 0.1;
        },
        expected);
    QVERIFY2(std::all_of(visits.begin(), visits.end(), [](int k) { return k == 1; }), "each row once");
    QVERIFY2(maxRelative(s, expectedS) <= 1e-14, qPrintable(QString("x_iᵀv: %1").arg(maxRelative(s, expectedS))));
    QVERIFY2(maxRelative(out, expected) <= 1e-13, qPrintable(QString("Σ w_i x_i: %1").arg(maxRelative(out, expected))));
    out = v; // added to
    expected = v;
    tree.weightedGramProduct(a, w, 0.01, v, out, work);
    sparseWeightedGramProduct(X, &a, w, 0.01, v, expected);
    QVERIFY2(maxRelative(out, expected) <= 1e-13, qPrintable(QString("product: %1").arg(maxRelative(out, expected))));
}

} // namespace

class TestPrefixTree : public QObject {
    Q_OBJECT

private slots:
    void equalsTheRowByRowGram_data() {
        QTest::addColumn<bool>("uncompressed");
        QTest::newRow("compressed") << false;
        QTest::newRow("uncompressed (free slots after rows)") << true;
    }

    void equalsTheRowByRowGram() {
        QFETCH(bool, uncompressed);
        SparseMatrix X = binaryRows(400, 12, 3);
        if (uncompressed) {
            X.uncompress();
            X.reserve(Eigen::VectorXi::Constant(X.rows(), 2)); // room in every row
        }
        const Eigen::VectorXd a = constantRowValues(X);
        QVERIFY(a.size() == X.rows());
        const Eigen::VectorXd w = positive(X.rows(), 5);
        const PrefixTree plan(X);
        QCOMPARE(plan.cols(), X.cols());
        Eigen::MatrixXd H, expected;
        plan.compute(a, w, 0.01, H);
        sparseWeightedGram(X, &a, w, 0.01, expected);
        QVERIFY2(maxRelative(H, expected) <= 1e-14,
                 qPrintable(QString("vs sparseWeightedGram: %1").arg(maxRelative(H, expected))));
        const Eigen::MatrixXd D = SparseMatrix(X).toDense();
        const Eigen::MatrixXd dense = 0.01 * D.transpose() * w.asDiagonal() * D;
        QVERIFY2(maxRelative(H, dense) <= 1e-14,
                 qPrintable(QString("vs the dense product: %1").arg(maxRelative(H, dense))));
        QCOMPARE(H, H.transpose().eval());
        // Frequent columns first: shared prefixes make it cheaper than the pairs it replaces.
        QVERIFY2(plan.updates() < sparseRowPairs(X),
                 qPrintable(QString("%1 updates, %2 pairs").arg(plan.updates()).arg(sparseRowPairs(X))));
        QVERIFY(plan.gramPays());
        // Fewer nodes than non-zeros: what a pass over the tree saves against one over the rows.
        QVERIFY2(static_cast<Index>(plan.nodes()) < X.nonZeros(),
                 qPrintable(QString("%1 nodes, %2 non-zeros").arg(plan.nodes()).arg(X.nonZeros())));
    }

    void passesEqualTheRowKernels_data() {
        QTest::addColumn<bool>("uncompressed");
        QTest::newRow("compressed") << false;
        QTest::newRow("uncompressed (free slots after rows)") << true;
    }

    void passesEqualTheRowKernels() {
        // (A view with row factors and an implicit intercept: test_row_views.cpp.)
        QFETCH(bool, uncompressed);
        SparseMatrix X = binaryRows(500, 15, 13);
        if (uncompressed) {
            X.uncompress();
            X.reserve(Eigen::VectorXi::Constant(X.rows(), 2));
        }
        const Eigen::VectorXd a = constantRowValues(X);
        QVERIFY(a.size() == X.rows());
        verifyPasses(X, a);
    }

    void anObjectiveWithTheTreeIsTheSameFunction_data() {
        QTest::addColumn<int>("loss");
        QTest::newRow("logistic") << static_cast<int>(LossKind::Logistic);
        QTest::newRow("huber svm") << static_cast<int>(LossKind::HuberSvm);
    }

    void anObjectiveWithTheTreeIsTheSameFunction() {
        QFETCH(int, loss);
        const SparseMatrix X = binaryRows(600, 12, 17);
        const FeatureMatrix F(X);
        const PrefixTree tree(X);
        QVERIFY2(tree.passesPay(), qPrintable(QString("%1 nodes").arg(tree.nodes())));
        const Eigen::VectorXd y = signs(X.rows(), 19);
        const Eigen::MatrixXd gram = gramMatrix(F);
        const Loss l(static_cast<LossKind>(loss));
        LinearObjective withTree(F, y, l, 0.02), rows(F, y, l, 0.02);
        withTree.setPrefixTree(&tree);
        withTree.setGram(&gram);
        rows.setGram(&gram);
        const Eigen::VectorXd theta = Eigen::VectorXd::LinSpaced(12, -3.0, 2.5); // margins well past ±1
        const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(12, 1.0, -0.5);
        ELAB_RELATIVE(withTree.evaluate(theta), rows.evaluate(theta), 1e-14);
        Eigen::VectorXd g1, g2;
        withTree.gradient(g1);
        rows.gradient(g2);
        QVERIFY2(maxRelative(g1, g2) <= 1e-13, qPrintable(QString("gradient: %1").arg(maxRelative(g1, g2))));
        withTree.hessianVector(v, g1);
        rows.hessianVector(v, g2);
        QVERIFY2(maxRelative(g1, g2) <= 1e-13, qPrintable(QString("Hv: %1").arg(maxRelative(g1, g2))));
        QVERIFY2(maxRelative(withTree.predictions(), rows.predictions()) <= 1e-14, "predictions");
    }

    void rowsRenumberedInWalkOrderGiveTheSamePasses() {
        // The rows (repeated and empty ones among them) put in the walk's order, the tree
        // renumbered: the same passes bit for bit, with the weights read in sequence; and the
        // tree built anew on the renumbered rows is the renumbered tree (identity order).
        const FeatureMatrix X(binaryRows(300, 12, 17));
        const CsrRows rows = X.csrRows();
        const Eigen::VectorXd a = constantRowValues(rows);
        const PrefixTree tree(rows);
        const std::vector<int> order = tree.walkOrder();
        std::vector<int> identity(order.size());
        std::iota(identity.begin(), identity.end(), 0);
        QVERIFY2(order != identity, "the rows are not in walk order to begin with");
        const FeatureMatrix Y = X.selectRows(std::vector<Index>(order.begin(), order.end()));
        const CsrRows renumberedRows = Y.csrRows();
        const auto permuted = [&order](const Eigen::VectorXd& v) {
            Eigen::VectorXd out(v.size());
            for (std::size_t j = 0; j < order.size(); ++j)
                out[static_cast<Index>(j)] = v[order[j]];
            return out;
        };
        PrefixTree renumbered = tree;
        renumbered.renumberRowsInWalkOrder();
        QVERIFY(renumbered.walkOrder() == identity);
        QVERIFY(PrefixTree(renumberedRows).walkOrder() == identity);
        const Eigen::VectorXd w = positive(X.rows(), 5), b = permuted(a), wb = permuted(w);
        const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(X.cols(), -1.0, 2.0);
        std::vector<double> work;
        Eigen::VectorXd out, expected, s(X.rows()), sRenumbered(X.rows());
        tree.rowDotsThenTransposed(
            a, v, [&](Index i, double si) { return s[i] = si, w[i] * si - 0.1; }, expected, work);
        renumbered.rowDotsThenTransposed(
            b, v, [&](Index j, double si) { return sRenumbered[j] = si, wb[j] * si - 0.1; }, out, work);
        QVERIFY2(out == expected, "Σ w_i x_i");
        QVERIFY2(sRenumbered == permuted(s), "x_iᵀv");
        out = v;
        expected = v;
        tree.weightedGramProduct(a, w, 0.01, v, expected, work);
        renumbered.weightedGramProduct(b, wb, 0.01, v, out, work);
        QVERIFY2(out == expected, "Hessian-vector product");
        Eigen::MatrixXd H, expectedH;
        tree.compute(a, w, 0.5, expectedH);
        renumbered.compute(b, wb, 0.5, H);
        QVERIFY2(H == expectedH, "XᵀDX");
    }

    void unsortedRowsGiveTheSameGram() {
        // Row 0 stored as columns 3, 1 (unsorted), row 1 as 1, 3, row 2 as 0 alone.
        SparseMatrix X(3, 4);
        X.reserve(Eigen::VectorXi::Constant(3, 2));
        X.insert(0, 3) = 0.5;
        X.insert(0, 1) = 0.5;
        X.insert(1, 1) = 0.5;
        X.insert(1, 3) = 0.5;
        X.insert(2, 0) = 1.0;
        X.makeCompressed();
        std::swap(X.innerIndexPtr()[0], X.innerIndexPtr()[1]);
        const Eigen::VectorXd a = constantRowValues(X);
        const Eigen::VectorXd w = Eigen::Vector3d(1.0, 2.0, 3.0);
        Eigen::MatrixXd H;
        PrefixTree(X).compute(a, w, 1.0, H);
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(4, 4);
        expected(0, 0) = 3.0;
        expected(1, 1) = expected(3, 3) = expected(1, 3) = expected(3, 1) = 3.0 * 0.25;
        QVERIFY2((H - expected).cwiseAbs().maxCoeff() < 1e-15, "unsorted row");
    }
};

QTEST_APPLESS_MAIN(TestPrefixTree)
#include "test_prefix_tree.moc"
