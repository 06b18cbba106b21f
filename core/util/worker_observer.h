#pragma once
// The oneTBB observer that runs enterWorkerThread() (worker_threads.h) on the workers joining an
// arena. Kept out of worker_threads.h so that Qt code can include that one (Qt's `emit` macro
// breaks oneTBB's headers).

#include "core/util/worker_threads.h"

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

namespace elab::core {

/// Calls enterWorkerThread() on every worker thread that joins its arena while it exists (not
/// on the thread that created the arena's work: that may be a GUI thread).
class WorkerObserver final : public tbb::task_scheduler_observer {
public:
    /// Observes arena (initialised if it is not).
    explicit WorkerObserver(tbb::task_arena& arena) : tbb::task_scheduler_observer(arena) { observe(true); }
    /// Observes the implicit arena of the calling thread.
    WorkerObserver() { observe(true); }
    ~WorkerObserver() override { observe(false); }
    WorkerObserver(const WorkerObserver&) = delete;
    WorkerObserver& operator=(const WorkerObserver&) = delete;

    void on_scheduler_entry(bool isWorker) override {
        if (isWorker)
            enterWorkerThread();
    }
};

} // namespace elab::core
