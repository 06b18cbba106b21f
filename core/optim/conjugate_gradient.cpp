#include "core/optim/conjugate_gradient.h"

#include <cmath>

namespace elab::core {

CgResult conjugateGradient(const LinearOperator& apply, const Eigen::VectorXd& b, double tolerance, int maxIterations,
                           const Eigen::VectorXd* x0, const Preconditioner& preconditioner) {
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
    double rNorm = r.norm();
    if (rNorm <= target) {
        result.converged = true;
        result.residualNorm = rNorm;
        return result;
    }
    const auto precondition = [&preconditioner](const Eigen::VectorXd& v) -> Eigen::VectorXd {
        if (!preconditioner)
            return v;
        Eigen::VectorXd out;
        preconditioner(v, out);
        return out;
    };
    Eigen::VectorXd y = precondition(r);
    double ry = r.dot(y);
    Eigen::VectorXd d = y;
    for (int k = 0; k < maxIterations; ++k) {
        apply(d, ad);
        const double curvature = d.dot(ad);
        if (!(curvature > 0.0)) {
            result.negativeCurvature = true;
            break;
        }
        const double alpha = ry / curvature;
        result.x.noalias() += alpha * d;
        r.noalias() -= alpha * ad;
        result.iterations = k + 1;
        rNorm = r.norm();
        if (rNorm <= target) {
            result.converged = true;
            break;
        }
        y = precondition(r);
        const double ryNew = r.dot(y);
        d = y + (ryNew / ry) * d;
        ry = ryNew;
    }
    result.residualNorm = rNorm;
    return result;
}

} // namespace elab::core
