#pragma once
// Words for the Utility vs ε view: the readout at the slider's ε (the measured utility, the
// Taylor estimates, the non-private value, the theory's bound, the monotonicity warnings), the
// target box (the proposed ε and its warning) and the verification's steps and summary. The
// view shows them; tests read them. Pure functions of their arguments: any thread.

#include "ui/views/utility/utility_state.h"
#include "ui/widgets/utility_settings.h"

#include "core/sweeps/proposed_eps.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace elab::ui {

/// What the readout needs of the controller besides its settings and state.
struct UtilityReadoutContext {
    bool dragging = false;   ///< the slider's handle is held: the latest probe is shown at its own ε
    bool hasDataset = false; ///< a dataset is loaded ("computing…" until the probe arrives)
    QString lastError;       ///< the last failure ("" after a success)
};

/// The readout's lines at settings.currentEps, one per line of the box.
QStringList utilityReadoutLines(const UtilitySettings& settings, const UtilityState& state,
                                const UtilityReadoutContext& context);

/// The target box: the proposed ε (or why there is none) and a warning ("" if none).
struct ProposalText {
    QString proposal;
    QString warning;
};

/// proposal: the smallest ε that meets settings.target by the CLI's rule (UtilityController::proposal,
/// core/sweeps/proposed_eps.h); estimatesAvailable: estimates exist. An estimate set aside is said in
/// the warning, and while the sweep runs the proposal waits for the measurements.
ProposalText utilityProposalText(const UtilitySettings& settings, const UtilityState& state,
                                 const core::ProposedEps& proposal, bool estimatesAvailable);

/// One row of the verification table: ε, measured, meets, trainings.
QStringList verificationStepCells(const core::ChooseEpsStep& step);

/// Under the verification table: met where, after how many trainings, against the bisection.
QString verificationSummary(const core::ChooseEpsResult& result, double target);

/// The compared mechanisms at settings.currentEps, best first (core::rankByUtility): one line each,
/// "1. objpert-gauss: 0.912 ± 0.004", from the measurement at that ε when there is one, else "≈"
/// on the measured curve (linear in log ε; while dragging or before the measurement). Then, with
/// a target, the ε each needs on its curve ("measured") and, after Verify, verified, and which
/// needs the least. Empty without a compare set.
QStringList comparisonLines(const UtilitySettings& settings, const UtilityState& state, bool dragging);

/// The bound of MATH.md §4.5 at eps, interpolated log-log between the grid points it was
/// computed at (NaN outside the grid or without one).
double trainLossBoundAt(const UtilityState& state, double eps);

} // namespace elab::ui
