#pragma once
// The monotonicity self-check of every ε-sweep (issue 9): a correct mechanism adds less noise as
// ε grows, so its measured utility must not get worse with ε beyond what the noise of the
// measurement allows. A sweep that does is the first symptom of a broken mechanism (a wrong
// branch rule, a sensitivity error) — or, much more mildly, of the extra ridge at small ε
// regularising better than Λ alone. The check reports; it never changes a result.
//
// Rule: grid points in ascending ε with R_i ≥ 2 repetitions each. For every point j, take the
// earlier point i < j with the best mean; flag (i, j) when mean_j is worse than mean_i by more
// than z standard errors of the difference, se = √(sd_i²/R_i + sd_j²/R_j) (z = 3 by default).
// The unpaired se ignores that repetitions share their noise draw across ε (which correlates
// them positively), so it overstates the se: the check errs towards silence, not false alarms.

#include "core/learner/mechanism.h"
#include "core/sweeps/utility_sweep.h"

#include <string>
#include <vector>

namespace elab::core {

struct MonotonicityViolation {
    double epsBetter = 0.0; ///< the smaller ε, with the better mean
    double epsWorse = 0.0;  ///< the larger ε, with the worse mean
    Eigen::Index gridBetter = 0, gridWorse = 0;
    double meanBetter = 0.0, meanWorse = 0.0;
    double standardError = 0.0; ///< of the difference of the means
    double zScore() const;      ///< |meanWorse − meanBetter| / standardError (∞ when se = 0)
    /// Another cause than a broken mechanism that fits the numbers ("" if none known): see
    /// explainByExtraRidge.
    std::string note;
};

struct MonotonicityCheck {
    bool checked = false; ///< false: too few repetitions or points (see reason)
    std::string reason;   ///< why the check could not run ("" when checked)
    double z = 3.0;
    std::vector<MonotonicityViolation> violations; ///< ascending in epsWorse

    bool ok() const { return violations.empty(); }
    /// One sentence per violation, naming both grid points ("" when none or not checked).
    std::string message(bool higherIsBetter) const;
};

/// points in ascending ε (a sweep's points; gaps from a cancel are fine). higherIsBetter: true
/// for accuracies, false for losses.
MonotonicityCheck checkMonotonicity(const std::vector<SweepPoint>& points, bool higherIsBetter, double z = 3.0);

/// Notes the violations that the mechanism's own extra ridge may explain: when its
/// "extra_ridge" parameter (objective perturbation: Δ_ε, or Δ of the pure-ε second branch)
/// is smaller at the worse, larger ε than at the better one, the better point was regularised
/// more, which at a small Λ can outweigh the extra noise (measured: builtin:sparse, pure ε,
/// Λ = 0.01, BENCHMARKS.md twelfth session). guarantees: per grid index (a sweep's); points
/// outside it, or without the parameter, get no note.
void explainByExtraRidge(MonotonicityCheck& check, const std::vector<PrivacyGuarantee>& guarantees);

} // namespace elab::core
