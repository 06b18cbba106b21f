#include "core/privacy/analytic_gaussian.h"

#include "core/util/format_number.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace elab::core::mechanism_constants {

namespace {

/// Below this x, log Φ(x) comes from the continued fraction (Φ(−30) ≈ 4.9e-198: erfc is still
/// accurate there, and the fraction converges in a few terms).
constexpr double kContinuedFractionBelow = -30.0;

/// Mills' ratio R(t) = Φ(−t)/φ(t) for t ≥ 30 by Laplace's continued fraction
/// R(t) = 1/(t + 1/(t + 2/(t + 3/(t + …)))), evaluated from the tail (200 levels: at t ≥ 30 the
/// truncation error is far below double rounding).
double millsRatio(double t) {
    double tail = t;
    for (int k = 200; k >= 1; --k)
        tail = t + k / tail;
    return 1.0 / tail;
}

void requirePositiveFinite(double value, const char* what, const char* where) {
    if (!(value > 0.0) || !std::isfinite(value))
        throw std::invalid_argument(std::string(where) + ": " + what + " must be a finite number > 0, got " +
                                    formatNumber(value));
}

} // namespace

double logNormalCdf(double x) {
    if (std::isnan(x))
        return x;
    if (x > 0.0) // Φ(x) = 1 − Φ(−x): log1p keeps the digits of the small complement
        return std::log1p(-0.5 * std::erfc(x / std::numbers::sqrt2));
    if (x >= kContinuedFractionBelow)
        return std::log(0.5 * std::erfc(-x / std::numbers::sqrt2));
    if (std::isinf(x))
        return -INFINITY;
    // log Φ(x) = log φ(−x) + log R(−x), φ(t) = e^{−t²/2}/√(2π).
    const double t = -x;
    return -0.5 * t * t - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(millsRatio(t));
}

namespace {

/// δ(ε, σ) as computed, and an upper bound on the exact δ that covers the computation's rounding.
struct DeltaEstimate {
    double value = 0.0;
    double upper = 0.0;
};

DeltaEstimate evaluateDelta(double eps, double sigma, double sensitivity) {
    if (!(eps >= 0.0) || !std::isfinite(eps))
        throw std::invalid_argument("analytic Gaussian δ(ε, σ): ε must be a finite number ≥ 0, got " +
                                    formatNumber(eps));
    requirePositiveFinite(sigma, "σ", "analytic Gaussian δ(ε, σ)");
    requirePositiveFinite(sensitivity, "the sensitivity Δ", "analytic Gaussian δ(ε, σ)");
    const double half = sensitivity / (2.0 * sigma); // Δ/(2σ)
    const double shift = eps * sigma / sensitivity;  // εσ/Δ
    const double logUpper = logNormalCdf(half - shift);
    const double logLower = logNormalCdf(-half - shift);
    // δ = Φ(a)·(1 − e^d), d = ε + log Φ(b) − log Φ(a) < 0 exactly (δ > 0). d is a difference of
    // terms of size up to |log Φ| + ε, so its absolute rounding error is a few units in their last
    // place; it dominates where |d| is small (small ε, where Φ(a) and e^ε·Φ(b) nearly cancel).
    // The bound takes 64 units, far above the few of erfc, log and the continued fraction.
    const double exponent = eps + logLower - logUpper;
    const double exponentError =
        64.0 * std::numeric_limits<double>::epsilon() * (eps + std::abs(logUpper) + std::abs(logLower) + 1.0);
    const double scale = std::exp(logUpper);
    DeltaEstimate r;
    r.value = exponent < 0.0 ? scale * -std::expm1(exponent) : 0.0;
    r.upper = scale * -std::expm1(std::min(exponent, 0.0) - exponentError) *
              (1.0 + 64.0 * std::numeric_limits<double>::epsilon());
    return r;
}

} // namespace

double normalQuantile(double p) {
    if (!(p > 0.0 && p < 1.0))
        throw std::invalid_argument("normalQuantile: p must lie in (0, 1)");
    if (p > 0.5)
        return -normalQuantile(1.0 - p);
    const double target = std::log(p);
    double lo = -40.0, hi = 0.0;
    for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        (logNormalCdf(mid) < target ? lo : hi) = mid;
    }
    return hi;
}

double gaussianDelta(double eps, double sigma, double sensitivity) {
    return evaluateDelta(eps, sigma, sensitivity).value;
}

double analyticGaussianSigma(double eps, double delta, double sensitivity) {
    requirePositiveFinite(eps, "ε", "analytic Gaussian σ");
    requirePositiveFinite(sensitivity, "the sensitivity Δ", "analytic Gaussian σ");
    if (!(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("analytic Gaussian σ: δ must be in (0, 1), got " + formatNumber(delta));
    // σ holds when even the upper bound on its exact δ (rounding included) is ≤ δ.
    auto holds = [&](double sigma) { return evaluateDelta(eps, sigma, sensitivity).upper <= delta; };
    // Bracket from the classical σ: δ(σ) → 1 as σ → 0 and → 0 as σ → ∞, so both loops end
    // (the bounds on their steps only stop a runaway).
    double hi = classicalGaussianSigma(eps, delta, sensitivity);
    for (int i = 0; !holds(hi); ++i) {
        if (i > 2000)
            throw std::runtime_error("analytic Gaussian σ: no σ found with δ(ε, σ) ≤ δ at ε = " + formatNumber(eps) +
                                     ", δ = " + formatNumber(delta));
        hi *= 2.0;
    }
    double lo = hi / 2.0;
    for (int i = 0; holds(lo); ++i) {
        if (i > 2000)
            throw std::runtime_error("analytic Gaussian σ: δ(ε, σ) ≤ δ for every σ tried at ε = " + formatNumber(eps) +
                                     ", δ = " + formatNumber(delta));
        hi = lo;
        lo /= 2.0;
    }
    // Invariant: lo fails, hi holds; geometric bisection (σ spans many decades over ε).
    while (hi / lo - 1.0 > kAnalyticGaussianTolerance) {
        const double mid = std::sqrt(lo * hi);
        if (!(mid > lo && mid < hi))
            break; // adjacent doubles
        (holds(mid) ? hi : lo) = mid;
    }
    return hi;
}

double classicalGaussianSigma(double eps, double delta, double sensitivity) {
    return sensitivity * std::sqrt(2.0 * std::log(1.25 / delta)) / eps;
}

} // namespace elab::core::mechanism_constants
