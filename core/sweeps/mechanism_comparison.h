#pragma once
// Mechanisms compared on one ε grid with the same seeds (the CLI's `utility --mechanism a,b,c`
// and the Utility view's compare set): the ε each needs for a target utility, measured on its
// curve and then verified by measuring there, the ranking at one ε and which mechanism needs the
// least ε. One set of rules, so that the CLI's report and the GUI's readout agree.
//
// The ε a mechanism needs (docs/MATH.md §4.2's measured curve): ε_m, the smallest ε of the grid's
// range where the measured mean, linear in log ε between grid points, meets the target
// (smallestEpsMeeting on measuredCurve). Verified: the mean over every repetition (the sweep's
// seeds, so the sweep's noise draws) measured at ε_m; if it misses, a bisection on log ε between
// ε_m (missing) and the grid point above it (met in the sweep) until the bracket is within
// `relativeWidth` or `maxSteps` measurements were made. The verified ε is the smallest measured ε
// that met the target (ε_m itself, a bisection point or that grid point).

#include "core/learner/fit_options.h"
#include "core/learner/utility_metric.h"
#include "core/sweeps/utility_sweep.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace elab::core {

class PreparedProblem;

struct TargetEpsSpec {
    double target = 0.0;
    UtilityMetric metric = UtilityMetric::TrainLoss; ///< a loss: met when ≤ target; an accuracy: when ≥
    int repeats = 10;
    std::uint64_t seed = 1;
    int threads = 0;
    FitOptions solverOptions;
    int maxSteps = 6;            ///< measurements after the one at ε_m
    double relativeWidth = 0.02; ///< stop when hi / lo ≤ 1 + relativeWidth
};

struct TargetEpsStep {
    double eps = 0.0;
    double mean = 0.0;
    double sd = 0.0;
    bool meets = false;
};

struct TargetEps {
    std::optional<double> measured;   ///< ε_m on the measured curve (none: the curve never meets the target)
    std::optional<double> verified;   ///< the smallest measured ε that met the target
    std::vector<TargetEpsStep> steps; ///< the verification's measurements, in order (none when ε_m is a grid point)
    bool cancelled = false;
};

/// ε_m alone: the smallest ε in [first, last grid ε] where the measured curve meets target.
/// points: the measured grid in ascending ε. Thread: any.
std::optional<double> measuredTargetEps(const std::vector<SweepPoint>& points, double target, UtilityMetric metric);

/// ε_m, then verified on problem (see the file comment). points: the sweep of this problem at
/// spec.repeats and spec.seed, ascending ε. On cancel returns what was measured, cancelled = true.
TargetEps verifyTargetEps(const PreparedProblem& problem, const std::vector<SweepPoint>& points,
                          const TargetEpsSpec& spec, RunContext* ctx = nullptr);

/// Indices of values from best to worst (higher is better for accuracies, lower for losses); NaN
/// last; ties keep their order. Thread: any.
std::vector<std::size_t> rankByUtility(const std::vector<double>& values, UtilityMetric metric);

/// The index of the smallest ε among those given (none: nothing given); ties: the first. Thread: any.
std::optional<std::size_t> leastEps(const std::vector<std::optional<double>>& eps);

} // namespace elab::core
