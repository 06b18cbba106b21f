#include "core/learner/utility_estimate.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

const OptionNames<Estimator>& estimatorNames() {
    static const OptionNames<Estimator> names{{Estimator::FirstOrder, "first-order"},
                                              {Estimator::SecondOrder, "second-order"},
                                              {Estimator::InverseEps, "inverse-eps"},
                                              {Estimator::Anchored, "anchored"},
                                              {Estimator::Variance, "variance"}};
    return names;
}

const char* toString(Estimator value) { return optionName(estimatorNames(), value); }

Estimator estimatorFromString(const std::string& name) { return parseOptionName(estimatorNames(), name, "estimator"); }

double estimateUtility(const TaylorPoint& p, Estimator estimator, double epsTarget, const TaylorAnchor* anchor) {
    const bool infinite = std::isinf(epsTarget);
    const double step = epsTarget - p.eps;
    switch (estimator) {
    case Estimator::FirstOrder:
        return infinite ? (p.d1 == 0.0 ? p.value : std::copysign(INFINITY, p.d1)) : p.value + p.d1 * step;
    case Estimator::SecondOrder:
        return infinite ? std::numeric_limits<double>::quiet_NaN() : p.value + p.d1 * step + 0.5 * p.d2 * step * step;
    case Estimator::InverseEps:
        // Linear in u = 1/ε: dF/du = −ε̄² F′, Δu = 1/ε̂ − 1/ε̄  ⇒  F + F′ε̄(ε̂ − ε̄)/ε̂.
        return infinite ? p.value + p.d1 * p.eps : p.value + p.d1 * p.eps * step / epsTarget;
    case Estimator::Anchored: {
        if (!anchor)
            throw std::invalid_argument("the anchored estimator needs the non-private anchor");
        // Cubic Hermite in v = ε^{−1/2} on [0, v̄]: (0: F_np, m0) and (v̄: F, dF/dv = −2ε̄^{3/2}F′).
        const double v1 = 1.0 / std::sqrt(p.eps);
        const double v = infinite ? 0.0 : 1.0 / std::sqrt(epsTarget);
        const double t = v / v1;
        const double m0 = anchor->slopeV * v1, m1 = -2.0 * p.eps * std::sqrt(p.eps) * p.d1 * v1;
        const double h00 = 2 * t * t * t - 3 * t * t + 1, h10 = t * t * t - 2 * t * t + t;
        const double h01 = -2 * t * t * t + 3 * t * t, h11 = t * t * t - t * t;
        return h00 * anchor->value + h10 * m0 + h01 * p.value + h11 * m1;
    }
    case Estimator::Variance:
        throw std::invalid_argument("the variance estimator needs the non-private expansion, not a measuring point");
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double varianceEstimate(const NoiseExpansion& e, double eps) {
    if (std::isinf(eps))
        return e.value;
    const double n = e.rows, extra = e.extraRidge(eps) / n, mu = e.ridge / n + extra, s = e.noiseScale(eps);
    const Eigen::ArrayXd w = (e.curvatures.array() + mu).inverse(); // W_ε⁻¹ in the eigenbasis
    const Eigen::VectorXd m = (-extra * w * e.theta.array()).matrix();
    const double noise = s * s / (2.0 * n * n) * (e.hessian.diagonal().array() * w.square()).sum();
    double shift = 0.0; // ∇Fᵀ E[δ₂], E[δ₂] = −½ W⁻¹ E[∇³L[δ₁, δ₁]]
    if (e.third.size() > 0) {
        const Eigen::VectorXd third = (s * s / (n * n)) * (e.third * w.square().matrix());
        shift = -0.5 * (e.gradient.array() * w * third.array()).sum();
    }
    return e.value + e.gradient.dot(m) + 0.5 * m.dot(e.hessian * m) + noise + shift;
}

double epsilonForTarget(const TaylorPoint& p, double targetUtility) {
    if (p.d1 == 0.0)
        return std::numeric_limits<double>::quiet_NaN();
    return (targetUtility - p.value) / p.d1 + p.eps;
}

} // namespace elab::core
