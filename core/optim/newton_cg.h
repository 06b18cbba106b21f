#pragma once
// Newton-CG with Armijo backtracking (Nocedal & Wright, Alg. 7.1; tolerances: docs/MATH.md §0.4): the Newton system
// ∇²J d = −∇J is solved inexactly by CG with forcing term η = min(0.5, √‖g‖), so the
// outer iteration converges superlinearly without ever forming the Hessian — unless the
// objective's preconditioner is the factorised Hessian at θ itself (preconditionerIsHessian):
// then the step is M⁻¹(−∇J), the exact Newton step, without CG.

#include "core/optim/objective.h"

#include <functional>
#include <stop_token>
#include <string>

namespace elab::core {

struct NewtonCgOptions {
    double gradientTolerance = 1e-10; ///< stop when ‖∇J‖ ≤ this (absolute) ...
    double relativeTolerance = 1e-12; ///< ... or ≤ this · ‖∇J(θ₀)‖
    int maxIterations = 100;
    int maxCgIterations = 500;
    std::string validate() const;
};

enum class NewtonCgStatus { Converged, MaxIterations, LineSearchFailed, Stopped };

const char* toString(NewtonCgStatus status);

struct NewtonCgResult {
    Eigen::VectorXd theta;
    double value = 0.0;
    double gradientNorm = 0.0;
    int iterations = 0;
    int cgIterations = 0; ///< total, i.e. Hessian-vector products in CG
    int exactSteps = 0;   ///< Newton steps solved with a factorised Hessian (no CG)
    NewtonCgStatus status = NewtonCgStatus::MaxIterations;
};

/// Called after every outer iteration; return false to stop (status Stopped).
using IterationCallback = std::function<bool(int iteration, double value, double gradientNorm)>;

/// Minimises a convex objective from theta0 (warm start). The stop token is checked
/// between iterations. Thread: any; the objective must not be shared during the call.
NewtonCgResult minimizeNewtonCg(Objective& objective, Eigen::VectorXd theta0, const NewtonCgOptions& options = {},
                                std::stop_token stop = {}, const IterationCallback& callback = {});

} // namespace elab::core
