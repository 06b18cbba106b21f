#pragma once
// Internal to the PLD accountant (pld.cpp; docs/MATH.md §3.6, accountant 4): one step of the
// Poisson-subsampled Gaussian — its dominating pair (the privacy loss, its inverse and the
// hockey-stick divergence) — and its pessimistic discretisation on a grid (connect the dots).
// Composition, ε at δ and calibration stay in pld.cpp.

#include "core/privacy/analytic_gaussian.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace elab::core::pld_detail {

using mechanism_constants::logNormalCdf;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// log(e^a + e^b), exact for −∞ operands.
double logAddExp(double a, double b);
/// asinh(e^{lw}) without overflow.
double asinhExp(double lw);
/// log sinh(a), a > 0.
double logSinh(double a);

enum class Pair { Remove, Add, Replace };

/// One step's dominating pair: the loss L(x) = log P(x)/Q(x) (decreasing in x), its inverse,
/// and the hockey-stick divergence δ(ε) = P(X ≤ x_ε) − e^ε Q(X ≤ x_ε), x_ε = L⁻¹(ε).
struct StepPair {
    double sigma, q;
    Pair pair;
    double log1mq, logq; // log(1 − q), log q
    double tailZ;        // the noise quantile where the range is cut (< 0)

    StepPair(double s, double rate, Pair p, double stepTail)
        : sigma(s), q(rate), pair(p), log1mq(std::log1p(-rate)), logq(std::log(rate)),
          tailZ(mechanism_constants::normalQuantile(stepTail)) {}

    double s2() const { return sigma * sigma; }

    double lossRemove(double x) const { return logAddExp(log1mq, logq + (-0.5 - x) / s2()); }
    double lossAdd(double x) const { return -logAddExp(log1mq, logq + (x - 0.5) / s2()); }
    double loss(double x) const {
        switch (pair) {
        case Pair::Remove: return lossRemove(x);
        case Pair::Add: return lossAdd(x);
        case Pair::Replace: return lossRemove(x) + lossAdd(x);
        }
        return 0.0;
    }

    /// The range of x whose loss is discretised: both noise tails cut at Φ = stepTail, shifted as
    /// dp_accounting does (so that q = 1 gives the same grid for remove and add).
    std::array<double, 2> xRange() const {
        const double z = tailZ * sigma; // < 0
        if (pair == Pair::Add)
            return {z, -z + 1.0};
        return {z - 1.0, -z};
    }

    /// log of the CDFs of P and Q at x, given base = log Φ(x/σ).
    double logCdfP(double x, double base) const {
        if (pair == Pair::Add)
            return base;
        return logAddExp(log1mq + base, logq + logNormalCdf((x + 1.0) / sigma));
    }
    double logCdfQ(double x, double base) const {
        if (pair == Pair::Remove)
            return base;
        return logAddExp(log1mq + base, logq + logNormalCdf((x - 1.0) / sigma));
    }

    /// x_ε, or nullopt-like flags: returns false where δ(ε) is known without it (set in d).
    bool inverseLoss(double eps, double& x, double& d) const {
        switch (pair) {
        case Pair::Remove: {
            if (q < 1.0 && eps <= log1mq) {
                d = -std::expm1(eps); // every outcome has loss ≥ log(1 − q) ≥ ε
                return false;
            }
            // e^ℓ = 1 + (e^ε − 1)/q, ℓ the loss of the unsampled Gaussian.
            const double l = q == 1.0    ? eps
                             : eps > 1.0 ? eps - logq + std::log1p(-(1.0 - q) * std::exp(-eps))
                                         : std::log1p(std::expm1(eps) / q);
            x = -0.5 - s2() * l;
            return true;
        }
        case Pair::Add: {
            if (q < 1.0 && eps >= -log1mq) {
                d = 0.0; // no outcome has loss above −log(1 − q)
                return false;
            }
            const double u = q == 1.0     ? -eps
                             : eps < -1.0 ? -eps - logq + std::log1p(-(1.0 - q) * std::exp(eps))
                                          : std::log1p(std::expm1(-eps) / q);
            x = 0.5 + s2() * u;
            return true;
        }
        case Pair::Replace: {
            if (eps == 0.0) {
                x = 0.0;
                return true;
            }
            // e^{x/σ²} = e^{−ε/2}·z, z² + 2c·sinh(ε/2)·z − 1 = 0, c = (1−q)/q·e^{1/(2σ²)}.
            if (q == 1.0) {
                x = -0.5 * s2() * eps;
                return true;
            }
            const double logC = log1mq - logq + 0.5 / s2();
            const double a = asinhExp(logC + logSinh(0.5 * std::abs(eps)));
            x = s2() * ((eps > 0.0 ? -a : a) - 0.5 * eps);
            return true;
        }
        }
        return false;
    }

    double delta(double eps) const {
        if (eps == kInf)
            return 0.0;
        double x = 0.0, d = 0.0;
        if (!inverseLoss(eps, x, d))
            return std::clamp(d, 0.0, 1.0);
        const double base = logNormalCdf(x / sigma);
        const double lp = logCdfP(x, base), lq = logCdfQ(x, base);
        if (lp == -kInf)
            return 0.0;
        return std::clamp(std::exp(lp) * -std::expm1(std::min(0.0, eps + lq - lp)), 0.0, 1.0);
    }

    /// The sd of L under P, by Simpson's rule over the x range (P's density (1−q)φ + qφ(·+1)).
    double lossSd() const {
        const auto [a, b] = xRange();
        const int n = 4000; // even
        const double step = (b - a) / n;
        double m0 = 0.0, m1 = 0.0, m2 = 0.0;
        for (int i = 0; i <= n; ++i) {
            const double x = a + step * i;
            const double w = (i == 0 || i == n) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
            const double phi0 = std::exp(-0.5 * (x / sigma) * (x / sigma));
            const double phiShift = std::exp(-0.5 * ((x + 1.0) / sigma) * ((x + 1.0) / sigma));
            const double density = pair == Pair::Add ? phi0 : (1.0 - q) * phi0 + q * phiShift;
            const double l = loss(x);
            m0 += w * density;
            m1 += w * density * l;
            m2 += w * density * l * l;
        }
        const double mean = m1 / m0;
        return std::sqrt(std::max(0.0, m2 / m0 - mean * mean));
    }
};

/// A PMF on the grid: p[j] the mass at loss (lo + j)·h, inf the mass at +∞.
struct GridPmf {
    long long lo = 0;
    std::vector<double> p;
    double inf = 0.0;
};

/// Connect the dots (Doroshenko et al. 2022, Alg. 1, fixed gap): the PMF on kLo·h … kHi·h whose
/// δ(ε) equals the pair's at every grid point and interpolates pessimistically in between.
GridPmf connectTheDots(const StepPair& pair, double h);

} // namespace elab::core::pld_detail
