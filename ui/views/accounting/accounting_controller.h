#pragma once
// Computes the Privacy accounting view's curves off the GUI thread (core/accounting/
// accounting_curves.h): latest request wins, so the chart follows the slider and the form.
// The dataset only supplies N when the settings leave it 0. GUI thread only.

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

private:
    void applySettings(const AccountingSettings& next) override;
    void start();

    JobSlot* m_job;
    std::shared_ptr<const core::AccountingCurves> m_curves;
    AccountingSettings m_curvesSettings;
    long long m_curvesRows = 0;
    std::optional<SweepForCost> m_sweep;
    int m_sweepVersion = 0;
    std::vector<core::UtilityCost> m_costs;
    int m_costsVersion = 0; ///< the m_sweepVersion m_costs were computed for
};

} // namespace elab::ui
