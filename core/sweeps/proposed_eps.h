#pragma once
// The proposed ε for a target utility — one rule for the GUI and the CLI (issue 10), so that
// `epsilonlab-cli utility --target U` reproduces the number the Utility view marks.
//
// The smallest ε in [epsMin, epsMax] whose utility meets the target (a loss: ≤ target; an
// accuracy: ≥ target): first on the chosen Taylor estimator of the first measuring point (Li
// et al. Algorithm 1's idea, docs/MATH.md §4.2), else — the estimate never reaches the target,
// or there is none — on the measured curve, linear in log ε between grid points and flat
// beyond its ends. The crossing is found by a 400-step scan on log ε from epsMin up, refined by
// 50 bisection steps.

#include "core/sweeps/utility_sweep.h"

#include <functional>
#include <optional>
#include <vector>

namespace elab::core {

/// The smallest ε in [epsMin, epsMax] with f(ε) meeting target, or nullopt.
std::optional<double> smallestEpsMeeting(const std::function<double(double)>& f, double target, bool lowerIsBetter,
                                         double epsMin, double epsMax);

/// The measured means as a function of ε (linear in log ε, flat beyond the ends); empty if
/// fewer than two points. points in ascending ε.
std::function<double(double)> measuredCurve(const std::vector<SweepPoint>& points);

struct ProposedEps {
    std::optional<double> eps; ///< none: no ε in range meets the target
    bool fromEstimate = false; ///< true: the estimator's line; false: the measured curve
};

/// fit: the first measuring point's fits (nullptr: none); estimator: the line to use.
ProposedEps proposeEps(const std::vector<SweepPoint>& points, const MeasuringFit* fit, Estimator estimator,
                       double target, UtilityMetric metric, double epsMin, double epsMax);

} // namespace elab::core
