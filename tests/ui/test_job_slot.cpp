// JobSlot: latest request wins, a superseded job's results (partial and final) are dropped,
// cancel stops the job cooperatively and reports at once, failures become messages, and
// deliveries run on the GUI thread.

#include "ui/jobs/job_slot.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <stdexcept>

using elab::ui::JobContext;
using elab::ui::JobSlot;

namespace {
// Spins (cooperatively) until released or stopped; a work function a test can hold open.
void holdUntil(const std::atomic<bool>& release, JobContext& job) {
    while (!release.load() && !job.stopRequested())
        QThread::msleep(1);
}
} // namespace

class TestJobSlot : public QObject {
    Q_OBJECT

private slots:
    void deliversOnGuiThread() {
        JobSlot slot(QStringLiteral("t"));
        QThread* gui = QThread::currentThread();
        QThread* partialThread = nullptr;
        QThread* finalThread = nullptr;
        QSignalSpy finished(&slot, &JobSlot::finished);
        slot.start(QStringLiteral("work"), [&](JobContext& job) -> std::function<void()> {
            job.post([&] { partialThread = QThread::currentThread(); });
            return [&] { finalThread = QThread::currentThread(); };
        });
        QVERIFY(slot.isBusy());
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(partialThread, gui);
        QCOMPARE(finalThread, gui);
        QVERIFY(!slot.isBusy());
    }

    void supersededJobIsDropped() {
        JobSlot slot(QStringLiteral("t"));
        std::atomic<bool> releaseFirst{false};
        std::atomic<bool> firstSawStop{false};
        std::atomic<bool> firstRunning{false};
        int delivered = 0;
        QSignalSpy stale(&slot, &JobSlot::staleResultDropped);
        QSignalSpy finished(&slot, &JobSlot::finished);
        const quint64 first = slot.start(QStringLiteral("first"), [&](JobContext& job) -> std::function<void()> {
            firstRunning = true;
            holdUntil(releaseFirst, job);
            firstSawStop = job.stopRequested();
            job.post([&] { delivered += 100; }); // partial result after being superseded
            return [&] { delivered += 1000; };
        });
        QTRY_VERIFY(firstRunning.load()); // superseded while running, not while queued
        const quint64 second = slot.start(
            QStringLiteral("second"), [&](JobContext&) -> std::function<void()> { return [&] { delivered += 1; }; });
        QVERIFY(second > first);
        QVERIFY(finished.wait(5000));
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 2, 5000); // the first job's partial and final
        QVERIFY(firstSawStop.load());
        QCOMPARE(delivered, 1);
        QCOMPARE(finished.count(), 1);
    }

    void cancelReportsAtOnceAndDropsTheRest() {
        JobSlot slot(QStringLiteral("t"));
        std::atomic<bool> never{false};
        bool delivered = false;
        QSignalSpy finished(&slot, &JobSlot::finished);
        QSignalSpy stale(&slot, &JobSlot::staleResultDropped);
        slot.start(QStringLiteral("long"), [&](JobContext& job) -> std::function<void()> {
            holdUntil(never, job);
            return [&] { delivered = true; };
        });
        slot.cancel();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!slot.isBusy());
        slot.waitForIdle(); // the worker saw the stop token and returned
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 1, 5000);
        QVERIFY(!delivered);
        slot.cancel(); // idle: no-op
        QCOMPARE(finished.count(), 1);
    }

    void failureBecomesMessage() {
        JobSlot slot(QStringLiteral("t"));
        QSignalSpy failed(&slot, &JobSlot::failed);
        slot.start(QStringLiteral("bad"), [](JobContext&) -> std::function<void()> {
            throw std::invalid_argument("file.csv:3:2: not a number");
        });
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("file.csv:3:2: not a number"));
        QVERIFY(!slot.isBusy());
    }

    void destructorWaitsForWorkers() {
        std::atomic<bool> returned{false};
        std::atomic<bool> running{false};
        {
            JobSlot slot(QStringLiteral("t"));
            std::atomic<bool> never{false};
            slot.start(QStringLiteral("long"), [&](JobContext& job) -> std::function<void()> {
                running = true;
                holdUntil(never, job);
                returned = true;
                return {};
            });
            QTRY_VERIFY(running.load());
        }
        QVERIFY(returned.load());
    }
};

QTEST_MAIN(TestJobSlot)
#include "test_job_slot.moc"
