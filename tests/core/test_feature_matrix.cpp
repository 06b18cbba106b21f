// FeatureMatrix (dense and sparse helpers) and the Dataset/Targets helpers of core/data.

#include "core/data/dataset.h"
#include "core/data/feature_matrix.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace elab::core;

namespace {

// 4 × 3 reference matrix with an all-zero row and implicit zeros in the sparse form.
DenseMatrix referenceDense() {
    DenseMatrix m(4, 3);
    // clang-format off
    m << 3, 4, 0,
         0, 0, 0,
         1, 2, 2,
         0, -6, 8;
    // clang-format on
    return m;
}

SparseMatrix toSparse(const DenseMatrix& d) {
    SparseMatrix s = d.sparseView();
    s.makeCompressed();
    return s;
}

FeatureMatrix make(bool sparse) {
    return sparse ? FeatureMatrix(toSparse(referenceDense())) : FeatureMatrix(referenceDense());
}

} // namespace

class TestFeatureMatrix : public QObject {
    Q_OBJECT
private slots:
    void rowNormsDoNotOverflow() {
        // √Σx² of (1e300, 2e300) overflows; the norm must still be √5·1e300, dense and sparse.
        DenseMatrix x(2, 2);
        x << 1e300, 2e300, 3.0, 4.0;
        for (const FeatureMatrix& m : {FeatureMatrix(x), FeatureMatrix(SparseMatrix(x.sparseView()))}) {
            const Eigen::VectorXd norms = m.rowNorms();
            QVERIFY2(std::abs(norms[0] / (std::sqrt(5.0) * 1e300) - 1.0) < 1e-15,
                     qPrintable(QString("norm %1").arg(norms[0])));
            QCOMPARE(norms[1], 5.0);
        }
    }

    void value_data();
    void value();
    void valueUncompressedSparse();
    void copiesShareUntilChanged_data();
    void copiesShareUntilChanged();
    void shapeAndStorage_data();
    void shapeAndStorage();
    void rowNorms_data();
    void rowNorms();
    void scaleRows_data();
    void scaleRows();
    void clippedRowsRecomputeTheirFactors();
    void appendConstantColumn_data();
    void appendConstantColumn();
    void appendConstantColumnNoRows_data();
    void appendConstantColumnNoRows();
    void selectRows_data();
    void selectRows();
    void targetsClassification();
    void targetsSelectRows();
    void datasetValidate_data();
    void datasetValidate();
    void datasetSelectRows();
};

void TestFeatureMatrix::value_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<int>("i");
    QTest::addColumn<int>("j");
    QTest::addColumn<double>("expected");
    for (const bool sparse : {false, true}) {
        const char* kind = sparse ? "sparse" : "dense";
        QTest::addRow("%s first entry", kind) << sparse << 0 << 0 << 3.0;
        QTest::addRow("%s last of row 0", kind) << sparse << 0 << 1 << 4.0;
        QTest::addRow("%s implicit zero after row end", kind) << sparse << 0 << 2 << 0.0;
        QTest::addRow("%s empty row", kind) << sparse << 1 << 1 << 0.0;
        QTest::addRow("%s implicit zero before row start", kind) << sparse << 3 << 0 << 0.0;
        QTest::addRow("%s negative value", kind) << sparse << 3 << 1 << -6.0;
        QTest::addRow("%s last entry", kind) << sparse << 3 << 2 << 8.0;
    }
}

void TestFeatureMatrix::value() {
    QFETCH(bool, sparse);
    QFETCH(int, i);
    QFETCH(int, j);
    QFETCH(double, expected);
    const FeatureMatrix m = make(sparse);
    QCOMPARE(m.isSparse(), sparse);
    QCOMPARE(m.value(i, j), expected);
}

// Copies of an Eigen sparse matrix are compressed, but sparse() hands out the matrix
// itself, and insert() through it leaves it uncompressed, with free slots after each row's
// live entries; value() must read only the live ones. The stale slot is made deterministic
// here: row 0 holds (0,1) and (0,3), then its live count drops to 1, so (0,3) is stale.
void TestFeatureMatrix::valueUncompressedSparse() {
    SparseMatrix s(3, 4);
    s.insert(0, 1) = 5.0;
    s.insert(0, 3) = 9.0;
    s.insert(1, 3) = 7.0;
    s.insert(2, 0) = -1.0;
    s.insert(2, 2) = 2.0;
    s.makeCompressed();
    FeatureMatrix m{std::move(s)};
    m.mutableSparse().uncompress();
    m.mutableSparse().innerNonZeroPtr()[0] = 1;
    QVERIFY(!m.sparse().isCompressed());
    const DenseMatrix d = DenseMatrix(m.sparse());
    QCOMPARE(d(0, 3), 0.0);
    QCOMPARE(d(1, 3), 7.0);
    for (Index i = 0; i < 3; ++i)
        for (Index j = 0; j < 4; ++j)
            QCOMPARE(m.value(i, j), d(i, j));
    // The intercept column goes after the live entries only.
    m.appendConstantColumn(2.5);
    QVERIFY(m.sparse().isCompressed());
    QCOMPARE(m.sparse().nonZeros(), Index{7});
    for (Index i = 0; i < 3; ++i) {
        for (Index j = 0; j < 4; ++j)
            QCOMPARE(m.value(i, j), d(i, j));
        QCOMPARE(m.value(i, 4), 2.5);
    }
}

// Copies share the buffers until one of them is changed (copy on write): the original keeps
// its values. Dense: the change copies. Sparse: scaling the rows or appending the intercept
// column of shared buffers makes a view of them (no copy) that reads as the changed matrix,
// and becomes a plain matrix, once, when something asks for sparse().
void TestFeatureMatrix::copiesShareUntilChanged_data() { rowNorms_data(); }

void TestFeatureMatrix::copiesShareUntilChanged() {
    QFETCH(bool, sparse);
    const FeatureMatrix original = make(sparse);
    const DenseMatrix expected = referenceDense();
    const Eigen::Vector4d factor(2.0, 3.0, 0.5, -1.0);
    const auto asDense = [](const FeatureMatrix& m) { // entry by entry: never copies a view
        if (!m.isSparse() && !m.isView())
            return m.dense();
        DenseMatrix d = DenseMatrix::Zero(m.rows(), m.cols());
        for (Index i = 0; i < m.rows(); ++i)
            for (Index j = 0; j < m.cols(); ++j)
                d(i, j) = m.value(i, j);
        return d;
    };

    FeatureMatrix scaled = original;
    QVERIFY(scaled.sharesBuffersWith(original));
    scaled.scaleRows(factor);
    QVERIFY(scaled.sharesBuffersWith(original)); // a view, dense or sparse: the factors kept beside
    QVERIFY(scaled.isView());
    QCOMPARE(asDense(original), expected);
    QCOMPARE(asDense(scaled), DenseMatrix(factor.asDiagonal() * expected));

    FeatureMatrix widened = original;
    widened.appendConstantColumn(1.0);
    QVERIFY(widened.sharesBuffersWith(original));
    QCOMPARE(widened.cols(), Index{4});
    QCOMPARE(asDense(original), expected);
    QCOMPARE(asDense(widened).leftCols(3), expected);
    QVERIFY((asDense(widened).col(3).array() == 1.0).all());
    // The intercept, then the norm step's factors: still a view; its plain copy is the matrix
    // the plain operations make, bit for bit.
    widened.scaleRows(factor);
    QVERIFY(widened.isView());
    FeatureMatrix plain = make(sparse);
    plain.appendConstantColumn(1.0);
    plain.scaleRows(factor);
    QVERIFY(!plain.isView());
    QCOMPARE(asDense(widened), asDense(plain));
    QCOMPARE(widened.rowNorms(), plain.rowNorms());
    QCOMPARE(widened.storedEntries(), plain.storedEntries());
    {
        // The plain copy, made once per view (sparse() or dense(), whichever the view is).
        const auto copyOf = [](const FeatureMatrix& m) { return m.isSparse() ? DenseMatrix(m.sparse()) : m.dense(); };
        const long before = FeatureMatrix::viewsMaterialised();
        QCOMPARE(copyOf(widened), copyOf(plain));
        if (sparse)
            QCOMPARE(widened.sparse().nonZeros(), plain.sparse().nonZeros());
        QCOMPARE(FeatureMatrix::viewsMaterialised(), before + 1);
        (void)copyOf(widened); // once per view
        QCOMPARE(FeatureMatrix::viewsMaterialised(), before + 1);
        // A second scaling cannot be kept as factors of the same view (x·f·g is not x·(f·g)):
        // it makes the plain matrix first.
        FeatureMatrix twice = widened;
        twice.scaleRows(factor);
        QVERIFY(!twice.isView());
        plain.scaleRows(factor);
        QCOMPARE(copyOf(twice), copyOf(plain));
        // Selected rows of a view: a plain matrix of those rows.
        const FeatureMatrix some = widened.selectRows({3, 0});
        QVERIFY(!some.isView());
        QCOMPARE(asDense(some).row(0), asDense(widened).row(3));
        QCOMPARE(asDense(some).row(1), asDense(widened).row(0));
    }

    // Unshared: changed in place.
    FeatureMatrix alone = make(sparse);
    const double* before = sparse ? alone.sparse().valuePtr() : alone.dense().data();
    alone.scaleRows(Eigen::Vector4d::Constant(2.0));
    QVERIFY(!alone.isView());
    QCOMPARE(sparse ? alone.sparse().valuePtr() : alone.dense().data(), before);

    // A dataset copy shares its matrix too; a moved-from matrix reads as empty.
    Dataset a;
    a.features = original;
    const Dataset b = a;
    QVERIFY(b.features.sharesBuffersWith(original));
    FeatureMatrix taken = std::move(alone);
    QCOMPARE(alone.rows(), Index{0}); // NOLINT(bugprone-use-after-move): documented state
    QCOMPARE(taken.rows(), Index{4});
    {
        FeatureMatrix takenView = std::move(widened);
        QVERIFY(takenView.isView());
        QVERIFY(!widened.isView()); // NOLINT(bugprone-use-after-move): documented state
        QCOMPARE(widened.rows(), Index{0});
        QCOMPARE(widened.cols(), Index{0});
    }
}

void TestFeatureMatrix::shapeAndStorage_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<qulonglong>("stored");
    QTest::addColumn<qulonglong>("bytes");
    // dense: 12 doubles; sparse CSR: 7 values + 7 column indices + 5 row offsets (int).
    QTest::newRow("dense") << false << qulonglong(12) << qulonglong(12 * sizeof(double));
    QTest::newRow("sparse") << true << qulonglong(7)
                            << qulonglong(7 * (sizeof(double) + sizeof(int)) + 5 * sizeof(int));
}

void TestFeatureMatrix::shapeAndStorage() {
    QFETCH(bool, sparse);
    QFETCH(qulonglong, stored);
    QFETCH(qulonglong, bytes);
    const FeatureMatrix m = make(sparse);
    QCOMPARE(m.rows(), Index(4));
    QCOMPARE(m.cols(), Index(3));
    QCOMPARE(qulonglong(m.storedEntries()), stored);
    QCOMPARE(qulonglong(m.memoryBytes()), bytes);
}

void TestFeatureMatrix::rowNorms_data() {
    QTest::addColumn<bool>("sparse");
    QTest::newRow("dense") << false;
    QTest::newRow("sparse") << true;
}

void TestFeatureMatrix::rowNorms() {
    QFETCH(bool, sparse);
    const Eigen::VectorXd norms = make(sparse).rowNorms();
    const std::vector<double> expected = {5.0, 0.0, 3.0, 10.0};
    QCOMPARE(norms.size(), Index(4));
    for (Index i = 0; i < 4; ++i)
        ELAB_FUZZY(norms[i], expected[static_cast<std::size_t>(i)], 1e-15);
    // The largest without the n-vector: the same number, also of a scaled view.
    QCOMPARE(make(sparse).maxRowNorm(), norms.maxCoeff());
    const FeatureMatrix shared = make(sparse);
    FeatureMatrix view = shared;
    Eigen::VectorXd factor(4);
    factor << 0.5, 3.0, -1.0, 0.1;
    view.scaleRows(factor);
    QVERIFY(view.isView());
    QCOMPARE(view.maxRowNorm(), view.rowNorms().maxCoeff());
    QCOMPARE(view.maxRowNorm(), 3.0); // row 2: ‖(1, 2, 2)‖·|−1|; row 0 2.5, row 3 1
    QCOMPARE(FeatureMatrix(DenseMatrix(0, 3)).maxRowNorm(), 0.0);
}

void TestFeatureMatrix::scaleRows_data() { rowNorms_data(); }

void TestFeatureMatrix::scaleRows() {
    QFETCH(bool, sparse);
    FeatureMatrix m = make(sparse);
    Eigen::VectorXd factor(4);
    factor << 0.5, 3.0, -1.0, 0.1;
    m.scaleRows(factor);
    const DenseMatrix ref = referenceDense();
    for (Index i = 0; i < 4; ++i)
        for (Index j = 0; j < 3; ++j)
            QCOMPARE(m.value(i, j), ref(i, j) * factor[i]);
    if (sparse)
        QCOMPARE(m.storedEntries(), std::size_t(7));
}

// Clipping a narrow dense matrix that another FeatureMatrix shares keeps no row factors: the
// view recomputes 1/max(1, ‖x_i‖₂) from each row as it reads it (issue 15). Every way of
// reading it gives the plain clipped copy bit for bit, across blocks and for overflowing rows.
void TestFeatureMatrix::clippedRowsRecomputeTheirFactors() {
    const Index n = 9000; // three blocks of rows, the last one partial
    DenseMatrix X(n, 2);
    std::uint64_t state = 7;
    const auto next = [&state] { // a fixed sequence in [−2, 2)
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return 4.0 * static_cast<double>(state >> 11) / 9007199254740992.0 - 2.0;
    };
    for (Index i = 0; i < n; ++i)
        X.row(i) << next(), next();
    X.row(5) << 1e200, -3e200; // Σx² overflows: the rescaled norm
    X.row(6) << 0.0, 0.0;      // on the unit sphere with the intercept: left as it is
    const auto clipFactors = [](const FeatureMatrix& m) {
        Eigen::VectorXd f = m.rowNorms();
        for (Index i = 0; i < f.size(); ++i)
            f[i] = f[i] > 1.0 ? 1.0 / f[i] : 1.0;
        return f;
    };

    const FeatureMatrix loaded(X);
    FeatureMatrix view = loaded; // shares the buffers: intercept and clipping are views
    view.appendConstantColumn(1.0);
    QCOMPARE(view.rowNormsAbove(1.0).count, Index((clipFactors(view).array() < 1.0).count()));
    QCOMPARE(view.rowNormsAbove(1.0).largest, view.maxRowNorm());
    view.clipRows();
    QVERIFY(view.isView() && view.sharesBuffersWith(loaded));
    QCOMPARE(view.memoryBytes(), loaded.memoryBytes()); // no factors kept
    FeatureMatrix plain{DenseMatrix(X)};                // its own buffers: clipped in place
    plain.appendConstantColumn(1.0);
    const Eigen::VectorXd factors = clipFactors(plain);
    plain.clipRows();
    QVERIFY(!plain.isView());
    const DenseMatrix& expected = plain.dense();
    DenseMatrix withIntercept(n, 3);
    withIntercept << X, DenseMatrix::Ones(n, 1);
    QVERIFY(expected == DenseMatrix(factors.asDiagonal() * withIntercept)); // x_ij / max(1, ‖x_i‖₂)
    QVERIFY(expected.row(6) == (Eigen::RowVector3d(0.0, 0.0, 1.0)));
    QVERIFY(std::abs(expected.row(5).norm() - 1.0) < 1e-15);

    const long copies = FeatureMatrix::viewsMaterialised();
    view.denseRows().forEachBlock(
        [&](Index b, const auto& rows) { QVERIFY(rows == expected.middleRows(b, rows.rows())); });
    for (const Index i : {Index(0), Index(5), Index(6), Index(4095), Index(4096), n - 1})
        for (Index j = 0; j < 3; ++j)
            QCOMPARE(view.value(i, j), expected(i, j));
    QVERIFY(view.rowNorms() == plain.rowNorms());
    QVERIFY((view.rowNorms().array() <= 1.0 + 1e-15).all());
    const std::vector<Index> some = {n - 1, 5, 6, 4096, 0};
    QVERIFY(view.selectRows(some).dense() == plain.selectRows(some).dense());
    QCOMPARE(FeatureMatrix::viewsMaterialised(), copies); // none of those copied the view
    QVERIFY(view.dense() == expected);

    // A second scaling of clipped rows makes the plain matrix first (x·f·g is not x·(f·g)).
    FeatureMatrix twice = view;
    twice.scaleRows(Eigen::VectorXd::Constant(n, 0.5));
    QVERIFY(!twice.isView());
    QVERIFY(twice.dense() == DenseMatrix(0.5 * expected));

    // Wider rows keep their factors (n doubles, at most 1/17 of the matrix): a row's factor is
    // then read, not recomputed in O(columns).
    const FeatureMatrix wideLoaded(DenseMatrix::Constant(10, FeatureMatrix::kRecomputedClipColumns + 1, 1.0));
    FeatureMatrix wide = wideLoaded;
    wide.clipRows();
    QVERIFY(wide.isView());
    QCOMPARE(wide.memoryBytes(), wideLoaded.memoryBytes() + 10 * sizeof(double));
    QVERIFY((wide.rowNorms().array() - 1.0).abs().maxCoeff() < 1e-15);
}

void TestFeatureMatrix::appendConstantColumn_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<double>("constant");
    QTest::newRow("dense, 1") << false << 1.0;
    QTest::newRow("sparse, 1") << true << 1.0;
    QTest::newRow("dense, -2.5") << false << -2.5;
    QTest::newRow("sparse, -2.5") << true << -2.5;
}

void TestFeatureMatrix::appendConstantColumn() {
    QFETCH(bool, sparse);
    QFETCH(double, constant);
    FeatureMatrix m = make(sparse);
    m.appendConstantColumn(constant);
    QCOMPARE(m.rows(), Index(4));
    QCOMPARE(m.cols(), Index(4));
    const DenseMatrix ref = referenceDense();
    for (Index i = 0; i < 4; ++i) {
        for (Index j = 0; j < 3; ++j)
            QCOMPARE(m.value(i, j), ref(i, j));
        QCOMPARE(m.value(i, 3), constant);
    }
    QCOMPARE(m.storedEntries(), sparse ? std::size_t(7 + 4) : std::size_t(16));
    if (sparse)
        QVERIFY(m.sparse().isCompressed());
}

void TestFeatureMatrix::appendConstantColumnNoRows_data() { rowNorms_data(); }

// A 0-row matrix (e.g. an empty selection) takes the intercept too; under ASan this also
// checks that no buffer is read past its end.
void TestFeatureMatrix::appendConstantColumnNoRows() {
    QFETCH(bool, sparse);
    FeatureMatrix m = make(sparse).selectRows({});
    m.appendConstantColumn(1.0);
    QCOMPARE(m.rows(), Index(0));
    QCOMPARE(m.cols(), Index(4));
    QCOMPARE(m.storedEntries(), std::size_t(0));
    QCOMPARE(m.rowNorms().size(), Index(0));
}

void TestFeatureMatrix::selectRows_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<std::vector<Index>>("rows");
    for (const bool sparse : {false, true}) {
        const char* kind = sparse ? "sparse" : "dense";
        QTest::addRow("%s reversed", kind) << sparse << std::vector<Index>{3, 2, 1, 0};
        QTest::addRow("%s subset with repeat", kind) << sparse << std::vector<Index>{2, 2, 0};
        QTest::addRow("%s empty row only", kind) << sparse << std::vector<Index>{1};
        QTest::addRow("%s none", kind) << sparse << std::vector<Index>{};
    }
}

void TestFeatureMatrix::selectRows() {
    QFETCH(bool, sparse);
    QFETCH(std::vector<Index>, rows);
    const FeatureMatrix m = make(sparse).selectRows(rows);
    QCOMPARE(m.isSparse(), sparse);
    QCOMPARE(m.rows(), Index(rows.size()));
    QCOMPARE(m.cols(), Index(3));
    const DenseMatrix ref = referenceDense();
    for (std::size_t k = 0; k < rows.size(); ++k)
        for (Index j = 0; j < 3; ++j)
            QCOMPARE(m.value(Index(k), j), ref(rows[k], j));
}

void TestFeatureMatrix::targetsClassification() {
    Eigen::VectorXi binary(4);
    binary << 1, 0, 0, 1;
    const Targets b = Targets::classification(binary, {"no", "yes"});
    QCOMPARE(b.kind, TaskKind::Binary);
    QCOMPARE(b.values[0], 1.0);
    QCOMPARE(b.values[1], -1.0);
    QCOMPARE(b.classCounts(), (std::vector<Index>{2, 2}));

    Eigen::VectorXi multi(5);
    multi << 2, 0, 2, 1, 2;
    const Targets m = Targets::classification(multi, {"a", "b", "c"});
    QCOMPARE(m.kind, TaskKind::Multiclass);
    QCOMPARE(m.size(), Index(5));
    QCOMPARE(m.classIndex[0], 2);
    QCOMPARE(m.classIndex[3], 1);
    QCOMPARE(m.values.size(), Index(0)); // the class indices are the labels: no copy as doubles
    QCOMPARE(m.classCount(), 3);
    QCOMPARE(m.classCounts(), (std::vector<Index>{1, 1, 3}));

    const Targets r = Targets::regression(Eigen::Vector3d(1.5, -2.0, 0.0));
    QCOMPARE(r.kind, TaskKind::Regression);
    QVERIFY(!r.isClassification());
    QCOMPARE(r.size(), Index(3));
    QCOMPARE(r.classIndex.size(), Index(0));
}

void TestFeatureMatrix::targetsSelectRows() {
    Eigen::VectorXi ci(4);
    ci << 0, 1, 2, 1;
    const Targets t = Targets::classification(ci, {"a", "b", "c"}).selectRows({3, 0});
    QCOMPARE(t.size(), Index(2));
    QCOMPARE(t.classIndex[0], 1);
    QCOMPARE(t.classIndex[1], 0);
    QCOMPARE(t.values.size(), Index(0));
    QCOMPARE(t.classNames.size(), std::size_t(3));

    const Targets r = Targets::regression(Eigen::Vector3d(1.5, -2.0, 7.0)).selectRows({2, 2});
    QCOMPARE(r.values[0], 7.0);
    QCOMPARE(r.values[1], 7.0);
    QCOMPARE(r.classIndex.size(), Index(0));
}

void TestFeatureMatrix::datasetValidate_data() {
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("expected"); // substring of the message; empty: valid
    // clang-format off
    QTest::newRow("valid") << "none" << "";
    QTest::newRow("target size") << "targets" << "targets have 3 rows, features 4";
    QTest::newRow("feature names") << "names" << "feature names: 2 for 3 features";
    QTest::newRow("class index out of range") << "class" << "class index out of range at row 2";
    QTest::newRow("non-finite target") << "nan" << "non-finite target at row 4";
    // clang-format on
}

void TestFeatureMatrix::datasetValidate() {
    QFETCH(QString, problem);
    QFETCH(QString, expected);
    Dataset d;
    d.features = make(false);
    d.featureNames = {"a", "b", "c"};
    Eigen::VectorXi ci(4);
    ci << 0, 1, 1, 0;
    d.targets = Targets::classification(ci, {"n", "p"});
    if (problem == "targets")
        d.targets = d.targets.selectRows({0, 1, 2});
    else if (problem == "names")
        d.featureNames.pop_back();
    else if (problem == "class")
        d.targets.classIndex.mutate()[1] = 2;
    else if (problem == "nan")
        d.targets.values.mutate()[3] = std::nan("");
    const QString message = QString::fromStdString(d.validate());
    if (expected.isEmpty())
        QCOMPARE(message, QString());
    else
        QVERIFY2(message.contains(expected), qPrintable("message: " + message));
}

void TestFeatureMatrix::datasetSelectRows() {
    Dataset d;
    d.name = "ref";
    d.features = make(true);
    d.featureNames = {"a", "b", "c"};
    d.targets = Targets::regression(Eigen::Vector4d(10, 11, 12, 13));
    d.columns = {{"a", ColumnKind::Numeric, 2, {}, 0, 1}};
    d.provenance.path = "x.csv";
    d.log.push_back({"load", "4 rows", false});
    const Dataset s = d.selectRows({2, 0});
    QCOMPARE(s.name, std::string("ref"));
    QCOMPARE(s.rows(), Index(2));
    QCOMPARE(s.features.value(0, 2), 2.0);
    QCOMPARE(s.features.value(1, 0), 3.0);
    QCOMPARE(s.targets.values[0], 12.0);
    QCOMPARE(s.featureNames, d.featureNames);
    QCOMPARE(s.columns.size(), std::size_t(1));
    QCOMPARE(s.columns[0].missing, std::size_t(2));
    QCOMPARE(s.provenance.path, std::string("x.csv"));
    QCOMPARE(s.log.size(), std::size_t(1));
    QCOMPARE(s.validate(), std::string());
}

QTEST_APPLESS_MAIN(TestFeatureMatrix)
#include "test_feature_matrix.moc"
