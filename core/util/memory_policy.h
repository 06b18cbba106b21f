#pragma once
// glibc's allocator serves a block of at least M_MMAP_THRESHOLD bytes (128 KiB at start) with its
// own mapping and unmaps it on free. But each time such a block is freed, it raises the threshold
// to that block's size (up to 32 MiB), so later n-sized vectors of a large dataset come from the
// heap, where their freed pages stay resident and fragment. A million-row blobs sweep in the GUI
// kept 9.1× its matrix resident after the sweep this way against 4.1× with the threshold fixed
// (BENCHMARKS.md, "Fourteenth session"). A fixed threshold turns that dynamic rise off.
//
// Call returnLargeBlocksOnFree() once at start-up (the CLI's and the GUI's main, and benchmarks
// that stand in for them), before other threads allocate.

#include <cstddef>

namespace elab::core {

/// The fixed threshold: blocks of this size or more are mapped on allocation and unmapped on
/// free. 4 MiB: per-row vectors from 524,288 rows on (the million-row sets), p × p matrices from
/// p = 725. Below it stay what is allocated and freed often: Eigen's matrix-product buffers in a
/// factorisation (1–2 MiB at p = 785; at 1 MiB MNIST's fits faulted in 30 % more pages) and every
/// vector of a9a's fits.
inline constexpr std::size_t kLargeBlockBytes = std::size_t{4} << 20;

/// Free memory glibc keeps at the top of a heap instead of returning it: twice the threshold, as
/// glibc's own dynamic rule sets it. Fixing the mmap threshold would otherwise leave this at its
/// start value, 128 KiB, and every factorisation's product buffers (just below the threshold) would
/// be returned and faulted in again: MNIST's fits 248 k → 322 k page faults, 257 k with this.
inline constexpr std::size_t kKeptTopBytes = 2 * kLargeBlockBytes;

/// Fixes glibc's mmap threshold at kLargeBlockBytes and its trim threshold at kKeptTopBytes; true
/// if both were set. Elsewhere (no glibc) nothing, false. Thread: call before other threads allocate.
bool returnLargeBlocksOnFree() noexcept;

} // namespace elab::core
