#pragma once
// Helpers shared by the GUI tests. (Not "ui_*.h": AutoUic takes those for generated forms.)

#include "ui/jobs/compute_controller.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTimer>

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

/// After a cancel: waits until everything the stopped jobs of c still deliver has arrived on
/// the GUI thread (and been dropped), so that a check after it would see a late delivery.
/// waitForIdle() returns once every worker has returned, when all they will ever deliver is
/// queued; a marker queued after that runs after all of it (queued calls run in order), so the
/// wait ends when the marker arrives, not after a fixed time. False after ms milliseconds.
inline bool waitForLateDeliveries(ui::ComputeControllerBase& c, int ms = 30000) {
    c.waitForIdle();
    bool arrived = false;
    QEventLoop loop;
    QMetaObject::invokeMethod(
        &loop,
        [&] {
            arrived = true;
            loop.quit();
        },
        Qt::QueuedConnection);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    return arrived;
}

} // namespace elab::test
