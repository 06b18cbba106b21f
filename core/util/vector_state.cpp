#include "core/util/vector_state.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace elab::core {

#if defined(__x86_64__) || defined(__i386__)

namespace {

// __builtin_cpu_supports("avx") is true only if the OS also saves the YMM state (XCR0).
const bool kAvx = __builtin_cpu_supports("avx");

bool xinuseReadable() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    // CPUID leaf 0Dh, sub-leaf 1, EAX bit 2: XGETBV with ECX = 1 (XINUSE) is supported.
    return kAvx && __get_cpuid_count(0x0D, 1, &a, &b, &c, &d) && ((a >> 2) & 1U) != 0;
}

const bool kXinuse = xinuseReadable();

} // namespace

void clearUpperVectorState() noexcept {
    if (kAvx)
        asm volatile("vzeroupper" ::: "memory");
}

std::optional<bool> upperVectorStateInUse() noexcept {
    if (!kXinuse)
        return std::nullopt;
    unsigned lo = 0, hi = 0;
    asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1U));
    return ((lo >> 2) & 1U) != 0; // state component 2: the upper halves of YMM0–15
}

bool dirtyUpperVectorState() noexcept {
    if (!kAvx)
        return false;
    asm volatile("vcmpps $15, %%ymm1, %%ymm1, %%ymm1" ::: "xmm1"); // TRUE_UQ: all ones
    return true;
}

#else

void clearUpperVectorState() noexcept {}
std::optional<bool> upperVectorStateInUse() noexcept { return std::nullopt; }
bool dirtyUpperVectorState() noexcept { return false; }

#endif

} // namespace elab::core
