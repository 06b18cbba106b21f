#include "ui/jobs/background_release.h"

#include "ui/jobs/background_priority.h"

#include <QThreadPool>

#include <thread>

namespace elab::ui {

namespace {
// One thread, so releases run in order; its destructor, at exit, waits for those still queued.
struct ReleasePool : QThreadPool {
    ReleasePool() { setMaxThreadCount(1); }
};

QThreadPool& releasePool() {
    static ReleasePool pool;
    return pool;
}
} // namespace

void detail::runOnReleaseThread(std::function<void()> task) {
    const auto due = std::chrono::steady_clock::now() + kReleaseDelay;
    releasePool().start([task = std::move(task), due]() mutable {
        lowerThisThreadsPriority();
        std::this_thread::sleep_until(due);
        task(); // the last reference goes here, on this thread
    });
}

void waitForBackgroundReleases() { releasePool().waitForDone(); }

} // namespace elab::ui
