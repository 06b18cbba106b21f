#include "ui/jobs/background_priority.h"

#include "core/util/worker_threads.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace elab::ui {

void lowerThisThreadsPriority() {
#if defined(__linux__)
    static thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

void runTbbWorkersBelowTheGui() { core::setWorkerThreadHook(&lowerThisThreadsPriority); }

} // namespace elab::ui
