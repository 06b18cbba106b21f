// XᵀDX of binary rows by shared prefixes (core/model/prefix_gram.h) against sparseWeightedGram
// and against the dense product: rows of different lengths, repeated rows, empty rows, unsorted
// and uncompressed storage; and its update count against the pairs it replaces. (The objective's
// anchored preconditioner formed with it: test_merged_rows.cpp, aFactorisedHessianGivesTheNewtonStep.)

#include "core/model/prefix_gram.h"
#include "core/model/sparse_rows.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

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
            cols = previous; // a repeated row
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

} // namespace

class TestPrefixGram : public QObject {
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
        const PrefixGram plan(X);
        QCOMPARE(plan.cols(), X.cols());
        Eigen::MatrixXd H, expected;
        plan.compute(a, w, 0.01, H);
        sparseWeightedGram(X, &a, w, 0.01, expected);
        QVERIFY2(maxRelative(H, expected) <= 1e-14, qPrintable(QString("vs sparseWeightedGram: %1").arg(maxRelative(H, expected))));
        const Eigen::MatrixXd D = SparseMatrix(X).toDense();
        const Eigen::MatrixXd dense = 0.01 * D.transpose() * w.asDiagonal() * D;
        QVERIFY2(maxRelative(H, dense) <= 1e-14, qPrintable(QString("vs the dense product: %1").arg(maxRelative(H, dense))));
        QCOMPARE(H, H.transpose().eval());
        // Frequent columns first: shared prefixes make it cheaper than the pairs it replaces.
        QVERIFY2(plan.updates() < sparseRowPairs(X),
                 qPrintable(QString("%1 updates, %2 pairs").arg(plan.updates()).arg(sparseRowPairs(X))));
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
        PrefixGram(X).compute(a, w, 1.0, H);
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(4, 4);
        expected(0, 0) = 3.0;
        expected(1, 1) = expected(3, 3) = expected(1, 3) = expected(3, 1) = 3.0 * 0.25;
        QVERIFY2((H - expected).cwiseAbs().maxCoeff() < 1e-15, "unsorted row");
    }
};

QTEST_APPLESS_MAIN(TestPrefixGram)
#include "test_prefix_gram.moc"
