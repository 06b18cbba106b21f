#pragma once
// x86 only (elsewhere every function here is a no-op): while the upper halves of the YMM
// registers are marked in use, the CPU runs legacy-SSE instructions — the whole of this build,
// which targets baseline x86-64 — with a false dependency on those halves (Intel since Skylake)
// or a state transition at every switch between SSE and AVX code (earlier Intel). glibc's
// exp and log1p are AVX/FMA code, our loops around them SSE: measured on this project's Intel
// Xeon VM, a logistic evaluation pass ran 10× slower in such a thread (BENCHMARKS.md, "the
// upper vector state"). A thread inherits the state of the thread that created it, and
// QApplication's constructor leaves the GUI thread in it, so every job thread started from
// there begins dirty, and nothing in an SSE loop ever clears it. VZEROUPPER does.
//
// Call clearUpperVectorState() where long numeric work starts on a thread (a job, a grid
// task, a solver run): one instruction, and it changes no value (the low 128 bits, all this
// build uses, are kept).

#include <optional>

namespace elab::core {

/// VZEROUPPER where the CPU and OS support AVX; nothing otherwise. Thread: any (this thread's state).
void clearUpperVectorState() noexcept;

/// Whether this thread's AVX upper state is in use (XGETBV with ECX = 1, bit 2), or nullopt
/// where that cannot be read (no AVX, no XINUSE support, not x86). For tests and diagnostics.
std::optional<bool> upperVectorStateInUse() noexcept;

/// Marks the upper state in use (writes a whole YMM register), as a foreign library can leave
/// it; false where there is no AVX. For tests and benchmarks.
bool dirtyUpperVectorState() noexcept;

} // namespace elab::core
