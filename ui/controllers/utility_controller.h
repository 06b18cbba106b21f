#pragma once
// Computes the utility explorer's numbers off the GUI thread (docs/STYLE.md §2):
//  - sweep:     prepare the data, then the measured curve over the grid, streamed per point;
//  - measuring: the Taylor measuring fits (instant estimates at any ε afterwards);
//  - probe:     the measured utility at the slider's ε (preview fidelity while dragging);
//  - verify:    ε for the target utility (Algorithm 1 + refinement), every step.
// Settings changes are coalesced (one frame); only what a change invalidates is recomputed.
// Each job kind has its own latest-wins slot, so stale results are dropped.
//
// Threads: every function and signal is for the GUI thread.

#include "ui/controllers/job_slot.h"
#include "ui/controllers/utility_state.h"
#include "ui/utility/utility_settings.h"

#include "core/data/dataset.h"
#include "core/experiment/proposed_eps.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace elab::ui {

class UtilityController : public QObject {
    Q_OBJECT
public:
    explicit UtilityController(QObject* parent = nullptr);
    ~UtilityController() override;

    /// A newly loaded dataset: everything is recomputed.
    void setDataset(std::shared_ptr<const core::Dataset> dataset);
    /// New settings; applied after a one-frame pause (bursts coalesce into one update).
    void setSettings(const UtilitySettings& settings);
    /// The slider's ε (+∞: non-private). preview: measure with few repetitions (dragging).
    void setCurrentEps(double eps, bool preview);
    /// Measures at the proposed ε and refines until the target is met (chooseEpsilon).
    void verifyTarget();
    /// Stops every running job; finished points are kept.
    void cancel();

    const UtilitySettings& settings() const { return m_applied; }
    const UtilityState& state() const { return m_state; }
    bool hasDataset() const { return m_dataset != nullptr; }
    std::shared_ptr<const core::Dataset> dataset() const { return m_dataset; }
    /// Any job running or a settings change waiting to be applied.
    bool isBusy() const;
    /// The message of the last failure ("" after a success).
    QString lastError() const { return m_error; }

    /// Instant: the mean Taylor estimate from measuring point m at eps (NaN if unavailable).
    double estimateAt(std::size_t m, core::Estimator estimator, double eps) const;
    /// Smallest ε of the sweep range whose estimate (first measuring point, first chosen
    /// estimator) meets the target; if no estimate is available or it never meets it, the
    /// smallest ε where the measured curve (interpolated in log ε) does. nullopt if there is
    /// no target or nothing meets it.
    std::optional<double> proposedEps() const;
    /// Whether proposedEps() comes from a Taylor estimate (else from the measured curve).
    bool proposalFromEstimate() const;
    /// Taylor estimates exist for the current settings.
    bool estimatesAvailable() const;

    JobSlot* sweepSlot() const { return m_sweep; }
    JobSlot* measuringSlot() const { return m_measuring; }
    JobSlot* probeSlot() const { return m_probe; }
    JobSlot* verifySlot() const { return m_verify; }
    /// Waits for every worker to return (tests, shutdown). Results are still delivered by
    /// the event loop afterwards.
    void waitForIdle();

signals:
    /// Anything new to draw (points streamed, estimates, probe, verification, reset).
    void stateChanged();
    /// The data was prepared and the sweep started (the grid is known).
    void sweepStarted();
    void failed(const QString& message);
    void busyChanged(bool busy);
    /// Every job finished and no change is pending.
    void idle();

private:
    void applyPending();
    void startSweep();
    void startMeasuring();
    void startProbe();
    void onSlotBusyChanged();
    core::ProposedEps proposal() const; ///< core/experiment/proposed_eps.h, the CLI's rule

    JobSlot* m_sweep = nullptr;
    JobSlot* m_measuring = nullptr;
    JobSlot* m_probe = nullptr;
    JobSlot* m_verify = nullptr;
    QTimer m_coalesce;
    QTimer m_probeTimer;
    std::shared_ptr<const core::Dataset> m_dataset;
    UtilitySettings m_pending;
    UtilitySettings m_applied;
    bool m_havePending = false;
    bool m_needSweep = false;
    bool m_previewProbe = false;
    bool m_wasBusy = false;
    UtilityState m_state;
    QString m_error;
};

} // namespace elab::ui
