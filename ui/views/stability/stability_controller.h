#pragma once
// Runs the stability study of the Stability view off the GUI thread (docs/STYLE.md §2):
// one latest-wins job prepares the data (split, model-default preprocessing) and calls
// core::runStabilitySweep, streaming each finished (ρ, method) cell to the GUI thread.
// Settings changes are coalesced (one frame, ComputeController); an unchanged setting
// starts nothing. Cancel keeps the finished cells; the last failure or invalid settings are
// in lastError().
//
// Threads: every function and signal is for the GUI thread.

#include "ui/jobs/compute_controller.h"
#include "ui/views/stability/stability_settings.h"
#include "ui/views/stability/stability_state.h"

namespace elab::ui {

class StabilityController : public ComputeController<StabilitySettings> {
    Q_OBJECT
public:
    explicit StabilityController(QObject* parent = nullptr);
    ~StabilityController() override;

    /// Runs the applied settings again (after a cancel or a failure).
    void recompute() { scheduleRerun(); }

    const StabilityState& state() const { return m_state; }
    /// Overall progress of the running job in [0, 1] (baselines, cells, model stability).
    double progress() const { return m_progress; }

    JobSlot* sweepSlot() const { return m_sweep; }

private:
    void applySettings(const StabilitySettings& next) override;
    void reportFailure(const QString& message) override;
    void startSweep();

    JobSlot* m_sweep = nullptr;
    StabilityState m_state;
    double m_progress = 0.0;
};

} // namespace elab::ui
