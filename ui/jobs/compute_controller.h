#pragma once
// The base of every view's controller (docs/STYLE.md §2): a dataset hand-over, settings
// changes coalesced by a one-frame timer, latest-wins job slots (JobSlot: a generation
// counter drops stale results), and one busy/idle state over all of them. A derived
// controller names its slots, decides in applyPending() what a change invalidates, and
// starts its jobs; ComputeController<Settings> adds the pending/applied settings pair.
//
// Threads: every function and signal is for the GUI thread.

#include "ui/jobs/job_slot.h"

#include "core/data/dataset.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <utility>

namespace elab::ui {

/// The test file's dataset as core::prepareExperimentData takes it: a copy that shares the
/// feature buffers; none without a test file.
inline std::optional<core::Dataset> testCopy(const std::shared_ptr<const core::Dataset>& test) {
    return test ? std::optional<core::Dataset>(*test) : std::nullopt;
}

class ComputeControllerBase : public QObject {
    Q_OBJECT
public:
    explicit ComputeControllerBase(QObject* parent = nullptr);
    /// Waits for the workers. A derived destructor calls cancel() and waitForIdle() first,
    /// while the state its handlers touch still exists.
    ~ComputeControllerBase() override;

    /// A newly loaded dataset (null: none) and its test file (null: none; the views then hold
    /// out a fraction of the dataset instead): everything is recomputed after one frame.
    void setDataset(std::shared_ptr<const core::Dataset> dataset, std::shared_ptr<const core::Dataset> test = nullptr);
    bool hasDataset() const { return m_dataset != nullptr; }
    std::shared_ptr<const core::Dataset> dataset() const { return m_dataset; }
    /// The test file's dataset, encoded with the training file's schema when prepared.
    std::shared_ptr<const core::Dataset> testDataset() const { return m_test; }

    /// Stops every running job and drops a pending change; finished results are kept.
    virtual void cancel();
    /// Any job running, a change waiting to be applied, or a derived timer active.
    bool isBusy() const;
    /// The message of the last failure ("" after a success).
    QString lastError() const { return m_error; }
    /// Every slot, in the order they were added.
    const QList<JobSlot*>& jobSlots() const { return m_slots; }
    /// The slots whose progress and Cancel the status bar shows (long jobs).
    const QList<JobSlot*>& indicatedSlots() const { return m_indicated; }
    /// A slot owned by a helper of this controller's view (the Utility tab's training curves):
    /// from now on it counts in isBusy() and idle, cancel() stops it, its failures are reported
    /// here, and if indicated the status bar shows it (call while the view is built).
    void adoptJobSlot(JobSlot* slot, bool indicated);
    /// Waits for every worker to return (tests, shutdown). Results are still delivered by
    /// the event loop afterwards.
    void waitForIdle();
    /// The slider's handle is held (the last slider step said so; see setSliderStep).
    bool dragging() const { return m_dragging; }

signals:
    /// Anything new to draw.
    void stateChanged();
    /// setDataset was called (views adapt their forms).
    void datasetChanged();
    void failed(const QString& message);
    void busyChanged(bool busy);
    /// Every job finished and no change is pending.
    void idle();

protected:
    /// A slot owned by this controller; indicated: shown in the status bar.
    JobSlot* addJobSlot(const QString& name, bool indicated);
    /// A settings change arrived: apply it after one frame (bursts coalesce).
    void schedulePending();
    /// Run everything again with the applied settings (new dataset, recompute).
    void scheduleRerun();
    bool hasPending() const { return m_havePending; }
    /// Whether a rerun was asked for since the last clearRerun().
    bool rerunRequested() const { return m_needRerun; }
    void clearRerun() { m_needRerun = false; }
    /// Emits busyChanged/idle when the overall state changed.
    void updateBusy();
    void setLastError(const QString& message) { m_error = message; }

    /// The coalescing timer fired with a change pending (hasPending() was just cleared).
    virtual void applyPending() = 0;
    /// A rerun keeps the applied settings: copy them to the pending ones.
    virtual void keepAppliedAsPending() = 0;
    /// Extra reasons to count as busy (e.g. a derived timer).
    virtual bool extraBusy() const { return false; }
    /// Following a drag: a step that can wait for `slot`'s running job (its result stays worth
    /// showing) is held instead of restarting it, so that a drag shows results instead of a
    /// restart every frame. Returns whether it was held (slot busy); the latest held step is the
    /// applied settings. Held counts as busy; cancel() drops it; if the running job fails,
    /// retryHeld() runs the held step.
    bool holdWhileRunning(const JobSlot* slot);
    /// From the running job's delivery (or when the held step is started some other way):
    /// whether a step was held (then start it now).
    bool takeHeld();
    /// The job a step was held for failed: run the held step (by default: the applied settings
    /// again, scheduleRerun).
    virtual void retryHeld() { scheduleRerun(); }
    /// A slider step with the applied settings ended a drag (the handle was let go where the
    /// last step left it): what was shown at drag fidelity can be computed in full now.
    virtual void sliderReleased() {}
    /// For ComputeController::setSliderStep; returns whether this ends a drag.
    bool setDragging(bool dragging) { return std::exchange(m_dragging, dragging) && !dragging; }
    /// A slot failed: by default stores the message and emits failed().
    virtual void reportFailure(const QString& message);

private:
    void onCoalesced();

    QList<JobSlot*> m_slots;
    QList<JobSlot*> m_indicated;
    QTimer m_coalesce;
    std::shared_ptr<const core::Dataset> m_dataset;
    std::shared_ptr<const core::Dataset> m_test;
    bool m_havePending = false;
    const JobSlot* m_heldFor = nullptr; ///< the slot whose running job a step waits for
    bool m_needRerun = false;
    bool m_wasBusy = false;
    bool m_dragging = false;
    QString m_error;
};

/// Adds the settings: setSettings() stores them as pending; applyPending(next) decides.
template <class Settings>
class ComputeController : public ComputeControllerBase {
public:
    using ComputeControllerBase::ComputeControllerBase;

    /// New settings; applied after a one-frame pause (bursts coalesce into one update).
    void setSettings(const Settings& settings) {
        m_pending = settings;
        schedulePending();
    }
    /// A slider step (settings = the pending ones with the slider's value): applied at once, as
    /// the one-frame coalescing of setSettings would postpone a drag (a step every frame
    /// restarts its timer) to its end; while a form change waits for its frame, the step joins
    /// it. dragging: the handle is held (dragging()).
    void setSliderStep(const Settings& settings, bool dragging) {
        const bool released = setDragging(dragging);
        m_pending = settings;
        if (hasPending())
            return;
        if (settings == m_applied) {
            if (released)
                sliderReleased();
            return;
        }
        applySettings(Settings(settings));
    }
    /// The slider's ε as a slider step: the pending settings with currentEps = eps (for the
    /// views whose settings have a currentEps; +∞ is a non-private stop where a view has one).
    void setCurrentEps(double eps, bool dragging) {
        Settings next = pendingSettings();
        next.currentEps = eps;
        setSliderStep(next, dragging);
    }
    /// The settings of the current (or last) run; pendingSettings() what was set last.
    const Settings& settings() const { return m_applied; }
    const Settings& pendingSettings() const { return hasPending() ? m_pending : m_applied; }

protected:
    /// next: the pending settings, taken; m_applied still holds the previous ones.
    virtual void applySettings(const Settings& next) = 0;

    Settings m_pending;
    Settings m_applied;

private:
    void applyPending() final { applySettings(Settings(m_pending)); }
    void keepAppliedAsPending() final { m_pending = m_applied; }
};

} // namespace elab::ui
