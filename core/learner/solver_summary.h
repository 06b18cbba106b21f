#pragma once
// What the Newton-CG solver reported over the many fits of a sweep or an ε search: counts,
// the slowest fit, the worst final gradient, and every fit that did not converge, by name.
// Every guarantee of docs/MATH.md §3 assumes the exact minimiser, so such fits are worth naming.

#include "core/optim/newton_cg.h"

#include <vector>

namespace elab::core {

/// One fit's solver outcome and where it was made.
struct SolverRecord {
    double eps = 0.0; ///< the classifier's ε (not a one-vs-rest model's ε/K); +∞: non-private
    int repetition = 0;
    int model = -1; ///< one-vs-rest class k; −1 for a single binary model
    NewtonCgStatus status = NewtonCgStatus::Converged;
    int iterations = 0;        ///< Newton iterations
    double gradientNorm = 0.0; ///< final ‖∇J‖
};

struct SolverSummary {
    int fits = 0;
    int converged = 0;
    int maxIterations = 0;                  ///< most Newton iterations of any fit
    double worstGradientNorm = 0.0;         ///< largest final ‖∇J‖ of any fit
    std::vector<SolverRecord> notConverged; ///< in the order added

    /// Adds one fit. Not thread-safe: collect per task, add in a fixed order.
    void add(const SolverRecord& record);
    /// Adds every fit of other (its non-converged fits after this one's).
    void merge(const SolverSummary& other);
};

/// The record of a solver result; model = −1 when there is a single model.
SolverRecord solverRecord(const NewtonCgResult& result, double eps, int repetition, int model);

} // namespace elab::core
