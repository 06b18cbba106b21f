#include "core/privacy/pld_step.h"

namespace elab::core::pld_detail {

double logAddExp(double a, double b) {
    if (a == -kInf)
        return b;
    if (b == -kInf)
        return a;
    const double m = std::max(a, b);
    return m + std::log1p(std::exp(-std::abs(a - b)));
}

/// z with Φ(z) = tail, by bisection on log Φ.
/// asinh(e^{lw}) without overflow.
double asinhExp(double lw) {
    if (lw < 20.0)
        return std::asinh(std::exp(lw));
    return lw + std::log(2.0) + 0.25 * std::exp(-2.0 * lw);
}

/// log sinh(a), a > 0.
double logSinh(double a) {
    if (a < 10.0)
        return std::log(std::sinh(a));
    return a - std::log(2.0) + std::log1p(-std::exp(-2.0 * a));
}

/// Connect the dots (Doroshenko et al. 2022, Alg. 1, fixed gap): the PMF on kLo·h … kHi·h whose
/// δ(ε) equals the pair's at every grid point and interpolates pessimistically in between.
GridPmf connectTheDots(const StepPair& pair, double h) {
    const auto [xa, xb] = pair.xRange();
    const double epsUpper = pair.loss(xa), epsLower = pair.loss(xb);
    GridPmf g;
    g.lo = static_cast<long long>(std::floor(epsLower / h));
    const long long hi = static_cast<long long>(std::ceil(epsUpper / h));
    const std::size_t n = static_cast<std::size_t>(hi - g.lo + 1);
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i)
        d[i] = pair.delta(static_cast<double>(g.lo + static_cast<long long>(i)) * h);
    for (std::size_t i = 1; i < n; ++i) // δ(ε) is non-increasing; remove round-off wiggles
        d[i] = std::min(d[i], d[i - 1]);
    g.p.assign(n, 0.0);
    g.inf = d[n - 1];
    if (n == 1) {
        g.p[0] = 1.0 - d[0];
        return g;
    }
    const double em1 = std::expm1(h), eh = std::exp(h);
    g.p[0] = 1.0 - d[0] + (d[1] - d[0]) / em1;
    for (std::size_t i = 1; i + 1 < n; ++i)
        g.p[i] = ((d[i + 1] - d[i]) - eh * (d[i] - d[i - 1])) / em1;
    g.p[n - 1] = (d[n - 1] - d[n - 2]) / std::expm1(-h);
    for (double& v : g.p)
        v = std::max(0.0, v);
    return g;
}

} // namespace elab::core::pld_detail
