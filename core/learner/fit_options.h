#pragma once
// How hard PrivateLearner::fit and fitNonPrivate work, whatever the learner: when a fit that
// minimises an objective has converged and how many iterations it may take. A learner that
// minimises maps these onto its solver (the linear ERM mechanisms and the Gaussian classifier:
// Newton-CG, core/optim/newton_cg.h); one that trains for a fixed schedule of its own (DP-SGD:
// epochs in its own parameters) has nothing to stop early and ignores them.

#include "core/optim/newton_cg.h"

#include <string>

namespace elab::core {

struct FitOptions {
    double gradientTolerance = 1e-10; ///< converged when ‖∇J‖ ≤ this (absolute) ...
    double relativeTolerance = 1e-12; ///< ... or ≤ this · ‖∇J(θ₀)‖
    int maxIterations = 100;          ///< outer iterations before giving up (reported)
    int maxInnerIterations = 500;     ///< inner iterations per outer one (Newton-CG: CG steps)

    bool operator==(const FitOptions&) const = default;
    /// "" if valid; else why.
    std::string validate() const;
};

/// options for a learner that minimises by Newton-CG (the same tolerances and limits).
NewtonCgOptions newtonCgOptions(const FitOptions& options);

} // namespace elab::core
