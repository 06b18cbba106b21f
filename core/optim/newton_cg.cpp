#include "core/optim/newton_cg.h"

#include "core/optim/conjugate_gradient.h"
#include "core/util/vector_state.h"

#include <algorithm>
#include <cmath>

namespace elab::core {

std::string NewtonCgOptions::validate() const {
    if (!(gradientTolerance >= 0.0) || !(relativeTolerance >= 0.0))
        return "tolerances must be non-negative";
    if (maxIterations < 1 || maxCgIterations < 1)
        return "iteration limits must be positive";
    return {};
}

const char* toString(NewtonCgStatus status) {
    switch (status) {
    case NewtonCgStatus::Converged: return "converged";
    case NewtonCgStatus::MaxIterations: return "max-iterations";
    case NewtonCgStatus::LineSearchFailed: return "line-search-failed";
    case NewtonCgStatus::Stopped: return "stopped";
    }
    return "?";
}

NewtonCgResult minimizeNewtonCg(Objective& objective, Eigen::VectorXd theta0, const NewtonCgOptions& options,
                                std::stop_token stop, const IterationCallback& callback) {
    clearUpperVectorState(); // core/util/vector_state.h: the SSE loops below at full speed
    NewtonCgResult result;
    result.theta = std::move(theta0);
    const Eigen::Index p = objective.dimension();
    Eigen::VectorXd g(p), step(p), trial(p);
    double value = objective.evaluate(result.theta);
    objective.gradient(g);
    double gNorm = g.norm();
    const double target = std::max(options.gradientTolerance, options.relativeTolerance * gNorm);
    const LinearOperator hessian = [&objective](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
        objective.hessianVector(v, out);
    };

    for (int it = 0;; ++it) {
        result.iterations = it;
        if (gNorm <= target) {
            result.status = NewtonCgStatus::Converged;
            break;
        }
        if (it == options.maxIterations) {
            result.status = NewtonCgStatus::MaxIterations;
            break;
        }
        if (stop.stop_requested()) {
            result.status = NewtonCgStatus::Stopped;
            break;
        }
        const double forcing = std::min(0.5, std::sqrt(gNorm));
        const Preconditioner preconditioner = objective.preconditioner();
        if (preconditioner && objective.preconditionerIsHessian()) {
            // M = ∇²J at θ: the Newton step itself (what CG's first iterate would be, with a
            // residual of rounding size), without a Hessian-vector product.
            preconditioner(Eigen::VectorXd(-g), step);
            ++result.exactSteps;
        } else {
            CgResult cg = conjugateGradient(hessian, -g, forcing, options.maxCgIterations, nullptr, preconditioner);
            result.cgIterations += cg.iterations;
            objective.cgIterationsTaken(cg.iterations);
            step = cg.iterations > 0 ? cg.x : Eigen::VectorXd(-g); // flat curvature: steepest descent
        }
        double slope = g.dot(step);
        if (!(slope < 0.0)) {
            step = -g;
            slope = -gNorm * gNorm;
        }
        // Armijo backtracking; the Newton step (t = 1) is accepted near the optimum.
        double t = 1.0;
        double trialValue = 0.0;
        bool accepted = false;
        for (int k = 0; k < 60; ++k, t *= 0.5) {
            trial = result.theta + t * step;
            trialValue = objective.evaluate(trial);
            // Near the optimum J changes by less than its rounding error; then the full
            // Newton step is taken on the strength of the local quadratic model.
            const bool withinRounding =
                k == 0 && std::abs(trialValue - value) <= 1e-13 * std::max(1.0, std::abs(value));
            if (trialValue <= value + 1e-4 * t * slope || withinRounding) {
                accepted = true;
                break;
            }
        }
        if (!accepted) {
            objective.evaluate(result.theta); // restore the cache at the current point
            result.status = NewtonCgStatus::LineSearchFailed;
            break;
        }
        result.theta.swap(trial);
        value = trialValue;
        objective.gradient(g);
        gNorm = g.norm();
        if (callback && !callback(it + 1, value, gNorm)) {
            result.iterations = it + 1;
            result.status = NewtonCgStatus::Stopped;
            break;
        }
    }
    result.value = value;
    result.gradientNorm = gNorm;
    return result;
}

} // namespace elab::core
