#pragma once
// Computes the utility explorer's numbers off the GUI thread (docs/STYLE.md §2):
//  - sweep:     prepare the data, then the measured curve over the grid, streamed per point;
//  - measuring: the Taylor measuring fits (instant estimates at any ε afterwards);
//  - probe:     the measured utility at the slider's ε (preview fidelity while dragging; the
//               steps of a drag follow the base's drag path: a step arriving while a probe runs
//               is held and measured when it delivers, so a drag shows measured values);
//  - verify:    ε for the target utility (Algorithm 1 + refinement), every step; with a compare
//               set, also the verified ε of every mechanism compared (core/sweeps/mechanism_comparison.h);
//  - compare:   after the main sweep, the compared mechanisms' sweeps one after another on the
//               same grid and seeds, streamed per point (UtilityState::compared);
//  - compare-probe: each compared mechanism measured at the slider's ε once the handle rests.
// Settings changes are coalesced (one frame, ComputeController); only what a change
// invalidates is recomputed. Each job kind has its own latest-wins slot, so stale results
// are dropped.
//
// Threads: every function and signal is for the GUI thread.

#include "ui/jobs/compute_controller.h"
#include "ui/views/utility/utility_state.h"
#include "ui/widgets/utility_settings.h"

#include "core/data/dataset.h"
#include "core/sweeps/proposed_eps.h"

#include <optional>

namespace elab::ui {

class UtilityController : public ComputeController<UtilitySettings> {
    Q_OBJECT
public:
    explicit UtilityController(QObject* parent = nullptr);
    ~UtilityController() override;

    // The slider's ε (+∞: non-private) arrives by setCurrentEps (ComputeController): while the
    // handle is held the probe measures with few repetitions (a preview), in full on release.
    /// Measures at the proposed ε and refines until the target is met (chooseEpsilon).
    void verifyTarget();

    const UtilityState& state() const { return m_state; }

    /// Instant: the mean Taylor estimate from measuring point m at eps (NaN if unavailable).
    double estimateAt(std::size_t m, core::Estimator estimator, double eps) const;
    /// Smallest ε of the sweep range whose estimate (first measuring point, first chosen
    /// estimator) meets the target; if no estimate is available or it never meets it, the
    /// smallest ε where the measured curve (interpolated in log ε) does. nullopt if there is
    /// no target or nothing meets it.
    std::optional<double> proposedEps() const;
    /// Whether proposedEps() comes from a Taylor estimate (else from the measured curve).
    bool proposalFromEstimate() const;
    /// The proposal by the CLI's rule (core/sweeps/proposed_eps.h): ε, its source, an estimate set aside.
    core::ProposedEps proposal() const;
    /// Taylor estimates exist for the current settings.
    bool estimatesAvailable() const;

    JobSlot* sweepSlot() const { return m_sweep; }
    JobSlot* measuringSlot() const { return m_measuring; }
    JobSlot* probeSlot() const { return m_probe; }
    JobSlot* verifySlot() const { return m_verify; }
    JobSlot* compareSlot() const { return m_compare; }

signals:
    /// The data was prepared and the sweep started (the grid is known).
    void sweepStarted();

private:
    void applySettings(const UtilitySettings& next) override;
    void retryHeld() override { requestProbe(); }
    void sliderReleased() override;
    void startSweep();
    void startMeasuring();
    /// The probe the applied ε needs (none at ∞ or without data): held while dragging and one
    /// runs, else started (restarting a running one).
    void requestProbe();
    /// The shown probe is not at the applied ε, or is a preview and the handle was let go.
    bool probeNeeded() const;
    void startProbe();
    /// The compared mechanisms' sweeps still missing (after the main sweep completed).
    void startCompare();
    /// Each compared mechanism at the applied ε, once the handle rests and their sweeps ended.
    void requestCompareProbe();

    JobSlot* m_sweep = nullptr;
    JobSlot* m_measuring = nullptr;
    JobSlot* m_probe = nullptr;
    JobSlot* m_verify = nullptr;
    JobSlot* m_compare = nullptr;
    JobSlot* m_compareProbe = nullptr;
    UtilityState m_state;
};

} // namespace elab::ui
