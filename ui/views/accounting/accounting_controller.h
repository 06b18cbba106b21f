#pragma once
// Computes the Privacy accounting view's curves off the GUI thread (core/privacy/
// accounting_curves.h). Slider steps arrive by setCurrentEps, uncoalesced (setSliderStep). A
// change of ε or of the calibrating accountant does not restart a running computation: the latest
// such change is held and starts as soon as the running one delivers (holdWhileRunning), reusing
// its ε(σ) curves, so the charts follow a drag instead of being restarted on every step (a step
// takes 5–30 ms, a drag moves every 16 ms). Any other change restarts at once (latest request
// wins). The dataset only supplies N when the settings leave it 0. GUI thread only.

#include "ui/jobs/compute_controller.h"
#include "ui/views/accounting/accounting_settings.h"

#include <memory>
#include <optional>
#include <vector>

namespace elab::ui {

class AccountingController : public ComputeController<AccountingSettings> {
    Q_OBJECT
public:
    explicit AccountingController(QObject* parent = nullptr);
    ~AccountingController() override;

    /// The curves shown (null before the first result).
    std::shared_ptr<const core::AccountingCurves> curves() const { return m_curves; }
    /// The curves match the applied settings.
    bool upToDate() const;
    /// N the settings resolve to (their rows, else the dataset's; 0: none).
    long long rows() const;
    /// The Utility tab's DP-SGD sweep whose utility cost per accountant the table shows; a change
    /// recomputes (off the GUI thread: each cost is a calibration).
    void setSweep(std::optional<SweepForCost> sweep);
    const std::optional<SweepForCost>& sweep() const { return m_sweep; }
    /// Per kAccountants entry at the curves' ε; empty without a sweep.
    const std::vector<core::UtilityCost>& costs() const { return m_costs; }

    // The slider's ε (finite) arrives by setCurrentEps (ComputeController): computed at once
    // when nothing runs, else as soon as the running computation delivers; while the handle is
    // held the view holds its texts still.
    /// The exact ε of every accountant at σ (a hovered point: at a small σ one RDP accounting
    /// takes up to 30 ms), computed off the GUI thread; readoutReady follows, for the latest σ
    /// asked only.
    void requestReadout(double sigma);

signals:
    void readoutReady(double sigma, const QString& text);

private:
    void applySettings(const AccountingSettings& next) override;
    void start();

    JobSlot* m_job;
    JobSlot* m_readout;
    std::shared_ptr<const core::AccountingCurves> m_curves;
    AccountingSettings m_curvesSettings;
    long long m_curvesRows = 0;
    std::optional<SweepForCost> m_sweep;
    int m_sweepVersion = 0;
    std::vector<core::UtilityCost> m_costs;
    int m_costsVersion = 0;           ///< the m_sweepVersion m_costs were computed for
    core::AccountingInputs m_running; ///< the inputs of the job running (or last started)
};

} // namespace elab::ui
