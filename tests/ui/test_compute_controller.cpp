// ComputeController, the base of every view's controller: a burst of settings coalesces
// into one run, a dataset hand-over reruns with the applied settings, a superseded run's
// result is dropped, busyChanged/idle bracket the work, cancel and failures end it.

#include "ui/jobs/compute_controller.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <stdexcept>

using namespace elab;
using elab::ui::JobContext;
using elab::ui::JobSlot;

namespace {

struct CountSettings {
    int value = 0;
    bool operator==(const CountSettings&) const = default;
};

/// The smallest derived controller: one slot; a run delivers its settings' value, after
/// waiting on a gate the test can hold closed, or throws when the value is negative.
class CountController : public ui::ComputeController<CountSettings> {
public:
    CountController() : m_slot(addJobSlot(QStringLiteral("count"), true)) {}
    ~CountController() override {
        cancel();
        waitForIdle();
    }

    JobSlot* slot() const { return m_slot; }
    int delivered() const { return m_delivered; }
    QList<int> appliedValues() const { return m_appliedValues; }
    std::atomic<bool> gate{true};

private:
    void applySettings(const CountSettings& next) override {
        const bool run = rerunRequested() || !(next == m_applied);
        m_applied = next;
        m_appliedValues << next.value;
        if (!run || !hasDataset()) {
            updateBusy();
            return;
        }
        clearRerun();
        const int value = next.value;
        m_slot->start(QStringLiteral("count"), [this, value](JobContext& job) -> std::function<void()> {
            while (!gate.load() && !job.stopRequested())
                QThread::msleep(1);
            if (value < 0)
                throw std::invalid_argument("negative");
            return [this, value] {
                m_delivered = value;
                emit stateChanged();
            };
        });
        updateBusy();
    }

    JobSlot* m_slot;
    int m_delivered = -1;
    QList<int> m_appliedValues;
};

std::shared_ptr<const core::Dataset> emptyDataset() { return std::make_shared<const core::Dataset>(); }

} // namespace

class TestComputeController : public QObject {
    Q_OBJECT

private slots:
    void burstCoalescesIntoOneRun() {
        CountController c;
        QSignalSpy runs(c.slot(), &JobSlot::started);
        QSignalSpy idle(&c, &ui::ComputeControllerBase::idle);
        c.setDataset(emptyDataset());
        for (int k = 1; k <= 10; ++k)
            c.setSettings({k});
        QVERIFY(c.isBusy());
        QCOMPARE(c.pendingSettings().value, 10);
        QVERIFY(idle.wait(5000));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(c.appliedValues(), QList<int>{10});
        QCOMPARE(c.settings().value, 10);
        QCOMPARE(c.delivered(), 10);
        // Unchanged settings start nothing; a new dataset reruns the applied settings.
        c.setSettings({10});
        QTRY_VERIFY(!c.isBusy());
        QCOMPARE(runs.count(), 1);
        c.setDataset(emptyDataset());
        QVERIFY(idle.wait(5000));
        QCOMPARE(runs.count(), 2);
        QCOMPARE(c.settings().value, 10);
    }

    void busyAndIdleBracketTheWork() {
        CountController c;
        QSignalSpy busy(&c, &ui::ComputeControllerBase::busyChanged);
        QSignalSpy idle(&c, &ui::ComputeControllerBase::idle);
        c.setSettings({3}); // no dataset: applied, nothing runs
        QCOMPARE(busy.count(), 1);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QVERIFY(idle.wait(5000));
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        QCOMPARE(c.delivered(), -1);
        c.gate = false;
        c.setDataset(emptyDataset());
        QTRY_VERIFY(c.slot()->isBusy());
        QVERIFY(c.isBusy());
        QCOMPARE(idle.count(), 1);
        c.gate = true;
        QVERIFY(idle.wait(5000));
        QCOMPARE(c.delivered(), 3);
        QCOMPARE(busy.count(), 4); // true, false, true, false
    }

    void supersededResultIsDropped() {
        CountController c;
        QSignalSpy stale(c.slot(), &JobSlot::staleResultDropped);
        QSignalSpy idle(&c, &ui::ComputeControllerBase::idle);
        c.gate = false;
        c.setSettings({1});
        c.setDataset(emptyDataset());
        QTRY_VERIFY(c.slot()->isBusy()); // run 1 is held at the gate
        c.setSettings({2});              // run 2 supersedes it once coalesced
        QTRY_COMPARE(c.appliedValues().size(), 2);
        c.gate = true;
        QVERIFY(idle.wait(5000));
        c.waitForIdle();
        QTRY_COMPARE(stale.count(), 1); // run 1's result arrives and is dropped
        QCOMPARE(c.delivered(), 2);
    }

    void cancelStopsAndFailuresReport() {
        CountController c;
        QSignalSpy idle(&c, &ui::ComputeControllerBase::idle);
        QSignalSpy failed(&c, &ui::ComputeControllerBase::failed);
        QSignalSpy stale(c.slot(), &JobSlot::staleResultDropped);
        c.gate = false;
        c.setSettings({5});
        c.setDataset(emptyDataset());
        QTRY_VERIFY(c.slot()->isBusy());
        c.cancel();
        QVERIFY(!c.isBusy());
        QCOMPARE(idle.count(), 1);
        c.gate = true;
        QTRY_COMPARE(stale.count(), 1); // the stopped run's delivery arrives and is dropped
        QCOMPARE(c.delivered(), -1);

        c.setSettings({-1});
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("negative"));
        QCOMPARE(c.lastError(), QStringLiteral("negative"));
        QTRY_VERIFY(!c.isBusy());
        QCOMPARE(c.indicatedSlots(), QList<JobSlot*>{c.slot()});
    }
};

QTEST_MAIN(TestComputeController)
#include "test_compute_controller.moc"
