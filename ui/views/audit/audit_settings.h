#pragma once
// What the Privacy audit view is set to (issue 14; docs/MATH.md §5): the data preparation and
// mechanism (the mechanism panel's, at one ε), T runs per neighbour, the confidence α, the seed,
// the canary (the default strongest unit row, or a training row), the slider's ε, and whether
// every other private mechanism is audited too (the comparison table). Its session block is
// "audit". No Qt types: copied freely across threads.

#include "core/audit/mechanism_audit.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/whitebox_dpsgd_audit.h"
#include "core/util/option_names.h"
#include "ui/widgets/training_choice.h"

#include <cstdint>
#include <string>

namespace elab::ui {

/// The training choice (TrainingChoice: preprocess — as the CLI's audit, the intercept on, rows
/// clipped —, testFraction — held-out rows are not used by the audit; 0 by default —, mechanism,
/// seed) and the audit.
/// Two neighbouring datasets, T runs each (core/audit/mechanism_audit.h); or one training run with
/// m canaries, each in or out by its own coin (core/audit/one_run_audit.h); or (DP-SGD only) T
/// trainings with gradient canaries, every step seen (core/audit/whitebox_dpsgd_audit.h).
enum class AuditMethod { TwoDatasets, OneRun, Whitebox };
/// "two-datasets", "one-run", "whitebox" (sessions, the CLI's --method)
const core::OptionNames<AuditMethod>& auditMethodNames();
const core::OptionNames<core::WhiteboxView>& whiteboxViewNames(); ///< "iterates", "residual"

struct AuditSettings : TrainingChoice {
    AuditMethod method = AuditMethod::TwoDatasets;
    int canaries = 1000;    ///< m of the one-run audit (capped by the core at the feature columns)
    int runs = 1000;        ///< T per neighbour
    int whiteboxRuns = 400; ///< trainings of the white-box audit
    core::WhiteboxView whiteboxView = core::WhiteboxView::Iterates; ///< what the white-box auditor sees
    double alpha = 0.05;                                            ///< ε_LB holds with confidence 1 − α
    long long canaryRow = -1; ///< ≥ 0: this training row (label flipped against the model)
    double currentEps = 1.0;  ///< the audited claim (finite)
    bool compareAll = false;  ///< also audit every other private mechanism at this ε
    /// Teaching: a mechanism broken on purpose — trained at ε·noiseDivisor (its noise divided by
    /// about this factor) while ε is claimed, so that an audit can be seen to catch it. 1: correct.
    double noiseDivisor = 1.0;
    static constexpr double kMaxNoiseDivisor = 1000.0;

    static constexpr int kMinRuns = 20;
    static constexpr int kMaxRuns = 1000000;
    static constexpr int kMinCanaries = 2;
    static constexpr int kMaxCanaries = 1000000;
    static constexpr int kMinWhiteboxRuns = 2;
    static constexpr int kMaxWhiteboxRuns = 1000000;

    /// "" if valid; otherwise the first problem, in words a user can act on.
    std::string validate() const;
    /// The core's spec for mechanism kind (the chosen one, or another for the table).
    core::AuditSpec toSpec() const;
    /// The one-run audit's spec for the chosen mechanism.
    core::OneRunAuditSpec toOneRunSpec() const;
    /// The white-box audit's spec (the chosen mechanism, which must be DP-SGD).
    core::WhiteboxAuditSpec toWhiteboxSpec() const;
    bool operator==(const AuditSettings&) const = default;
};

} // namespace elab::ui
