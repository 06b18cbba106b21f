// What preprocessing does to targets and rows: label mapping (binarise a class target) and
// the seeded train/test split (per-row coins, stable under one-row changes).

#include "core/data/preprocess.h"
#include "core/util/random.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

using namespace elab::core;

namespace {

// n rows of zero features with the given classes.
Dataset labelled(const Eigen::VectorXi& ci, std::vector<std::string> names) {
    Dataset d;
    d.features = FeatureMatrix(DenseMatrix(DenseMatrix::Zero(ci.size(), 2)));
    d.targets = Targets::classification(ci, std::move(names));
    return d;
}

// Classification data with class sizes `sizes`, rows in a seeded mixed order; feature 0 is
// the original row index, so a split can be traced back.
Dataset traceable(const QList<int>& sizes, bool regression = false) {
    std::vector<int> classes;
    for (int c = 0; c < int(sizes.size()); ++c)
        classes.insert(classes.end(), std::size_t(sizes[c]), c);
    Rng rng(99);
    shuffleInPlace(classes, rng);
    const auto n = Index(classes.size());
    DenseMatrix x(n, 2);
    Eigen::VectorXi ci(n);
    std::vector<std::string> names;
    for (int c = 0; c < int(sizes.size()); ++c)
        names.push_back({'c', char('0' + c)});
    for (Index i = 0; i < n; ++i) {
        x(i, 0) = double(i);
        x(i, 1) = 0.5;
        ci[i] = classes[std::size_t(i)];
    }
    Dataset d;
    d.features = FeatureMatrix(x);
    d.featureNames = {"index", "half"};
    d.targets = Targets::classification(ci, names);
    if (regression)
        d.targets = Targets::regression(x.col(0) * 2.0);
    return d;
}

std::vector<Index> originalRows(const Dataset& d) {
    std::vector<Index> rows;
    for (Index i = 0; i < d.rows(); ++i)
        rows.push_back(Index(d.features.value(i, 0)));
    return rows;
}

} // namespace

class TestPreprocessTargets : public QObject {
    Q_OBJECT
private slots:
    void binarise_data();
    void binarise();
    void binariseErrors();
    void splitByCoins_data();
    void splitByCoins();
    void splitIsStableUnderOneRowChanges();
    void splitIgnoresRowOrder();
    void splitErrors_data();
    void splitErrors();
};

void TestPreprocessTargets::binarise_data() {
    QTest::addColumn<QString>("positive");
    QTest::addColumn<QList<int>>("expected"); // class index per training row after mapping
    QTest::newRow("middle class of three") << "b" << QList<int>{0, 1, 0, 0, 1};
    QTest::newRow("first class of three") << "a" << QList<int>{1, 0, 0, 1, 0};
    QTest::newRow("absent from test") << "c" << QList<int>{0, 0, 1, 0, 0};
}

void TestPreprocessTargets::binarise() {
    QFETCH(QString, positive);
    QFETCH(QList<int>, expected);
    Eigen::VectorXi ci(5), cit(3);
    ci << 0, 1, 2, 0, 1;
    cit << 1, 0, 1;
    Dataset train = labelled(ci, {"a", "b", "c"});
    Dataset test = labelled(cit, {"a", "b", "c"});
    PreprocessOptions o;
    o.positiveClass = positive.toStdString();
    preprocess(train, &test, o);
    const std::string p = positive.toStdString();
    for (const Dataset* d : {&train, &test}) {
        QCOMPARE(d->targets.kind, TaskKind::Binary);
        QCOMPARE(d->targets.classNames, (std::vector<std::string>{"not " + p, p}));
        QCOMPARE(d->validate(), std::string());
    }
    for (Index i = 0; i < 5; ++i) {
        QCOMPARE(train.targets.classIndex[i], expected[int(i)]);
        QCOMPARE(train.targets.values[i], expected[int(i)] ? 1.0 : -1.0);
    }
    for (Index i = 0; i < 3; ++i)
        QCOMPARE(test.targets.classIndex[i], int(cit[i] == int(p[0] - 'a')));
    QCOMPARE(train.log[0].name, std::string("binarise labels"));
    const auto positives = std::count(expected.begin(), expected.end(), 1);
    QVERIFY2(train.log[0].detail.find("train " + std::to_string(positives) + " positive") != std::string::npos,
             train.log[0].detail.c_str());
}

void TestPreprocessTargets::binariseErrors() {
    Eigen::VectorXi ci(3);
    ci << 0, 1, 2;
    Dataset d = labelled(ci, {"a", "b", "c"});
    PreprocessOptions o;
    o.positiveClass = "z";
    try {
        preprocess(d, nullptr, o);
        QFAIL("unknown class accepted");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("'z' (classes: a, b, c)") != std::string::npos, e.what());
    }
    d.targets = Targets::regression(Eigen::Vector3d(1, 2, 3));
    o.positiveClass = "a";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, preprocess(d, nullptr, o));
}

void TestPreprocessTargets::splitByCoins_data() {
    QTest::addColumn<QList<int>>("sizes");
    QTest::addColumn<bool>("regression");
    QTest::addColumn<double>("fraction");
    QTest::newRow("balanced 3×50, 0.2") << QList<int>{50, 50, 50} << false << 0.2;
    QTest::newRow("imbalanced 900/100, 0.3") << QList<int>{900, 100} << false << 0.3;
    QTest::newRow("ten classes, 0.25") << QList<int>{70, 70, 70, 70, 70, 70, 70, 70, 70, 90} << false << 0.25;
    QTest::newRow("regression 400, 0.1") << QList<int>{400} << true << 0.1;
    QTest::newRow("regression 2000, 0.5") << QList<int>{2000} << true << 0.5;
}

void TestPreprocessTargets::splitByCoins() {
    QFETCH(QList<int>, sizes);
    QFETCH(bool, regression);
    QFETCH(double, fraction);
    const Dataset data = traceable(sizes, regression);
    const TrainTestSplit s = splitTrainTest(data, fraction, 42);
    // Each row is in test with probability f, independently: the test count is Binomial(n, f).
    const double n = double(data.rows()), sd = std::sqrt(n * fraction * (1.0 - fraction));
    QVERIFY2(std::abs(double(s.test.rows()) - n * fraction) <= 4.0 * sd,
             qPrintable(QStringLiteral("%1 test rows of %2").arg(s.test.rows()).arg(n)));
    // Union is the original set, no duplicates, each side sorted by original index, rows carry
    // their own targets.
    const std::vector<Index> tr = originalRows(s.train), te = originalRows(s.test);
    QVERIFY(std::is_sorted(tr.begin(), tr.end()) && std::is_sorted(te.begin(), te.end()));
    std::set<Index> all(tr.begin(), tr.end());
    all.insert(te.begin(), te.end());
    QCOMPARE(all.size(), std::size_t(data.rows()));
    QCOMPARE(tr.size() + te.size(), std::size_t(data.rows()));
    for (std::size_t k = 0; k < te.size(); ++k) {
        if (regression)
            QCOMPARE(s.test.targets.values[Index(k)], data.targets.values[te[k]]);
        else
            QCOMPARE(s.test.targets.classIndex[Index(k)], data.targets.classIndex[te[k]]);
    }
    for (const Dataset* d : {&s.train, &s.test}) {
        QCOMPARE(d->log.back().name, std::string("split"));
        QVERIFY(!d->log.back().leaksPrivacy);
        QVERIFY2(d->log.back().detail.find("own coin") != std::string::npos, d->log.back().detail.c_str());
    }
    QCOMPARE(originalRows(splitTrainTest(data, fraction, 42).test), te);
    QVERIFY(originalRows(splitTrainTest(data, fraction, 43).test) != te);
}

namespace {

// The original ids (feature 0) of the training rows of d's split.
std::set<Index> trainIds(const Dataset& d, std::uint64_t seed) {
    const std::vector<Index> ids = originalRows(splitTrainTest(d, 0.3, seed).train);
    return {ids.begin(), ids.end()};
}

std::vector<Index> symmetricDifference(const std::set<Index>& a, const std::set<Index>& b) {
    std::vector<Index> out;
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

// d with row `at` of new content (id `id`, class `cls`) inserted before row `at`.
Dataset withRowInserted(const Dataset& d, Index at, Index id, int cls) {
    const DenseMatrix& x = d.features.dense();
    DenseMatrix y(x.rows() + 1, x.cols());
    y.topRows(at) = x.topRows(at);
    y.row(at) << double(id), 0.25;
    y.bottomRows(x.rows() - at) = x.bottomRows(x.rows() - at);
    Eigen::VectorXi ci(x.rows() + 1);
    ci.head(at) = d.targets.classIndex.get().head(at);
    ci[at] = cls;
    ci.tail(x.rows() - at) = d.targets.classIndex.get().tail(x.rows() - at);
    Dataset out;
    out.features = FeatureMatrix(y);
    out.targets = Targets::classification(ci, d.targets.classNames);
    return out;
}

} // namespace

// docs/MATH.md §7: changing, adding or removing one row of the file changes the training set
// in that row only, so a mechanism's guarantee on the training rows holds for the file. (The
// per-class shuffle this replaces moved 240 of 1,000 rows when row 0's label flipped.)
void TestPreprocessTargets::splitIsStableUnderOneRowChanges() {
    const Dataset d = traceable({500, 500});
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const std::set<Index> base = trainIds(d, seed);
        // Replace one: row 0's label flipped.
        Dataset flipped = d;
        Eigen::VectorXi ci = d.targets.classIndex.get();
        ci[0] = 1 - ci[0];
        flipped.targets = Targets::classification(ci, d.targets.classNames);
        for (const Index moved : symmetricDifference(base, trainIds(flipped, seed)))
            QCOMPARE(moved, Index(0));
        // Add one, at the end and at the front: only the new row can differ.
        for (const Index at : {d.rows(), Index(0), Index(417)})
            for (const Index moved : symmetricDifference(base, trainIds(withRowInserted(d, at, 5000, 1), seed)))
                QCOMPARE(moved, Index(5000));
        // Remove one (row 3): only it can differ.
        std::vector<Index> keep;
        for (Index i = 0; i < d.rows(); ++i)
            if (i != 3)
                keep.push_back(i);
        for (const Index moved : symmetricDifference(base, trainIds(d.selectRows(keep), seed)))
            QCOMPARE(moved, Index(3));
    }
    // Regression: one target changed.
    const Dataset r = traceable({1000}, true);
    Dataset changed = r;
    Eigen::VectorXd v = r.targets.values.get();
    v[10] += 1.0;
    changed.targets = Targets::regression(v);
    for (const Index moved : symmetricDifference(trainIds(r, 9), trainIds(changed, 9)))
        QCOMPARE(moved, Index(10));
}

// The coin depends on the row's content, not its position or the other rows: a permutation of
// the file gives the same training rows.
void TestPreprocessTargets::splitIgnoresRowOrder() {
    const Dataset d = traceable({300, 200});
    std::vector<Index> reversed;
    for (Index i = d.rows() - 1; i >= 0; --i)
        reversed.push_back(i);
    QVERIFY(trainIds(d, 5) == trainIds(d.selectRows(reversed), 5));
}

void TestPreprocessTargets::splitErrors_data() {
    QTest::addColumn<QList<int>>("sizes");
    QTest::addColumn<bool>("regression");
    QTest::addColumn<double>("fraction");
    QTest::newRow("fraction 0") << QList<int>{10, 10} << false << 0.0;
    QTest::newRow("fraction 1") << QList<int>{10, 10} << false << 1.0;
    QTest::newRow("negative fraction") << QList<int>{10, 10} << false << -0.1;
    QTest::newRow("fraction above 1") << QList<int>{10, 10} << false << 1.5;
    QTest::newRow("NaN fraction") << QList<int>{10, 10} << false << std::nan("");
    QTest::newRow("one regression row") << QList<int>{1} << true << 0.5;
    QTest::newRow("one classification row") << QList<int>{1} << false << 0.5;
}

void TestPreprocessTargets::splitErrors() {
    QFETCH(QList<int>, sizes);
    QFETCH(bool, regression);
    QFETCH(double, fraction);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, splitTrainTest(traceable(sizes, regression), fraction, 1));
}

QTEST_APPLESS_MAIN(TestPreprocessTargets)
#include "test_preprocess_targets.moc"
