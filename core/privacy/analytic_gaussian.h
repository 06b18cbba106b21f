#pragma once
// The analytic Gaussian mechanism (Balle & Wang 2018, Thm 8; docs/MATH.md §3.3): the exact δ of
// the Gaussian mechanism N(0, σ²I) on a query of L2 sensitivity Δ at any ε > 0, and the smallest
// σ whose exact δ is at most a target. Valid at every ε (the classical σ = Δ·√(2 log(1.25/δ))/ε
// is proved for ε < 1 only).

namespace elab::core::mechanism_constants {

/// log Φ(x) of the standard normal CDF, accurate (relative) for every finite x, also where Φ(x)
/// underflows (x < −38): erfc down to x = −30, the Laplace continued fraction of Mills' ratio below.
double logNormalCdf(double x);

/// z with Φ(z) = p ∈ (0, 1): for p ≤ ½ by bisection of log Φ over [−40, 0] (100 halvings, the
/// upper end returned, so Φ(z) ≥ p), above ½ as −normalQuantile(1 − p).
double normalQuantile(double p);

/// δ(ε, σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ): the exact δ at ε of the Gaussian mechanism
/// with noise sd σ on sensitivity Δ (Balle & Wang 2018, Thm 8). Computed as
/// Φ(a)·(−expm1(ε + log Φ(b) − log Φ(a))), so e^ε·Φ(b) neither overflows nor underflows
/// (ε = 1000 is fine). Decreasing in σ. Throws std::invalid_argument unless ε ≥ 0, σ > 0 and
/// Δ > 0 are finite.
double gaussianDelta(double eps, double sigma, double sensitivity);

/// Relative width of the final bisection bracket of analyticGaussianSigma.
inline constexpr double kAnalyticGaussianTolerance = 1e-12;

/// The smallest σ with δ(ε, σ) ≤ δ, from above: bracket by doubling/halving, then geometric
/// bisection until hi/lo − 1 ≤ kAnalyticGaussianTolerance, returning hi, where an upper bound on
/// the exact δ (the computed one plus a bound on its rounding) is ≤ δ. So the result is ≥ the
/// exact smallest σ and (ε, δ) holds. Throws std::invalid_argument unless ε > 0 and Δ > 0 are
/// finite and δ ∈ (0, 1).
double analyticGaussianSigma(double eps, double delta, double sensitivity);

/// The classical σ = Δ·√(2 log(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1; proved for ε < 1 only).
/// Not used by any mechanism; kept for comparison (tests, benchmarks).
double classicalGaussianSigma(double eps, double delta, double sensitivity);

} // namespace elab::core::mechanism_constants
