#include "core/optim/conjugate_gradient.h"

#include <cmath>

namespace elab::core {

CgResult conjugateGradient(const LinearOperator& apply, const Eigen::VectorXd& b, double tolerance,
                           int maxIterations, const Eigen::VectorXd* x0) {
    CgResult result;
    const double bNorm = b.norm();
    result.x = x0 ? *x0 : Eigen::VectorXd::Zero(b.size());
    Eigen::VectorXd r = b;
    Eigen::VectorXd ad(b.size());
    if (x0) {
        apply(result.x, ad);
        r -= ad;
    }
    const double target = tolerance * bNorm;
    double rr = r.squaredNorm();
    if (std::sqrt(rr) <= target) {
        result.converged = true;
        result.residualNorm = std::sqrt(rr);
        return result;
    }
    Eigen::VectorXd d = r;
    for (int k = 0; k < maxIterations; ++k) {
        apply(d, ad);
        const double curvature = d.dot(ad);
        if (!(curvature > 0.0)) {
            result.negativeCurvature = true;
            break;
        }
        const double alpha = rr / curvature;
        result.x.noalias() += alpha * d;
        r.noalias() -= alpha * ad;
        const double rrNew = r.squaredNorm();
        result.iterations = k + 1;
        if (std::sqrt(rrNew) <= target) {
            result.converged = true;
            rr = rrNew;
            break;
        }
        d = r + (rrNew / rr) * d;
        rr = rrNew;
    }
    result.residualNorm = std::sqrt(rr);
    return result;
}

} // namespace elab::core
