#pragma once
// Runs the Privacy audit off the GUI thread (core/audit/mechanism_audit.h): one job prepares
// the data as the settings say, audits the chosen mechanism at the slider's ε with its runs
// streamed to the histograms, then (compareAll) every other private mechanism of the catalog
// at the same ε, one table row each; or the one-run audit (of each), or DP-SGD's white-box audit
// (its trainings' progress through the job). Progress and Cancel are the status bar's (the slot is
// indicated); a new setting restarts it (latest wins). The slider starts an audit only when it
// is released, never on every step of a drag. GUI thread only.

#include "ui/jobs/compute_controller.h"
#include "ui/views/audit/audit_settings.h"
#include "ui/views/audit/audit_state.h"

#include "core/learner/sweep_data.h"

#include <functional>
#include <vector>

namespace elab::ui {

class AuditController : public ComputeController<AuditSettings> {
    Q_OBJECT
public:
    explicit AuditController(QObject* parent = nullptr);
    ~AuditController() override;

    const AuditState& state() const { return m_state; }
    /// The audit shown is the applied settings' and has finished.
    bool upToDate() const;
    /// Runs the applied settings again (after a cancel or a failure).
    void recompute() { scheduleRerun(); }
    JobSlot* auditSlot() const { return m_job; }

private:
    void applySettings(const AuditSettings& next) override;
    void start();
    /// The one-run audits of kinds on data (on the job's thread); the job's completion.
    std::function<void()> runOneRunAudits(JobContext& job, const core::SweepData& data, const AuditSettings& s,
                                          const std::vector<core::MechanismKind>& kinds);
    /// The white-box audit of DP-SGD on data (on the job's thread); the job's completion.
    std::function<void()> runWhiteboxAudit(JobContext& job, const core::SweepData& data, const AuditSettings& s);

    JobSlot* m_job;
    AuditState m_state;
    AuditSettings m_stateSettings; ///< the settings m_state belongs to
};

} // namespace elab::ui
