#include "core/util/memory_policy.h"

#include <cstdlib> // defines __GLIBC__ on glibc (the test below needs it first)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace elab::core {

void configureAllocatorForLongRuns() noexcept {
#if defined(__GLIBC__)
    // A fixed threshold also turns glibc's dynamic adjustment off (mallopt(3)).
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

} // namespace elab::core
