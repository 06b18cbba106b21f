// Background work yields to the GUI thread (ui/jobs/background_priority.h,
// core/util/worker_threads.h): once the GUI has set its worker hook, every TBB worker that
// joins the sweeps' runner (ParallelGrid) or a job thread's own parallel_for runs the hook and
// works at nice +10, a JobSlot's work runs at nice +10, and the GUI thread keeps its priority.

// oneTBB before Qt: Qt's `emit` macro breaks oneTBB's profiling header.
#include "core/util/parallel_grid.h"
#include "core/util/worker_threads.h"

#include <tbb/parallel_for.h>

#include "ui/jobs/background_priority.h"
#include "ui/jobs/job_slot.h"

#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

#if defined(__linux__)
long threadId() { return static_cast<long>(syscall(SYS_gettid)); }
int niceOfThisThread() { return getpriority(PRIO_PROCESS, static_cast<id_t>(threadId())); }

std::mutex g_mutex;
std::set<long> g_hooked; // threads that ran the hook

// The GUI's hook, and a record of where it ran.
void recordingHook() {
    elab::ui::lowerThisThreadsPriority();
    const std::lock_guard lock(g_mutex);
    g_hooked.insert(threadId());
}

struct Seen {
    std::map<long, int> niceOf; // thread → its nice while it ran a task
    void record() {
        const std::lock_guard lock(g_mutex);
        niceOf[threadId()] = niceOfThisThread();
    }
};

void slowTask() { std::this_thread::sleep_for(std::chrono::milliseconds(5)); } // long enough for a worker to join
#endif

} // namespace

class TestBackgroundPriority : public QObject {
    Q_OBJECT

#if defined(__linux__)
    int m_gui = 0;
    // Every thread but `caller` that ran a task ran the hook and worked at nice +10.
    void checkWorkers(const Seen& seen, long caller) {
        if (seen.niceOf.size() < 2)
            QSKIP("no TBB worker joined (one core?)");
        const std::lock_guard lock(g_mutex);
        for (const auto& [thread, nice] : seen.niceOf) {
            if (thread == caller)
                continue;
            QVERIFY(g_hooked.count(thread) == 1);
            QCOMPARE(nice, std::max(m_gui, 10)); // raising a priority back needs a privilege
        }
    }
#endif

private slots:
    void initTestCase() {
#if defined(__linux__)
        m_gui = niceOfThisThread();
        elab::core::setWorkerThreadHook(&recordingHook); // what runTbbWorkersBelowTheGui sets, recorded
#endif
    }

    void init() {
#if defined(__linux__)
        const std::lock_guard lock(g_mutex);
        g_hooked.clear();
#endif
    }

    // First: the process's only TBB worker (two cores) has not run the hook yet.
    void jobThreadsOwnParallelWork() {
#if !defined(__linux__)
        QSKIP("nice is per thread on Linux only");
#else
        elab::ui::JobSlot slot(QStringLiteral("t"));
        Seen seen;
        int inJob = -100;
        long jobThread = 0;
        QSignalSpy finished(&slot, &elab::ui::JobSlot::finished);
        slot.start(QStringLiteral("work"), [&](elab::ui::JobContext&) -> std::function<void()> {
            inJob = niceOfThisThread();
            jobThread = threadId();
            tbb::parallel_for(0, 40, [&](int) {
                slowTask();
                seen.record();
            });
            return [] {};
        });
        QVERIFY(finished.wait(10000));
        QCOMPARE(inJob, std::max(m_gui, 10));
        QCOMPARE(niceOfThisThread(), m_gui);
        checkWorkers(seen, jobThread);
#endif
    }

    void sweepRunnersWorkers() {
#if !defined(__linux__)
        QSKIP("nice is per thread on Linux only");
#else
        Seen seen;
        elab::core::ParallelGrid grid(2, nullptr, "test");
        grid.run(40, [&](std::size_t) {
            slowTask();
            seen.record();
        });
        QCOMPARE(seen.niceOf.count(threadId()), std::size_t(1)); // the caller works too, at its own priority
        QCOMPARE(seen.niceOf.at(threadId()), m_gui);
        QCOMPARE(niceOfThisThread(), m_gui);
        checkWorkers(seen, threadId());
#endif
    }

    // The hook the GUI installs lowers the thread that enters, and only that one.
    void theGuiSetsItsHook() {
#if !defined(__linux__)
        QSKIP("nice is per thread on Linux only");
#else
        elab::ui::runTbbWorkersBelowTheGui();
        QCOMPARE(niceOfThisThread(), m_gui); // setting it changes no thread
        int entered = -100;
        std::thread worker([&] {
            elab::core::enterWorkerThread(); // what a worker joining an observed arena runs
            entered = niceOfThisThread();
        });
        worker.join();
        QCOMPARE(entered, std::max(m_gui, 10));
        QCOMPARE(niceOfThisThread(), m_gui);
#endif
    }
};

QTEST_MAIN(TestBackgroundPriority)
#include "test_background_priority.moc"
