#pragma once
// How the process's allocator hands memory back to the system (glibc; no-ops elsewhere).
// Measured on a million-row one-vs-rest sweep in the GUI (BENCHMARKS.md, "memory after a
// sweep"): with glibc's defaults the worker threads' arenas kept ≈ 46 MiB they no longer used,
// which malloc_trim does not release (it trims only the main arena's top), against 38 MiB of
// the dataset and its prepared state in use.

namespace elab::core {

/// For a long-running process that works on large data in worker threads (the GUI): one malloc
/// arena for every thread, so that freed memory can be returned, and buffers of at least 1 MiB
/// (n-vectors of a large dataset, a fit's workspace) mapped on their own and unmapped when
/// freed (glibc otherwise raises that threshold to the last large buffer freed, up to 32 MiB,
/// and later buffers of a million rows stay in the heap). The engine allocates per pass and per
/// fit, not per row, so the one arena's lock is taken rarely. Call once at start-up, before any
/// thread starts.
void configureAllocatorForLongRuns() noexcept;

/// Returns the free pages of the heap to the system (malloc_trim): after long work, off the
/// GUI thread. Thread: any.
void releaseFreedMemory() noexcept;

} // namespace elab::core
