#include "core/util/large_allocations.h"

#include <cstdlib> // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace elab::core {

bool returnLargeAllocationsToSystem() noexcept {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, kLargeAllocationBytes) == 1;
#else
    return false;
#endif
}

} // namespace elab::core
