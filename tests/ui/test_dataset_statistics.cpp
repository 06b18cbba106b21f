// The Data tab's extra statistics: target histogram and log10 norm histogram.

#include "ui/dataset/dataset_statistics.h"

#include <QTest>

#include <numeric>

using elab::ui::log10NormHistogram;
using elab::ui::targetHistogram;

class TestDatasetStatistics : public QObject {
    Q_OBJECT
private slots:
    void targetHistogramCountsEveryRow() {
        Eigen::VectorXd values(5);
        values << 0.0, 1.0, 2.0, 3.0, 10.0;
        const auto h = targetHistogram(elab::core::Targets::regression(values), 10);
        QCOMPARE(h.lo, 0.0);
        QCOMPARE(h.hi, 10.0);
        QCOMPARE(int(h.counts.size()), 10);
        QCOMPARE(h.counts[0], 1); // 0
        QCOMPARE(h.counts[1], 1); // 1
        QCOMPARE(h.counts[2], 1); // 2
        QCOMPARE(h.counts[3], 1); // 3
        QCOMPARE(h.counts[9], 1); // the maximum falls in the last bin
    }

    void targetHistogramEmptyForClassification() {
        Eigen::VectorXi cls(3);
        cls << 0, 1, 0;
        const auto h = targetHistogram(elab::core::Targets::classification(cls, {"a", "b"}), 10);
        QVERIFY(h.counts.empty());
    }

    void constantTargetDoesNotDivideByZero() {
        const auto h = targetHistogram(elab::core::Targets::regression(Eigen::VectorXd::Constant(4, 7.0)), 5);
        QCOMPARE(std::accumulate(h.counts.begin(), h.counts.end(), elab::core::Index(0)), 4);
        QVERIFY(h.hi > h.lo);
    }

    void logNormHistogramSpansDecadesAndSkipsZeros() {
        Eigen::VectorXd norms(5);
        norms << 0.0, 0.1, 1.0, 10.0, 1000.0;
        const auto h = log10NormHistogram(norms, 4);
        QCOMPARE(h.lo, -1.0);
        QCOMPARE(h.hi, 3.0);
        QCOMPARE(int(h.counts.size()), 4);
        QCOMPARE(h.counts[0], 1); // 0.1
        QCOMPARE(h.counts[1], 1); // 1
        QCOMPARE(h.counts[2], 1); // 10
        QCOMPARE(h.counts[3], 1); // 1000; the zero norm is left out
    }

    void logNormHistogramEmptyWhenAllZero() {
        QVERIFY(log10NormHistogram(Eigen::VectorXd::Zero(3), 10).counts.empty());
    }
};

QTEST_MAIN(TestDatasetStatistics)
#include "test_dataset_statistics.moc"
