#include "core/learners/linear_erm/taylor.h"

#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/model/linear_objective.h"
#include "core/optim/conjugate_gradient.h"

#include <Eigen/Eigenvalues>

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

namespace {
// The p × p matrix of an objective's Hessian at its last evaluated θ, column by column.
Eigen::MatrixXd denseHessian(const LinearObjective& objective, Eigen::Index p) {
    Eigen::MatrixXd H(p, p);
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(p), column;
    for (Eigen::Index j = 0; j < p; ++j) {
        unit[j] = 1.0;
        objective.hessianVector(unit, column);
        H.col(j) = column;
        unit[j] = 0.0;
    }
    return 0.5 * (H + H.transpose());
}
} // namespace

NoiseExpansion noiseExpansion(const FeatureMatrix& X, Labels y, const Loss& loss, double lambda,
                              const Eigen::VectorXd& thetaNonPrivate, const UtilityData& utility,
                              std::function<double(double)> noiseScale, std::function<double(double)> extraRidge) {
    const Eigen::Index p = X.cols();
    LinearObjective training(X, y, loss, 0.0);
    training.evaluate(thetaNonPrivate);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(denseHessian(training, p));
    if (eigen.info() != Eigen::Success)
        throw std::runtime_error(
            "the variance estimator: the Hessian of the non-private fit has no eigendecomposition");
    const Eigen::MatrixXd& Q = eigen.eigenvectors();
    LinearObjective metric(utility.X, utility.y, loss, 0.0);
    NoiseExpansion e;
    e.value = metric.evaluate(thetaNonPrivate);
    Eigen::VectorXd gradF;
    metric.gradient(gradF);
    e.rows = static_cast<double>(X.rows());
    e.ridge = lambda;
    e.curvatures = eigen.eigenvalues().cwiseMax(0.0);
    e.theta = Q.transpose() * thetaNonPrivate;
    e.gradient = Q.transpose() * gradF;
    e.hessian = Q.transpose() * denseHessian(metric, p) * Q;
    // third = Aᵀ diag(ℓ‴/n) (A∘A), A = XQ (n × p), formed one eigenvector at a time.
    const Eigen::Index n = X.rows();
    Eigen::MatrixXd A(n, p);
    Eigen::VectorXd column;
    for (Eigen::Index k = 0; k < p; ++k) {
        multiply(X, Q.col(k), column);
        A.col(k) = column;
    }
    Eigen::VectorXd predictions;
    multiply(X, thetaNonPrivate, predictions);
    Eigen::VectorXd d3(n);
    for (Eigen::Index i = 0; i < n; ++i)
        d3[i] = loss.d3(predictions[i], y[i]) / static_cast<double>(n);
    e.third = A.transpose() * (d3.asDiagonal() * A.array().square().matrix());
    e.noiseScale = std::move(noiseScale);
    e.extraRidge = std::move(extraRidge);
    return e;
}

NoiseExpansion noiseExpansion(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                              const Eigen::VectorXd& thetaNonPrivate, const UtilityData& utility) {
    if (spec.kind != MechanismKind::ObjPertGauss)
        throw std::invalid_argument("the variance estimator is derived for Gaussian objective perturbation");
    const double delta = spec.privacy.delta, zeta = spec.model.loss.gradientBound();
    const double curvature = spec.model.loss.curvatureBound();
    return noiseExpansion(
        X, y, spec.model.loss, spec.model.lambda, thetaNonPrivate, utility,
        [delta, zeta](double eps) { return mc::gaussNoiseScale(eps, delta, zeta); },
        [curvature](double eps) { return mc::gaussExtraRidge(eps, curvature); });
}

} // namespace elab::core
