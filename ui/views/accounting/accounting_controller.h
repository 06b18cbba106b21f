#pragma once
// Computes the Privacy accounting view's curves off the GUI thread (core/accounting/
// accounting_curves.h): latest request wins, so the chart follows the slider and the form.
// The dataset only supplies N when the settings leave it 0. GUI thread only.

#include "ui/jobs/compute_controller.h"
#include "ui/views/accounting/accounting_settings.h"

#include <memory>

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

private:
    void applySettings(const AccountingSettings& next) override;
    void start();

    JobSlot* m_job;
    std::shared_ptr<const core::AccountingCurves> m_curves;
    AccountingSettings m_curvesSettings;
    long long m_curvesRows = 0;
};

} // namespace elab::ui
