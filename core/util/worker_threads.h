#pragma once
// What every thread does when it joins this process's parallel work: clear its upper vector
// state (vector_state.h), and run the hook the process set (the GUI lowers the thread's
// priority below its event loop: ui/jobs/background_priority.h). The hook runs each time a
// worker joins an observed arena: it must be cheap and may run many times on one thread. The core
// knows no policy; it only calls the hook where threads join its parallel work:
//  - WorkerObserver (worker_observer.h) on an explicit arena (ParallelGrid's, the DP-SGD trainer's);
//  - observeThisThreadsArena() on a thread whose own parallel_for calls (its implicit arena)
//    workers join (a GUI job thread).

namespace elab::core {

using WorkerThreadHook = void (*)();

/// Sets the hook (nullptr: none). Thread-safe; a worker runs the hook set when it next joins.
void setWorkerThreadHook(WorkerThreadHook hook);

/// Clears the upper vector state and runs the hook (if set) on this thread.
void enterWorkerThread();

/// From now on, until this thread ends, workers joining its implicit arena run the hook.
/// Later calls on the same thread do nothing.
void observeThisThreadsArena();

} // namespace elab::core
