#pragma once
// How the process's allocator hands large buffers back to the system (glibc; a no-op elsewhere).

namespace elab::core {

/// For a long-running process that works on large data in worker threads (the GUI): buffers of
/// at least 1 MiB (n-vectors of a large dataset, a fit's workspace) are mapped on their own and
/// unmapped when freed. glibc's default raises that threshold to the size of the last large
/// buffer freed (up to 32 MiB) and its trim threshold with it, so later buffers of a million rows
/// came from the worker threads' arenas and stayed resident there; malloc_trim does not shrink
/// those arenas. Measured on a million-row one-vs-rest sweep in the GUI (BENCHMARKS.md, "memory
/// after a sweep"): 46 MiB resident beyond the 38 MiB in use, after malloc_trim; with this, 1 MiB.
/// (One arena for every thread did as well but made the GUI thread wait for the workers' lock:
/// the small sets' sweeps showed worst gaps ≈ 10 ms longer.) Call once at start-up.
void configureAllocatorForLongRuns() noexcept;

} // namespace elab::core
