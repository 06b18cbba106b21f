#pragma once
// Large buffers straight from the system and back to it. A fit on a million rows allocates
// per-row vectors and p×p factors of several MiB each, a few per fit, and frees them when the
// fit ends. glibc serves a block ≥ its mmap threshold by mmap and returns it on free, but its
// threshold is dynamic: the first free of such a block raises it to the block's size, after
// which blocks of that size come from the heap, where freed space stays resident (and counts
// in the process's peak) until it happens to be reused or trimmed.
//
// The CLI sets it. The GUI does not: measured there on the sparse 1 M × 1,000 set (BENCHMARKS.md,
// seventh session) it lowered the resident memory after a sweep from 1.62× to 1.33× the matrix
// and the peak from 2.04× to 1.92×, but every chart image of ≥ 1 MiB was then mapped by the GUI
// thread, and mapping waits while another thread unmaps a freed dataset: a 54.6 ms gap in the
// event loop, against the 50 ms target.

namespace elab::core {

/// Blocks of at least this size are mapped and unmapped one by one.
inline constexpr int kLargeAllocationBytes = 1 << 20;

/// Fixes glibc's mmap threshold at kLargeAllocationBytes (turning off its dynamic adjustment).
/// Call once at the start of a program, before other threads. Changes no computed value;
/// a no-op where the C library is not glibc. Returns whether the setting was made.
bool returnLargeAllocationsToSystem() noexcept;

} // namespace elab::core
