#pragma once
// The last reference to a view's old state let go on a worker thread, not the GUI thread. A
// state holds its prepared data and problem; on a million-row dataset freeing them unmaps
// hundreds of MiB, which on the GUI thread was a 35 ms stall when another dataset was loaded
// (BENCHMARKS.md, "regions open"). The worker runs below the GUI's priority, and frees a state
// kReleaseDelay after it was handed over: unmapping hundreds of MiB holds the process's memory
// map, and a GUI-thread allocation that maps memory (a chart's image) would wait for it — the
// delay lets the new state's first pictures be drawn first.

#include <chrono>
#include <functional>
#include <memory>
#include <utility>

namespace elab::ui {

inline constexpr std::chrono::milliseconds kReleaseDelay{400};

namespace detail {
/// Runs task on the release thread (one, shared; tasks run in order).
void runOnReleaseThread(std::function<void()> task);
} // namespace detail

/// Destroys value on the release thread. T must be safe to destroy on any thread: core data and
/// standard containers, no QObject or QPixmap. Typical use: releaseInBackground(std::exchange(m_state, {})).
template <class T>
void releaseInBackground(T value) {
    auto held = std::make_shared<T>(std::move(value));
    detail::runOnReleaseThread([held = std::move(held)]() mutable { held.reset(); });
}

/// Waits until every release handed over so far has run (tests; the application's exit).
void waitForBackgroundReleases();

} // namespace elab::ui
