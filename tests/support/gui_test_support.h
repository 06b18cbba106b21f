#pragma once
// Helpers shared by the GUI tests. (Not "ui_*.h": AutoUic takes those for generated forms.)

#include "ui/jobs/compute_controller.h"

#include <QDeadlineTimer>
#include <QSignalSpy>

#include <algorithm>

namespace elab::test {

/// Waits, on the controller's idle() signal (no polling), until it has nothing running or
/// pending; false after ms milliseconds.
inline bool waitIdle(ui::ComputeControllerBase& c, int ms = 30000) {
    QSignalSpy idle(&c, &ui::ComputeControllerBase::idle);
    const QDeadlineTimer deadline(ms);
    while (c.isBusy())
        if (!idle.wait(static_cast<int>(std::max<qint64>(1, deadline.remainingTime()))))
            return !c.isBusy();
    return true;
}

} // namespace elab::test
