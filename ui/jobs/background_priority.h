#pragma once
// Background work yields to the GUI thread (the 50 ms target, BENCHMARKS.md): every thread that
// runs a job or TBB work in the GUI process runs at nice +10 (Linux: nice is per thread), so the
// event loop gets a core first when it wakes (the main window also keeps TBB to all cores but
// one). Failure (not permitted, not Linux) is harmless: the work just runs at normal priority.

namespace elab::ui {

/// Lowers the calling thread's priority once (later calls on the same thread do nothing).
void lowerThisThreadsPriority();

/// From now on every TBB worker thread lowers its own priority when it first joins the core's
/// parallel work (core/util/worker_threads.h: the sweeps' arenas, and the implicit arena of a
/// job thread, which JobSlot observes). Call once, on the GUI thread, before any job starts.
void runTbbWorkersBelowTheGui();

} // namespace elab::ui
