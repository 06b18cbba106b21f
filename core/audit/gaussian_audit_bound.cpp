#include "core/audit/gaussian_audit_bound.h"

#include "core/privacy/analytic_gaussian.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace elab::core {

namespace {

using mechanism_constants::normalQuantile;

double normalCdf(double x) { return std::exp(mechanism_constants::logNormalCdf(x)); }

struct Moments {
    double mean = 0.0, sd = 0.0;
    double n = 0.0;
};

Moments moments(std::span<const double> x) {
    Moments m;
    m.n = static_cast<double>(x.size());
    for (double v : x)
        m.mean += v;
    m.mean /= m.n;
    double ss = 0.0;
    for (double v : x)
        ss += (v - m.mean) * (v - m.mean);
    m.sd = std::sqrt(ss / (m.n - 1.0));
    return m;
}

/// An upper confidence bound on σ from s with k = n − 1 degrees of freedom at level a:
/// σ⁺ = s·√(k/χ²_{a,k}), the lower quantile of χ²_k by Wilson & Hilferty's cube-root normal
/// approximation (relative error below 1e-3 for k ≥ 100, and the audits have thousands).
double sdUpper(double s, double n, double a) {
    const double k = n - 1.0;
    const double z = normalQuantile(a);
    const double c = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
    const double chi2 = k * c * c * c;
    return chi2 > 0.0 ? s * std::sqrt(k / chi2) : INFINITY;
}

} // namespace

double gaussianEpsilonForMu(double mu, double delta) {
    if (!(mu >= 0.0) || !(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("Gaussian audit: μ must be ≥ 0 and δ in (0, 1)");
    if (mu == 0.0)
        return 0.0;
    using mechanism_constants::gaussianDelta;
    if (gaussianDelta(0.0, 1.0, mu) <= delta)
        return 0.0;
    double lo = 0.0, hi = 1.0;
    while (gaussianDelta(hi, 1.0, mu) > delta && hi < 1e6)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (gaussianDelta(mid, 1.0, mu) > delta ? lo : hi) = mid;
    }
    return lo; // δ(lo) > δ: the mechanism is not (lo, δ)-DP, so lo is a lower bound on its ε
}

GaussianAuditBound gaussianAuditBound(std::span<const double> scoresD, std::span<const double> scoresDPrime,
                                      double delta, double alpha) {
    if (scoresD.size() < 3 || scoresDPrime.size() < 3)
        throw std::invalid_argument("Gaussian audit: at least 3 scores per neighbour are needed");
    if (!(delta > 0.0 && delta < 1.0) || !(alpha > 0.0 && alpha < 1.0))
        throw std::invalid_argument("Gaussian audit: δ and α must lie in (0, 1)");
    for (std::span<const double> s : {scoresD, scoresDPrime})
        for (double v : s)
            if (!std::isfinite(v))
                throw std::invalid_argument("Gaussian audit: every score must be finite");
    const Moments a = moments(scoresD), b = moments(scoresDPrime);
    GaussianAuditBound r;
    // The shape: both samples standardised by their own mean and sd, pooled, against Φ
    // (Lilliefors: parameters estimated; critical value 0.886/√n at α = 0.05, 1.031/√n at 0.01,
    // interpolated in log α between them and held beyond).
    std::vector<double> z;
    z.reserve(scoresD.size() + scoresDPrime.size());
    for (double v : scoresD)
        z.push_back(a.sd > 0.0 ? (v - a.mean) / a.sd : 0.0);
    for (double v : scoresDPrime)
        z.push_back(b.sd > 0.0 ? (v - b.mean) / b.sd : 0.0);
    std::sort(z.begin(), z.end());
    const double n = static_cast<double>(z.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
        const double f = normalCdf(z[i]);
        r.lilliefors = std::max({r.lilliefors, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
    }
    const double t = std::clamp(std::log(alpha / 0.05) / std::log(0.01 / 0.05), 0.0, 1.0);
    r.lillieforsCritical = (0.886 + t * (1.031 - 0.886)) / std::sqrt(n);
    r.shapeRejected = r.lilliefors > r.lillieforsCritical || a.sd <= 0.0 || b.sd <= 0.0;

    const double gap = std::abs(b.mean - a.mean);
    const double pooled = std::sqrt(0.5 * (a.sd * a.sd + b.sd * b.sd));
    r.muEstimate = pooled > 0.0 ? gap / pooled : 0.0;
    r.epsEstimate = gaussianEpsilonForMu(r.muEstimate, delta);
    if (r.shapeRejected)
        return r;
    const double each = alpha / 3.0; // the gap and the two deviations
    const double gapLower = gap - normalQuantile(1.0 - each) * std::sqrt(a.sd * a.sd / a.n + b.sd * b.sd / b.n);
    const double sigmaUpper = std::max(sdUpper(a.sd, a.n, each), sdUpper(b.sd, b.n, each));
    r.muLower = std::max(0.0, gapLower) / sigmaUpper;
    r.epsLB = gaussianEpsilonForMu(r.muLower, delta);
    return r;
}

} // namespace elab::core
