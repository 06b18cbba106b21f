#pragma once
// Runs the stability study of the Stability view off the GUI thread (docs/STYLE.md §2):
// one latest-wins job prepares the data (split, model-default preprocessing) and calls
// core::runStabilitySweep, streaming each finished (ρ, method) cell to the GUI thread.
// Settings changes are coalesced (one frame); an unchanged setting starts nothing. Cancel
// keeps the finished cells.
//
// Threads: every function and signal is for the GUI thread.

#include "ui/controllers/job_slot.h"
#include "ui/controllers/stability_state.h"
#include "ui/stability/stability_settings.h"

#include "core/data/dataset.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace elab::ui {

class StabilityController : public QObject {
    Q_OBJECT
public:
    explicit StabilityController(QObject* parent = nullptr);
    ~StabilityController() override;

    /// A newly loaded dataset (null: none): everything is recomputed.
    void setDataset(std::shared_ptr<const core::Dataset> dataset);
    /// New settings; applied after a one-frame pause (bursts coalesce into one run).
    void setSettings(const StabilitySettings& settings);
    /// Stops the run; finished cells are kept (state().cancelled).
    void cancel();
    /// Runs the applied settings again (after a cancel or a failure).
    void recompute();

    /// The settings of the current (or last) run; pendingSettings() what was set last.
    const StabilitySettings& settings() const { return m_applied; }
    const StabilitySettings& pendingSettings() const { return m_havePending ? m_pending : m_applied; }
    const StabilityState& state() const { return m_state; }
    bool hasDataset() const { return m_dataset != nullptr; }
    std::shared_ptr<const core::Dataset> dataset() const { return m_dataset; }
    /// The job is running or a change waits to be applied.
    bool isBusy() const;
    /// The message of the last failure or of invalid settings ("" after a success).
    QString lastError() const { return m_error; }
    /// Overall progress of the running job in [0, 1] (baselines, cells, model stability).
    double progress() const { return m_progress; }

    JobSlot* sweepSlot() const { return m_sweep; }
    /// Waits for the worker to return (tests, shutdown); deliveries follow via the event loop.
    void waitForIdle();

signals:
    /// Anything new to draw: a cell, the final result, a reset, a cancel.
    void stateChanged();
    /// setDataset was called (the view adapts its form: positive class, model).
    void datasetChanged();
    void failed(const QString& message);
    void busyChanged(bool busy);
    /// The job finished and no change is pending.
    void idle();

private:
    void applyPending();
    void startSweep();
    void onSlotBusyChanged();

    JobSlot* m_sweep = nullptr;
    QTimer m_coalesce;
    std::shared_ptr<const core::Dataset> m_dataset;
    StabilitySettings m_pending;
    StabilitySettings m_applied;
    bool m_havePending = false;
    bool m_needSweep = false;
    bool m_wasBusy = false;
    StabilityState m_state;
    QString m_error;
    double m_progress = 0.0;
};

} // namespace elab::ui
