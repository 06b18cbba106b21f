// The parallel-grid runner (core/util/parallel_grid.h): results independent of the thread count,
// cancel skips the tasks not started and keeps the finished ones, streamed deliveries arrive one
// at a time and exactly once, progress reaches 1. Workers only record; every assertion runs on
// the test thread.

#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <vector>

using namespace elab::core;

namespace {

// A task whose result depends only on its index: a sum of draws from its own stream.
double cellValue(std::uint64_t seed, std::size_t i) {
    Rng rng(deriveSeed(seed, i));
    double sum = 0.0;
    for (int k = 0; k < 1000; ++k)
        sum += uniform01(rng) / (1.0 + static_cast<double>(k));
    return sum;
}

std::vector<double> runGrid(int threads, std::size_t count) {
    std::vector<double> values(count, NAN);
    ParallelGrid runner(threads, nullptr, "test");
    runner.run(count, [&](std::size_t i) { values[i] = cellValue(7, i); });
    return values;
}

} // namespace

class TestParallelGrid : public QObject {
    Q_OBJECT

private slots:
    void identicalForOneAndTwoThreads() {
        const std::vector<double> one = runGrid(1, 200), two = runGrid(2, 200), all = runGrid(0, 200);
        for (std::size_t i = 0; i < one.size(); ++i) {
            QVERIFY2(one[i] == two[i] && one[i] == all[i], qPrintable(QString("cell %1 differs").arg(i)));
            QVERIFY(one[i] == cellValue(7, i)); // bit-identical to the serial value
        }
    }

    void cancelKeepsFinishedCells() {
        std::stop_source source;
        RunContext ctx(source.get_token(), {});
        ParallelGrid runner(1, &ctx, "test");
        const std::size_t count = 100;
        std::vector<double> values(count, NAN);
        std::atomic<int> finished{0};
        runner.run(count, [&](std::size_t i) {
            values[i] = cellValue(3, i);
            if (++finished == 10)
                source.request_stop();
        });
        QVERIFY(runner.stopped());
        QCOMPARE(finished.load(), 10); // one thread: no task starts after the request
        int kept = 0;
        for (std::size_t i = 0; i < count; ++i)
            if (!std::isnan(values[i])) {
                ++kept;
                QVERIFY(values[i] == cellValue(3, i));
            }
        QCOMPARE(kept, 10);
    }

    void streamsOneAtATimeAndReportsProgress() {
        std::vector<double> fractions;
        RunContext ctx(std::stop_token(), [&](double f, std::string_view) { fractions.push_back(f); });
        ParallelGrid runner(2, &ctx, "test");
        const std::size_t count = 300;
        runner.setUnits(count);
        std::vector<int> delivered(count, 0);
        int inside = 0, maxInside = 0;
        runner.run(count, [&](std::size_t i) {
            const double v = cellValue(5, i);
            runner.stream([&] {
                maxInside = std::max(maxInside, ++inside);
                delivered[i] += v > 0.0 ? 1 : 0;
                --inside;
            });
            runner.unitDone();
        });
        QCOMPARE(maxInside, 1);
        for (std::size_t i = 0; i < count; ++i)
            QCOMPARE(delivered[i], 1);
        QVERIFY(!fractions.empty());
        QVERIFY(fractions.back() == 1.0);
        for (std::size_t k = 1; k < fractions.size(); ++k)
            QVERIFY(fractions[k] > fractions[k - 1]);
    }
};

QTEST_APPLESS_MAIN(TestParallelGrid)
#include "test_parallel_grid.moc"
