#pragma once
// What the Privacy audit view has computed, as the GUI thread holds it: the scores of the chosen
// mechanism's runs as they stream in (NaN: not yet run), its finished audit (or its one-run audit,
// every canary's coin and score, or its white-box audit, every trial's score), and — when every
// mechanism is compared — one row per private mechanism of the catalog (the chosen one first).

#include "core/audit/mechanism_audit.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/whitebox_dpsgd_audit.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace elab::ui {

struct AuditRow {
    core::MechanismKind kind = core::MechanismSpec{}.kind;
    std::shared_ptr<const core::AuditResult> result;           ///< null: not audited yet (or failed)
    QString error;                                             ///< why this mechanism could not be audited
    std::shared_ptr<const core::OneRunAuditResult> oneRun;     ///< the one-run audit's instead of result
    std::shared_ptr<const core::WhiteboxAuditResult> whitebox; ///< the white-box audit's instead of result

    bool audited() const { return result || oneRun || whitebox; }
    /// The threshold bound of the two-dataset or white-box audit (null: one run, or not audited).
    const core::AuditBound* thresholdBound() const {
        return result ? &result->bound : whitebox ? &whitebox->bound : nullptr;
    }
    double epsLB() const { return oneRun ? oneRun->bound.epsLB : thresholdBound() ? thresholdBound()->epsLB : 0.0; }
    double maxCertifiable() const {
        return oneRun ? oneRun->bound.maxCertifiable : thresholdBound() ? thresholdBound()->maxCertifiable : 0.0;
    }
    bool violated() const {
        return result ? result->violated() : oneRun ? oneRun->violated() : whitebox && whitebox->violated();
    }
};

struct AuditState {
    double eps = 0.0;            ///< the claim being (or last) audited
    std::vector<double> scoresD; ///< the chosen mechanism's runs so far (NaN: not run)
    std::vector<double> scoresDPrime;
    int runsDone = 0;                                      ///< finished runs of the chosen mechanism, both neighbours
    std::shared_ptr<const core::AuditResult> result;       ///< the chosen mechanism's finished audit
    std::shared_ptr<const core::OneRunAuditResult> oneRun; ///< the chosen mechanism's one-run audit
    std::shared_ptr<const core::WhiteboxAuditResult> whitebox; ///< the chosen mechanism's white-box audit
    std::vector<AuditRow> rows;                                ///< compareAll: every private mechanism (chosen first)
    bool finished = false;                                     ///< every audit asked for has finished
};

} // namespace elab::ui
