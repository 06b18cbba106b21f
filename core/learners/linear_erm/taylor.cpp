#include "core/learners/linear_erm/taylor.h"

#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/model/linear_objective.h"
#include "core/optim/conjugate_gradient.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

namespace mc = mechanism_constants;

namespace {
constexpr double kCgTolerance = 1e-12;
constexpr int kCgMaxIterations = 2000;

// The training rows' constant values serve the metric when it reads the training rows.
const Eigen::VectorXd* metricRowScale(const FeatureMatrix& X, const UtilityData& utility,
                                      const Eigen::VectorXd* rowScale) {
    return &utility.X == &X ? rowScale : nullptr;
}
} // namespace

TaylorPoint taylorPoint(const FeatureMatrix& X, Labels y, const MechanismSpec& spec, double eps,
                        const Eigen::VectorXd& z, const Eigen::VectorXd& thetaEps, const UtilityData& utility,
                        bool secondOrder, const Eigen::MatrixXd* gram, const Eigen::VectorXd* rowScale) {
    if (spec.kind != MechanismKind::ObjPertGauss)
        throw std::invalid_argument("the Taylor estimate is derived for Gaussian objective perturbation");
    const double n = static_cast<double>(X.rows());
    const double lambda = spec.model.loss.curvatureBound();
    const double zeta = spec.model.loss.gradientBound();
    const double dDelta = -2.0 * lambda / (eps * eps);

    // W at θ_ε is the Hessian of the perturbed objective: μ = (Λ + Δ_ε)/n.
    LinearObjective training(X, y, spec.model.loss, (spec.model.lambda + mc::gaussExtraRidge(eps, lambda)) / n, {},
                             rowScale);
    if (gram && gram->size() > 0)
        training.setGram(gram);
    training.evaluate(thetaEps);
    const LinearOperator W = [&training](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
        training.hessianVector(v, out);
    };
    const Preconditioner preconditioner = training.preconditioner();
    const Eigen::VectorXd r1 = -(mc::gaussNoiseScaleD1(eps, spec.privacy.delta, zeta) * z + dDelta * thetaEps) / n;
    CgResult cg1 = conjugateGradient(W, r1, kCgTolerance, kCgMaxIterations, nullptr, preconditioner);

    LinearObjective metric(utility.X, utility.y, spec.model.loss, 0.0, {}, metricRowScale(X, utility, rowScale));
    TaylorPoint point;
    point.eps = eps;
    point.value = metric.evaluate(thetaEps);
    Eigen::VectorXd gradF;
    metric.gradient(gradF);
    point.thetaD1 = std::move(cg1.x);
    point.d1 = gradF.dot(point.thetaD1);
    point.cgIterations = cg1.iterations;
    if (secondOrder) {
        const double d2Delta = 4.0 * lambda / (eps * eps * eps);
        const Eigen::VectorXd& t1 = point.thetaD1;
        Eigen::VectorXd third; // ∇³L[t1, t1] (prediction form: ℓ‴ carries y)
        training.thirdDerivativeTerm(t1, third);
        const Eigen::VectorXd r2 =
            -(mc::gaussNoiseScaleD2(eps, spec.privacy.delta, zeta) * z + d2Delta * thetaEps + 2.0 * dDelta * t1) / n -
            third;
        CgResult cg2 = conjugateGradient(W, r2, kCgTolerance, kCgMaxIterations, nullptr, preconditioner);
        Eigen::VectorXd hessFt1;
        metric.hessianVector(t1, hessFt1);
        point.d2 = t1.dot(hessFt1) + gradF.dot(cg2.x);
        point.cgIterations += cg2.iterations;
    }
    return point;
}

TaylorAnchor taylorAnchor(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                          const Eigen::VectorXd& thetaNonPrivate, const Eigen::VectorXd& z, const UtilityData& utility,
                          const Eigen::MatrixXd* gram, const Eigen::VectorXd* rowScale) {
    const double n = static_cast<double>(X.rows());
    LinearObjective training(X, y, spec.model.loss, spec.model.lambda / n, {}, rowScale);
    if (gram && gram->size() > 0)
        training.setGram(gram);
    training.evaluate(thetaNonPrivate);
    const LinearOperator W = [&training](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
        training.hessianVector(v, out);
    };
    const Eigen::VectorXd r = -(2.0 * spec.model.loss.gradientBound() / n) * z;
    const CgResult cg = conjugateGradient(W, r, kCgTolerance, kCgMaxIterations, nullptr, training.preconditioner());
    LinearObjective metric(utility.X, utility.y, spec.model.loss, 0.0, {}, metricRowScale(X, utility, rowScale));
    TaylorAnchor anchor;
    anchor.value = metric.evaluate(thetaNonPrivate);
    Eigen::VectorXd gradF;
    metric.gradient(gradF);
    anchor.slopeV = gradF.dot(cg.x);
    return anchor;
}

} // namespace elab::core
