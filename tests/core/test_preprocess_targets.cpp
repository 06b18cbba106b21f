// What preprocessing does to targets and rows: label mapping (binarise a class target) and
// the seeded train/test split (stratified by class; a plain shuffle for regression).

#include "core/data/preprocess.h"
#include "core/util/random.h"

#include <QtTest>

#include <cmath>
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
    void splitStratified_data();
    void splitStratified();
    void splitRegression_data();
    void splitRegression();
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
    QVERIFY2(train.log[0].detail.find("train " + std::to_string(positives) + " positive") !=
                 std::string::npos,
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
        QVERIFY2(std::string(e.what()).find("'z' (classes: a, b, c)") != std::string::npos,
                 e.what());
    }
    d.targets = Targets::regression(Eigen::Vector3d(1, 2, 3));
    o.positiveClass = "a";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, preprocess(d, nullptr, o));
}

void TestPreprocessTargets::splitStratified_data() {
    QTest::addColumn<QList<int>>("sizes");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QList<int>>("expectedTest"); // per class: round(f·n), kept in [1, n−1]
    QTest::newRow("balanced 3×50, 0.2") << QList<int>{50, 50, 50} << 0.2 << QList<int>{10, 10, 10};
    QTest::newRow("imbalanced 90/10, 0.3") << QList<int>{90, 10} << 0.3 << QList<int>{27, 3};
    QTest::newRow("tiny classes, 0.5") << QList<int>{2, 3, 1, 5} << 0.5 << QList<int>{1, 2, 0, 3};
    QTest::newRow("small fraction keeps 1 in test") << QList<int>{40, 4} << 0.1 << QList<int>{4, 1};
    QTest::newRow("large fraction keeps 1 in train")
        << QList<int>{20, 3} << 0.9 << QList<int>{18, 2};
    QTest::newRow("ten classes, 0.25") << QList<int>{7, 7, 7, 7, 7, 7, 7, 7, 7, 9} << 0.25
                                       << QList<int>{2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
}

void TestPreprocessTargets::splitStratified() {
    QFETCH(QList<int>, sizes);
    QFETCH(double, fraction);
    QFETCH(QList<int>, expectedTest);
    const Dataset data = traceable(sizes);
    const TrainTestSplit s = splitTrainTest(data, fraction, 42);
    for (int c = 0; c < int(sizes.size()); ++c) {
        const auto inTest = s.test.targets.classCounts()[std::size_t(c)];
        QCOMPARE(int(inTest), expectedTest[c]);
        QVERIFY(std::abs(double(inTest) - fraction * sizes[c]) <= 1.0);
        QCOMPARE(int(s.train.targets.classCounts()[std::size_t(c)] + inTest), sizes[c]);
    }
    // Union is the original set, no duplicates, each side sorted by original index, rows
    // carry their own targets.
    const std::vector<Index> tr = originalRows(s.train), te = originalRows(s.test);
    QVERIFY(std::is_sorted(tr.begin(), tr.end()) && std::is_sorted(te.begin(), te.end()));
    std::set<Index> all(tr.begin(), tr.end());
    all.insert(te.begin(), te.end());
    QCOMPARE(all.size(), std::size_t(data.rows()));
    QCOMPARE(tr.size() + te.size(), std::size_t(data.rows()));
    for (std::size_t k = 0; k < te.size(); ++k)
        QCOMPARE(s.test.targets.classIndex[Index(k)], data.targets.classIndex[te[k]]);
    for (const Dataset* d : {&s.train, &s.test}) {
        QCOMPARE(d->log.back().name, std::string("split"));
        QVERIFY2(d->log.back().detail.find("stratified") != std::string::npos,
                 d->log.back().detail.c_str());
    }
    QCOMPARE(originalRows(splitTrainTest(data, fraction, 42).test), te);
    QVERIFY(originalRows(splitTrainTest(data, fraction, 43).test) != te);
}

void TestPreprocessTargets::splitRegression_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<int>("expectedTest");
    QTest::newRow("10 rows, 0.3") << 10 << 0.3 << 3;
    QTest::newRow("7 rows, 0.5 rounds half up") << 7 << 0.5 << 4;
    QTest::newRow("2 rows, 0.1 keeps 1 in test") << 2 << 0.1 << 1;
    QTest::newRow("100 rows, 0.25") << 100 << 0.25 << 25;
}

void TestPreprocessTargets::splitRegression() {
    QFETCH(int, rows);
    QFETCH(double, fraction);
    QFETCH(int, expectedTest);
    const Dataset data = traceable({rows}, true);
    const TrainTestSplit s = splitTrainTest(data, fraction, 7);
    QCOMPARE(int(s.test.rows()), expectedTest);
    QCOMPARE(int(s.train.rows()), rows - expectedTest);
    const std::vector<Index> tr = originalRows(s.train), te = originalRows(s.test);
    std::set<Index> all(tr.begin(), tr.end());
    all.insert(te.begin(), te.end());
    QCOMPARE(int(all.size()), rows);
    QVERIFY(std::is_sorted(te.begin(), te.end()));
    for (std::size_t k = 0; k < te.size(); ++k)
        QCOMPARE(s.test.targets.values[Index(k)], 2.0 * double(te[k]));
    QCOMPARE(originalRows(splitTrainTest(data, fraction, 7).test), te);
    if (rows >= 10)
        QVERIFY(originalRows(splitTrainTest(data, fraction, 8).test) != te);
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
    QTest::newRow("only singleton classes") << QList<int>{1, 1, 1} << false << 0.5;
}

void TestPreprocessTargets::splitErrors() {
    QFETCH(QList<int>, sizes);
    QFETCH(bool, regression);
    QFETCH(double, fraction);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             splitTrainTest(traceable(sizes, regression), fraction, 1));
}

QTEST_APPLESS_MAIN(TestPreprocessTargets)
#include "test_preprocess_targets.moc"
