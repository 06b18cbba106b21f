#pragma once
// Conjugate gradients for A x = b with A symmetric positive definite, given only A·v.
// Used by Newton-CG (truncated) and by the Taylor derivative θ′ (W θ′ = r, docs/MATH.md §4.1).

#include <Eigen/Core>

#include <functional>

namespace elab::core {

using LinearOperator = std::function<void(const Eigen::VectorXd& v, Eigen::VectorXd& out)>;
/// out = M⁻¹ r for a symmetric positive definite M ≈ A.
using Preconditioner = LinearOperator;

struct CgResult {
    Eigen::VectorXd x;
    int iterations = 0;
    double residualNorm = 0.0;
    bool converged = false;
    bool negativeCurvature = false; ///< stopped because dᵀAd ≤ 0 (A not positive definite)
};

/// Stops when ‖b − A x‖ ≤ tolerance·‖b‖ or after maxIterations. Starts from x0 if given
/// (same size as b), else from 0. With a preconditioner M, runs preconditioned CG
/// (Nocedal & Wright Alg. 5.3) — same solution, fewer iterations when M ≈ A.
CgResult conjugateGradient(const LinearOperator& apply, const Eigen::VectorXd& b, double tolerance, int maxIterations,
                           const Eigen::VectorXd* x0 = nullptr, const Preconditioner& preconditioner = {});

} // namespace elab::core
