// summarize(): exact numbers on small hand-made datasets, dense and sparse.

#include "core/data/dataset_summary.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

// Rows [3, 4], [0, 0], [1, 0], [0, 2]: norms 5, 0, 1, 2; 4 stored entries when sparse.
// Binary target (pos, neg, neg, pos); columns with 2, 0 and 3 missing source cells.
Dataset referenceData(bool sparse) {
    DenseMatrix x(4, 2);
    x << 3, 4, 0, 0, 1, 0, 0, 2;
    Dataset d;
    d.features = sparse ? FeatureMatrix(SparseMatrix(x.sparseView())) : FeatureMatrix(x);
    Eigen::VectorXi ci(4);
    ci << 1, 0, 0, 1;
    d.targets = Targets::classification(ci, {"neg", "pos"});
    d.columns = {{"a", ColumnKind::Numeric, 2, {}, 0, 1},
                 {"b", ColumnKind::Numeric, 0, {}, 1, 1},
                 {"label", ColumnKind::Label, 3, {}, -1, 0}};
    return d;
}

Dataset fromRows(const DenseMatrix& x) {
    Dataset d;
    d.features = FeatureMatrix(x);
    d.targets = Targets::regression(Eigen::VectorXd::Zero(x.rows()));
    return d;
}

} // namespace

class TestDatasetSummary : public QObject {
    Q_OBJECT
private slots:
    void reference_data();
    void reference();
    void histogramBins_data();
    void histogramBins();
    void regressionTarget();
    void multiclassBalance();
    void oddMedian();
    void unitNormSlack_data();
    void unitNormSlack();
    void allZeroRows();
    void empty();
};

void TestDatasetSummary::reference_data() {
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<qulonglong>("stored");
    QTest::addColumn<double>("density");
    QTest::newRow("dense") << false << qulonglong(8) << 1.0;
    QTest::newRow("sparse") << true << qulonglong(4) << 0.5;
}

void TestDatasetSummary::reference() {
    QFETCH(bool, sparse);
    QFETCH(qulonglong, stored);
    QFETCH(double, density);
    const DatasetSummary s = summarize(referenceData(sparse), 5);
    QCOMPARE(s.rows, Index(4));
    QCOMPARE(s.features, Index(2));
    QCOMPARE(s.sparse, sparse);
    QCOMPARE(qulonglong(s.storedEntries), stored);
    QCOMPARE(s.density, density);
    QCOMPARE(s.task, TaskKind::Binary);
    QCOMPARE(s.classes.size(), std::size_t(2));
    QCOMPARE(s.classes[0].name, std::string("neg"));
    QCOMPARE(s.classes[0].count, Index(2));
    QCOMPARE(s.classes[1].name, std::string("pos"));
    QCOMPARE(s.classes[1].count, Index(2));
    QCOMPARE(s.targetMin, 0.0); // regression only
    QCOMPARE(s.targetMax, 0.0);
    ELAB_FUZZY(s.normMin, 0.0, 0.0);
    ELAB_FUZZY(s.normMax, 5.0, 1e-15);
    ELAB_FUZZY(s.normMean, 2.0, 1e-15);
    ELAB_FUZZY(s.normMedian, 1.5, 1e-15);
    QCOMPARE(s.rowsAboveUnitNorm, Index(2)); // 5 and 2; norm exactly 1 is not above
    QCOMPARE(s.normHistogram.lo, 0.0);
    ELAB_FUZZY(s.normHistogram.hi, 5.0, 1e-15);
    QCOMPARE(s.normHistogram.counts, (std::vector<Index>{1, 1, 1, 0, 1}));
    QCOMPARE(s.missingCells, std::size_t(5));
}

void TestDatasetSummary::histogramBins_data() {
    QTest::addColumn<int>("bins");
    QTest::addColumn<QList<int>>("counts"); // norms 0, 1, 2, 5 over [0, 5]
    QTest::newRow("1 bin") << 1 << QList<int>{4};
    QTest::newRow("0 bins: treated as 1") << 0 << QList<int>{4};
    QTest::newRow("2 bins of 2.5") << 2 << QList<int>{3, 1};
    QTest::newRow("5 bins of 1: edges go up") << 5 << QList<int>{1, 1, 1, 0, 1};
    QTest::newRow("10 bins of 0.5") << 10 << QList<int>{1, 0, 1, 0, 1, 0, 0, 0, 0, 1};
}

void TestDatasetSummary::histogramBins() {
    QFETCH(int, bins);
    QFETCH(QList<int>, counts);
    const DatasetSummary s = summarize(referenceData(false), bins);
    QCOMPARE(int(s.normHistogram.counts.size()), int(counts.size()));
    for (int k = 0; k < int(counts.size()); ++k)
        QCOMPARE(int(s.normHistogram.counts[std::size_t(k)]), counts[k]);
}

void TestDatasetSummary::regressionTarget() {
    Dataset d = referenceData(false);
    d.targets = Targets::regression(Eigen::Vector4d(1, -2, 4, 5));
    const DatasetSummary s = summarize(d);
    QCOMPARE(s.task, TaskKind::Regression);
    QVERIFY(s.classes.empty());
    QCOMPARE(s.targetMin, -2.0);
    QCOMPARE(s.targetMax, 5.0);
    ELAB_FUZZY(s.targetMean, 2.0, 1e-15);
    QCOMPARE(s.normHistogram.counts.size(), std::size_t(30)); // the default
}

void TestDatasetSummary::multiclassBalance() {
    Dataset d = fromRows(DenseMatrix::Ones(6, 2));
    Eigen::VectorXi ci(6);
    ci << 2, 2, 0, 2, 1, 2;
    d.targets = Targets::classification(ci, {"setosa", "versicolor", "virginica"});
    const DatasetSummary s = summarize(d);
    QCOMPARE(s.task, TaskKind::Multiclass);
    QCOMPARE(s.classes.size(), std::size_t(3));
    QCOMPARE(s.classes[2].name, std::string("virginica"));
    QCOMPARE(s.classes[0].count, Index(1));
    QCOMPARE(s.classes[1].count, Index(1));
    QCOMPARE(s.classes[2].count, Index(4));
    ELAB_FUZZY(s.normMedian, std::sqrt(2.0), 1e-15);
    QCOMPARE(s.rowsAboveUnitNorm, Index(6));
    QCOMPARE(s.missingCells, std::size_t(0));
}

void TestDatasetSummary::oddMedian() {
    DenseMatrix x(5, 1);
    x << -7, 0.5, 3, -1, 2; // norms 7, 0.5, 3, 1, 2
    const DatasetSummary s = summarize(fromRows(x), 7);
    QCOMPARE(s.normMedian, 2.0);
    QCOMPARE(s.normMean, 2.7);
    QCOMPARE(s.normMin, 0.5);
    QCOMPARE(s.normMax, 7.0);
    QCOMPARE(s.normHistogram.counts, (std::vector<Index>{1, 1, 1, 1, 0, 0, 1}));
}

void TestDatasetSummary::unitNormSlack_data() {
    QTest::addColumn<double>("norm");
    QTest::addColumn<int>("above");
    QTest::newRow("exactly 1") << 1.0 << 0;
    QTest::newRow("1 + 1e-15 (rounding after a clip)") << 1.0 + 1e-15 << 0;
    QTest::newRow("1 + 1e-9") << 1.0 + 1e-9 << 1;
    QTest::newRow("1.5") << 1.5 << 1;
}

void TestDatasetSummary::unitNormSlack() {
    QFETCH(double, norm);
    QFETCH(int, above);
    DenseMatrix x(2, 2);
    x << norm, 0, 0, 0.5;
    QCOMPARE(int(summarize(fromRows(x)).rowsAboveUnitNorm), above);
}

void TestDatasetSummary::allZeroRows() {
    const DatasetSummary s = summarize(fromRows(DenseMatrix::Zero(3, 4)), 4);
    QCOMPARE(s.normMax, 0.0);
    QCOMPARE(s.normHistogram.hi, 1.0); // never a zero-width range
    QCOMPARE(s.normHistogram.counts, (std::vector<Index>{3, 0, 0, 0}));
    QCOMPARE(s.rowsAboveUnitNorm, Index(0));
}

void TestDatasetSummary::empty() {
    const DatasetSummary s = summarize(fromRows(DenseMatrix(0, 3)), 3);
    QCOMPARE(s.rows, Index(0));
    QCOMPARE(s.features, Index(3));
    QCOMPARE(s.density, 0.0);
    QCOMPARE(s.normMean, 0.0);
    QCOMPARE(s.normMedian, 0.0);
    QCOMPARE(s.targetMean, 0.0);
    QCOMPARE(s.normHistogram.counts, (std::vector<Index>{0, 0, 0}));
}

QTEST_APPLESS_MAIN(TestDatasetSummary)
#include "test_dataset_summary.moc"
