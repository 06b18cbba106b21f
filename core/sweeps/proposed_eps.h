#pragma once
// The proposed ε for a target utility — one rule for the GUI and the CLI, so that
// `epsilonlab-cli utility --target U` reproduces the number the Utility view marks.
//
// The smallest ε in [epsMin, epsMax] whose utility meets the target (a loss: ≤ target; an
// accuracy: ≥ target): first on the chosen Taylor estimator of the first measuring point (Li
// et al. Algorithm 1's idea, docs/MATH.md §4.2), held at the non-private level (meanEstimate),
// unless the estimate is in doubt; else — in doubt, never reaching the target, or none — on the
// measured curve, linear in log ε between grid points and flat beyond its ends. The crossing is
// found by a 400-step scan on log ε from epsMin up, refined by 50 bisection steps.
//
// The estimate's proposal p is in doubt (set aside for the measurements; docs/MATH.md §4.6) when
//  - the measured curve covers p (measured points at or below and at or above it) and its own
//    crossing is missing or more than 2× from p: the measurements contradict the estimate;
//  - the other line that needs only F(ε̄) and F′(ε̄) (first-order for inverse-eps, inverse-eps for
//    the others), or the 1/ε curve through F(ε̄) and the non-private level, meets the target more
//    than 2× from p or not at all: shapes of the curve that far disagree, and nothing says which holds;
//  - the estimator's own line passes the non-private level between ε̄ and 1.2·max(ε̄, p): a line
//    that becomes impossible just past the target is not to be trusted at it;
//  - p is more than 10× from ε̄ (either way): a Taylor expansion far from its point.

#include "core/sweeps/utility_sweep.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

/// The smallest ε in [epsMin, epsMax] with f(ε) meeting target, or nullopt.
std::optional<double> smallestEpsMeeting(const std::function<double(double)>& f, double target, bool lowerIsBetter,
                                         double epsMin, double epsMax);

/// The measured means as a function of ε (linear in log ε, flat beyond the ends); empty if
/// fewer than two points. points in ascending ε.
std::function<double(double)> measuredCurve(const std::vector<SweepPoint>& points);

/// Why an estimate's proposal was set aside (None: it was not).
enum class EstimateDoubt {
    None,
    ContradictedByMeasurements,
    EstimatorsDisagree,
    LevelCurveDisagrees,
    PassesNonPrivate,
    FarFromMeasuringPoint
};

/// "none", "contradicted-by-measurements", "estimators-disagree", "level-curve-disagrees",
/// "passes-non-private", "far-from-measuring-point"
const char* toString(EstimateDoubt doubt);

struct ProposedEps {
    std::optional<double> eps; ///< none: no ε in range meets the target
    bool fromEstimate = false; ///< true: the estimator's line; false: the measured curve
    /// The estimate's proposal when it was set aside for the measured curve (doubt ≠ None).
    std::optional<double> setAside;
    EstimateDoubt doubt = EstimateDoubt::None;
    /// ContradictedByMeasurements: the measured crossing (NaN: none in range); PassesNonPrivate:
    /// the ε where the line passes the non-private level (+∞: its limit does); FarFromMeasuringPoint: ε̄;
    /// EstimatorsDisagree: where otherEstimator's line meets the target; LevelCurveDisagrees: where the
    /// 1/ε curve through F(ε̄) and the non-private level does (NaN: nowhere in range).
    double doubtEps = 0.0;
    Estimator otherEstimator = Estimator::FirstOrder; ///< EstimatorsDisagree: the line compared with
    double measureAt = 0.0;                           ///< ε̄ of the estimate (0: no estimate)
};

/// Why the estimate was set aside, in one sentence for the user ("" if it was not).
std::string doubtText(const ProposedEps& proposal, bool lowerIsBetter);

/// fit: the first measuring point's fits (nullptr: none; its nonPrivate is the level the line is
/// held at); estimator: the line to use. points: the measured grid so far, in ascending ε.
ProposedEps proposeEps(const std::vector<SweepPoint>& points, const MeasuringFit* fit, Estimator estimator,
                       double target, UtilityMetric metric, double epsMin, double epsMax);

} // namespace elab::core
