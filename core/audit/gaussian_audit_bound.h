#pragma once
// A parametric lower bound on ε for attack scores that are Gaussian with one variance under
// both neighbours (docs/MATH.md §5.3) — as the canary's margin is for the (ε, δ) mechanisms on
// the worst-case pair, where the released model is affine in the Gaussian noise. The scores give
// μ = |m′ − m|/σ at confidence 1 − α (Bonferroni over the gap of the means and the two standard
// deviations), and ε_LB is the exact ε of the Gaussian mechanism with that μ at δ (Balle & Wang
// 2018: δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ)). The assumption is checked, not trusted: a
// Lilliefors test of the standardised scores against the normal law at level α; when it rejects,
// the bound is not given (ε_LB = 0). Far more power than the threshold bound of audit_bound.h
// where the assumption holds: the ε at δ = 1e-5 lives in a tail no threshold reaches with
// thousands of runs, but the two means and one deviation pin it down.

#include <span>

namespace elab::core {

struct GaussianAuditBound {
    double epsLB = 0.0;       ///< the exact ε of a Gaussian mechanism at μ⁻ and δ; 0 if the shape is rejected
    double muLower = 0.0;     ///< μ⁻ = max(0, gap⁻)/σ⁺
    double muEstimate = 0.0;  ///< |m′ − m| / pooled sd, no confidence
    double epsEstimate = 0.0; ///< ε at μ̂: what the runs saw, not a bound
    double lilliefors = 0.0;  ///< the largest gap of the standardised scores' CDF to Φ
    double lillieforsCritical = 0.0; ///< its critical value at α
    bool shapeRejected = false;      ///< the scores are not Gaussian: no bound
};

/// ε for which a Gaussian mechanism with μ = sensitivity/σ has exactly δ (0 if δ(0) ≤ δ).
double gaussianEpsilonForMu(double mu, double delta);

/// The bound of the two samples (≥ 3 scores each, finite), δ ∈ (0, 1), α ∈ (0, 1).
/// Throws std::invalid_argument otherwise.
GaussianAuditBound gaussianAuditBound(std::span<const double> scoresD, std::span<const double> scoresDPrime,
                                      double delta, double alpha = 0.05);

} // namespace elab::core
