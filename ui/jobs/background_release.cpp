#include "ui/jobs/background_release.h"

#include "ui/jobs/background_priority.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace elab::ui {

namespace {
// One thread, so releases run in order; started on first use, and at exit its destructor runs
// what is still queued and joins it. A std::thread with a standard mutex and condition variable,
// not a QThreadPool: ThreadSanitizer sees their hand-over, but not QThreadPool's (inside the
// uninstrumented libQt6Core; tests/sanitizers/qt_handover.cpp), which made every released state
// a reported race.
class ReleaseThread {
public:
    ReleaseThread() = default;
    ReleaseThread(const ReleaseThread&) = delete;
    ReleaseThread& operator=(const ReleaseThread&) = delete;

    ~ReleaseThread() {
        {
            const std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }

    void post(std::function<void()> task) {
        {
            const std::lock_guard lock(m_mutex);
            m_queue.push_back(std::move(task));
            if (!m_thread.joinable())
                m_thread = std::thread([this] { run(); });
        }
        m_wake.notify_all();
    }

    void waitForIdle() {
        std::unique_lock lock(m_mutex);
        m_idle.wait(lock, [this] { return m_queue.empty() && !m_running; });
    }

private:
    void run() {
        lowerThisThreadsPriority();
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, nothing left
            std::function<void()> task = std::move(m_queue.front());
            m_queue.pop_front();
            m_running = true;
            lock.unlock();
            task();
            task = nullptr; // what it held is let go here too, before the thread counts as idle
            lock.lock();
            m_running = false;
            if (m_queue.empty())
                m_idle.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake; ///< a task was queued, or stopping
    std::condition_variable m_idle; ///< the queue ran empty
    std::deque<std::function<void()>> m_queue;
    bool m_running = false;
    bool m_stopping = false;
    std::thread m_thread;
};

ReleaseThread& releaseThread() {
    static ReleaseThread thread;
    return thread;
}
} // namespace

void detail::runOnReleaseThread(std::function<void()> task) {
    const auto due = std::chrono::steady_clock::now() + kReleaseDelay;
    releaseThread().post([task = std::move(task), due]() mutable {
        std::this_thread::sleep_until(due);
        task(); // the last reference goes here, on this thread
    });
}

void waitForBackgroundReleases() { releaseThread().waitForIdle(); }

} // namespace elab::ui
