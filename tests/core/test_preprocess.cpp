// Preprocessing of the features (MATH.md §1): standardise, intercept and the norm step.
// Label mapping and the train/test split: test_preprocess_targets.cpp.

#include "core/data/preprocess.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

// rows × cols, entries scale·U(−1, 1) + offset_j (offset_j = 3j·offset), about a third zero.
DenseMatrix randomMatrix(Index rows, Index cols, double scale, double offset, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix m(rows, cols);
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j)
            m(i, j) = uniform01(rng) < 0.33 ? 0.0 : scale * (2 * uniform01(rng) - 1) + 3.0 * double(j) * offset;
    return m;
}

Dataset makeData(const DenseMatrix& x, bool sparse, const Eigen::VectorXi& ci = {},
                 std::vector<std::string> names = {"neg", "pos"}) {
    Dataset d;
    d.name = "t";
    d.features = sparse ? FeatureMatrix(SparseMatrix(x.sparseView())) : FeatureMatrix(x);
    for (Index j = 0; j < x.cols(); ++j)
        d.featureNames.push_back(std::string("f") + std::to_string(j));
    d.targets =
        Targets::classification(ci.size() ? ci : Eigen::VectorXi(Eigen::VectorXi::Zero(x.rows())), std::move(names));
    return d;
}

DenseMatrix toDense(const FeatureMatrix& m) { return m.isSparse() ? DenseMatrix(m.sparse()) : m.dense(); }

} // namespace

class TestPreprocess : public QObject {
    Q_OBJECT
private slots:
    void optionsValidate_data();
    void optionsValidate();
    void clipRows_data();
    void clipRows();
    void scaleByMaxNorm_data();
    void scaleByMaxNorm();
    void normNone();
    void standardiseExact();
    void standardiseProperties_data();
    void standardiseProperties();
    void standardiseSparseScalesOnly();
    void denseSparseAgree_data();
    void denseSparseAgree();
    void interceptClipped();
    void interceptAfterStandardise();
    void featureMismatchThrows();
};

void TestPreprocess::optionsValidate_data() {
    QTest::addColumn<QString>("positive");
    QTest::addColumn<int>("norm");
    QTest::addColumn<QString>("expected"); // substring; empty: valid
    QTest::newRow("defaults") << QString() << int(NormPolicy::ClipRows) << "";
    QTest::newRow("positive class") << "b" << int(NormPolicy::None) << "";
    QTest::newRow("empty positive class") << "" << int(NormPolicy::ClipRows) << "positive class name is empty";
    QTest::newRow("bad norm policy") << QString() << 7 << "unknown norm policy";
}

void TestPreprocess::optionsValidate() {
    QFETCH(QString, positive);
    QFETCH(int, norm);
    QFETCH(QString, expected);
    PreprocessOptions o;
    if (!positive.isNull())
        o.positiveClass = positive.toStdString();
    o.norm = static_cast<NormPolicy>(norm);
    const QString message = QString::fromStdString(o.validate());
    if (expected.isEmpty())
        QCOMPARE(message, QString());
    else
        QVERIFY2(message.contains(expected), qPrintable(message));
    if (!expected.isEmpty()) {
        Dataset d = makeData(DenseMatrix::Ones(3, 2), false);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, preprocess(d, nullptr, o));
    }
}

void TestPreprocess::clipRows_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<double>("scale");
    for (const bool sparse : {false, true}) {
        const char* kind = sparse ? "sparse" : "dense";
        QTest::addRow("%s, all inside", kind) << sparse << 0.2;
        QTest::addRow("%s, mixed", kind) << sparse << 0.8;
        QTest::addRow("%s, all large", kind) << sparse << 40.0;
    }
}

void TestPreprocess::clipRows() {
    QFETCH(bool, sparse);
    QFETCH(double, scale);
    const DenseMatrix x = randomMatrix(60, 3, scale, 0.0, 5), xt = randomMatrix(20, 3, scale, 0.0, 6);
    Dataset train = makeData(x, sparse), test = makeData(xt, sparse);
    preprocess(train, &test, PreprocessOptions{});
    int clipped[2] = {0, 0};
    for (int set = 0; set < 2; ++set) {
        const DenseMatrix& before = set ? xt : x;
        const DenseMatrix after = toDense(set ? test.features : train.features);
        for (Index i = 0; i < before.rows(); ++i) {
            const double norm = before.row(i).norm();
            QVERIFY2(after.row(i).norm() <= 1.0 + 1e-12, qPrintable(QString::number(after.row(i).norm(), 'g', 17)));
            if (norm <= 1.0) {
                QCOMPARE(after.row(i), before.row(i)); // bit-identical
            } else {
                ++clipped[set];
                ELAB_FUZZY(after.row(i).norm(), 1.0, 1e-12);
                for (Index j = 0; j < before.cols(); ++j)
                    ELAB_FUZZY(after(i, j) * norm, before(i, j), 1e-12 * norm);
            }
        }
    }
    if (scale == 0.2)
        QCOMPARE(clipped[0] + clipped[1], 0);
    if (scale == 40.0)
        QVERIFY(clipped[0] >= 55); // all but (almost) all-zero rows
    const ProcessingStep& step = train.log.back();
    QCOMPARE(step.name, std::string("clip rows"));
    QVERIFY(!step.leaksPrivacy);
    const std::string expected = "clipped " + std::to_string(clipped[0]) + " of 60 training rows";
    QVERIFY2(step.detail.find(expected) != std::string::npos, step.detail.c_str());
    // Each set's log speaks of its own rows only (issue 9: the test log repeated the training line).
    QVERIFY2(step.detail.find("test rows") == std::string::npos, step.detail.c_str());
    const ProcessingStep& testStep = test.log.back();
    QCOMPARE(testStep.name, std::string("clip rows"));
    QVERIFY(!testStep.leaksPrivacy);
    const std::string expectedTest = "clipped " + std::to_string(clipped[1]) + " of 20 test rows";
    QVERIFY2(testStep.detail.find(expectedTest) != std::string::npos, testStep.detail.c_str());
    QVERIFY2(testStep.detail.find("training rows") == std::string::npos, testStep.detail.c_str());
}

void TestPreprocess::scaleByMaxNorm_data() {
    QTest::addColumn<bool>("sparse");
    QTest::newRow("dense") << false;
    QTest::newRow("sparse") << true;
}

void TestPreprocess::scaleByMaxNorm() {
    QFETCH(bool, sparse);
    const DenseMatrix x = randomMatrix(50, 4, 3.0, 0.0, 7), xt = randomMatrix(30, 4, 5.0, 0.0, 8);
    Dataset train = makeData(x, sparse), test = makeData(xt, sparse);
    PreprocessOptions o;
    o.norm = NormPolicy::ScaleByMaxNorm;
    preprocess(train, &test, o);
    const double maxNorm = x.rowwise().norm().maxCoeff();
    ELAB_FUZZY(train.features.rowNorms().maxCoeff(), 1.0, 1e-15);
    const DenseMatrix a = toDense(train.features), at = toDense(test.features);
    for (Index i = 0; i < x.rows(); ++i)
        for (Index j = 0; j < 4; ++j)
            ELAB_FUZZY(a(i, j), x(i, j) / maxNorm, 1e-15);
    for (Index i = 0; i < xt.rows(); ++i) // the test set uses the training scale
        for (Index j = 0; j < 4; ++j)
            ELAB_FUZZY(at(i, j), xt(i, j) / maxNorm, 1e-15);
    QCOMPARE(train.log.back().name, std::string("scale by max norm"));
    QVERIFY(train.log.back().leaksPrivacy);
    QVERIFY(test.log.back().leaksPrivacy);
}

void TestPreprocess::normNone() {
    const DenseMatrix x = randomMatrix(10, 3, 4.0, 0.0, 9);
    Dataset train = makeData(x, false);
    PreprocessOptions o;
    o.norm = NormPolicy::None;
    preprocess(train, nullptr, o);
    QCOMPARE(train.features.dense(), x);
    const ProcessingStep& step = train.log.back();
    QCOMPARE(step.name, std::string("no norm bound"));
    QVERIFY(step.leaksPrivacy);
    QVERIFY2(step.detail.find("does not hold") != std::string::npos, step.detail.c_str());
    const auto above = (x.rowwise().norm().array() > 1.0).count();
    QVERIFY2(step.detail.find(std::to_string(above) + " of 10 training rows") != std::string::npos,
             step.detail.c_str());
}

// Column 0 = 1..4 (mean 2.5, population sd √1.25), column 1 = 10 × column 0, column 2
// constant 5 (centred only); test rows use the training statistics.
void TestPreprocess::standardiseExact() {
    DenseMatrix x(4, 3), xt(2, 3);
    x << 1, 10, 5, 2, 20, 5, 3, 30, 5, 4, 40, 5;
    xt << 5, 0, 7, 2.5, 25, 5;
    Dataset train = makeData(x, false), test = makeData(xt, false);
    PreprocessOptions o;
    o.standardise = true;
    o.norm = NormPolicy::None;
    preprocess(train, &test, o);
    const DenseMatrix& a = train.features.dense();
    const double z[4] = {-1.3416407864998738, -0.44721359549995793, 0.44721359549995793, 1.3416407864998738};
    for (Index i = 0; i < 4; ++i) {
        ELAB_FUZZY(a(i, 0), z[i], 1e-15);
        ELAB_FUZZY(a(i, 1), z[i], 1e-15);
        QCOMPARE(a(i, 2), 0.0);
    }
    const DenseMatrix& t = test.features.dense();
    ELAB_FUZZY(t(0, 0), 2.2360679774997898, 1e-15);
    ELAB_FUZZY(t(0, 1), -2.2360679774997898, 1e-15);
    QCOMPARE(t(0, 2), 2.0);
    ELAB_FUZZY(t(1, 0), 0.0, 1e-15);
    ELAB_FUZZY(t(1, 1), 0.0, 1e-15);
    QCOMPARE(t(1, 2), 0.0);
    const ProcessingStep& step = train.log[0];
    QCOMPARE(step.name, std::string("standardise"));
    QVERIFY(step.leaksPrivacy);
    for (const char* part : {"population", "1 constant column", "f2", "means and sds"})
        QVERIFY2(step.detail.find(part) != std::string::npos, step.detail.c_str());
}

void TestPreprocess::standardiseProperties_data() {
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("offset");
    QTest::newRow("unit scale, centred") << 1.0 << 0.0;
    QTest::newRow("small scale, large offsets") << 1e-3 << 100.0;
    QTest::newRow("large scale, offsets") << 1e4 << 1e3;
}

void TestPreprocess::standardiseProperties() {
    QFETCH(double, scale);
    QFETCH(double, offset);
    const DenseMatrix x = randomMatrix(200, 4, scale, offset, 11), xt = randomMatrix(40, 4, scale, offset, 12);
    Dataset train = makeData(x, false), test = makeData(xt, false);
    PreprocessOptions o;
    o.standardise = true;
    o.norm = NormPolicy::None;
    preprocess(train, &test, o);
    const DenseMatrix& a = train.features.dense();
    for (Index j = 0; j < 4; ++j) {
        const double mean = x.col(j).mean();
        const double sd = std::sqrt((x.col(j).array() - mean).square().mean());
        ELAB_FUZZY(a.col(j).mean(), 0.0, 1e-12);
        ELAB_FUZZY(std::sqrt(a.col(j).array().square().mean()), 1.0, 1e-12);
        for (Index i = 0; i < xt.rows(); ++i)
            ELAB_FUZZY(test.features.dense()(i, j), (xt(i, j) - mean) / sd, 1e-9);
    }
}

// Sparse: x_j ← x_j / sd_j with the population sd of the whole column (zeros included),
// never centred, so the sparsity pattern is kept; equals the dense result + mean_j / sd_j.
void TestPreprocess::standardiseSparseScalesOnly() {
    DenseMatrix x = randomMatrix(30, 3, 2.0, 1.0, 13);
    x.col(2).setZero(); // constant column: left as is
    const DenseMatrix xt = randomMatrix(10, 3, 2.0, 1.0, 14);
    Dataset sp = makeData(x, true), spt = makeData(xt, true), de = makeData(x, false);
    const auto nnz = sp.features.storedEntries();
    PreprocessOptions o;
    o.standardise = true;
    o.norm = NormPolicy::None;
    preprocess(sp, &spt, o);
    preprocess(de, nullptr, o);
    QCOMPARE(sp.features.storedEntries(), nnz);
    for (Index j = 0; j < 2; ++j) {
        const double mean = x.col(j).mean();
        const double sd = std::sqrt((x.col(j).array() - mean).square().mean());
        for (Index i = 0; i < x.rows(); ++i) {
            ELAB_FUZZY(sp.features.value(i, j), x(i, j) / sd, 1e-14);
            ELAB_FUZZY(sp.features.value(i, j), de.features.dense()(i, j) + mean / sd, 1e-13);
        }
        for (Index i = 0; i < xt.rows(); ++i)
            ELAB_FUZZY(spt.features.value(i, j), xt(i, j) / sd, 1e-14);
    }
    for (Index i = 0; i < xt.rows(); ++i)
        QCOMPARE(spt.features.value(i, 2), xt(i, 2));
    QVERIFY2(sp.log[0].detail.find("not centred") != std::string::npos, sp.log[0].detail.c_str());
    QVERIFY(sp.log[0].leaksPrivacy);
}

void TestPreprocess::denseSparseAgree_data() {
    QTest::addColumn<int>("norm");
    QTest::addColumn<bool>("intercept");
    QTest::newRow("clip") << int(NormPolicy::ClipRows) << false;
    QTest::newRow("intercept + clip") << int(NormPolicy::ClipRows) << true;
    QTest::newRow("scale by max norm") << int(NormPolicy::ScaleByMaxNorm) << false;
    QTest::newRow("intercept + none") << int(NormPolicy::None) << true;
}

void TestPreprocess::denseSparseAgree() {
    QFETCH(int, norm);
    QFETCH(bool, intercept);
    const DenseMatrix x = randomMatrix(40, 5, 1.5, 0.0, 15), xt = randomMatrix(15, 5, 1.5, 0.0, 16);
    Dataset d = makeData(x, false), dt = makeData(xt, false), s = makeData(x, true), st = makeData(xt, true);
    PreprocessOptions o;
    o.norm = static_cast<NormPolicy>(norm);
    o.intercept = intercept;
    preprocess(d, &dt, o);
    preprocess(s, &st, o);
    QVERIFY(s.features.isSparse());
    const DenseMatrix sd = toDense(s.features), sdt = toDense(st.features);
    QCOMPARE(sd.cols(), d.features.cols());
    QCOMPARE(s.featureNames, d.featureNames);
    for (Index i = 0; i < x.rows(); ++i)
        for (Index j = 0; j < sd.cols(); ++j)
            ELAB_FUZZY(sd(i, j), d.features.dense()(i, j), 1e-15);
    for (Index i = 0; i < xt.rows(); ++i)
        for (Index j = 0; j < sd.cols(); ++j)
            ELAB_FUZZY(sdt(i, j), dt.features.dense()(i, j), 1e-15);
    QCOMPARE(s.log.back().detail, d.log.back().detail);
}

// The intercept is appended before the norm step: it is clipped with the row, so its value
// is 1 / max(1, √(‖x‖² + 1)).
void TestPreprocess::interceptClipped() {
    DenseMatrix x(3, 2), xt(1, 2);
    x << 0, 0, 3, 4, 0.5, 0;
    xt << 0, 2;
    Dataset train = makeData(x, false), test = makeData(xt, false);
    PreprocessOptions o;
    o.intercept = true;
    preprocess(train, &test, o);
    QCOMPARE(train.featureCount(), Index(3));
    QCOMPARE(train.featureNames.back(), std::string("intercept"));
    QCOMPARE(train.validate(), std::string());
    const DenseMatrix& a = train.features.dense();
    QCOMPARE(a(0, 2), 1.0); // zero row: ‖[0, 0, 1]‖ = 1, not clipped
    ELAB_FUZZY(a(1, 2), 1.0 / std::sqrt(26.0), 1e-16);
    ELAB_FUZZY(a(1, 0), 3.0 / std::sqrt(26.0), 1e-16);
    ELAB_FUZZY(a(2, 2), 1.0 / std::sqrt(1.25), 1e-16);
    ELAB_FUZZY(test.features.dense()(0, 2), 1.0 / std::sqrt(5.0), 1e-16);
    QCOMPARE(test.featureNames.back(), std::string("intercept"));
    QCOMPARE(train.log.size(), std::size_t(2));
    QCOMPARE(train.log[0].name, std::string("intercept"));
    QVERIFY(!train.log[0].leaksPrivacy);
    QVERIFY2(train.log[1].detail.find("clipped 2 of 3 training rows") != std::string::npos,
             train.log[1].detail.c_str());
}

void TestPreprocess::interceptAfterStandardise() {
    Dataset train = makeData(randomMatrix(20, 2, 3.0, 1.0, 17), false);
    PreprocessOptions o;
    o.standardise = true;
    o.intercept = true;
    o.norm = NormPolicy::None;
    preprocess(train, nullptr, o);
    QVERIFY((train.features.dense().col(2).array() == 1.0).all());
    QCOMPARE(train.log.size(), std::size_t(3));
    QCOMPARE(train.log[0].name, std::string("standardise"));
    QCOMPARE(train.log[1].name, std::string("intercept"));
    QCOMPARE(train.log[2].name, std::string("no norm bound"));
}

void TestPreprocess::featureMismatchThrows() {
    Dataset train = makeData(DenseMatrix::Ones(3, 2), false), test = makeData(DenseMatrix::Ones(3, 3), false);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, preprocess(train, &test, PreprocessOptions{}));
}

QTEST_APPLESS_MAIN(TestPreprocess)
#include "test_preprocess.moc"
