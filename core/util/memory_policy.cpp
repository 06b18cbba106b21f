#include "core/util/memory_policy.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace elab::core {

bool returnLargeBlocksOnFree() noexcept {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, static_cast<int>(kLargeBlockBytes)) == 1 &&
           mallopt(M_TRIM_THRESHOLD, static_cast<int>(kKeptTopBytes)) == 1;
#else
    return false;
#endif
}

} // namespace elab::core
