#include "core/util/worker_observer.h"

#include "core/util/vector_state.h"

#include <atomic>

namespace elab::core {

namespace {
std::atomic<WorkerThreadHook> g_hook{nullptr};
} // namespace

void setWorkerThreadHook(WorkerThreadHook hook) { g_hook.store(hook); }

void enterWorkerThread() {
    clearUpperVectorState();
    if (const WorkerThreadHook hook = g_hook.load())
        hook();
}

void observeThisThreadsArena() { static thread_local WorkerObserver observer; }

} // namespace elab::core
