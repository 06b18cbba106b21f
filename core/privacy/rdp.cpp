#include "core/privacy/rdp.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// log(e^a + e^b).
double logAdd(double a, double b) {
    const double hi = std::max(a, b);
    const double lo = std::min(a, b);
    if (lo == -kInf)
        return hi;
    return std::log1p(std::exp(lo - hi)) + hi;
}

/// log(erfc(x)/2), also far in the tail where erfc underflows (asymptotic series, x ≥ 25).
double logHalfErfc(double x) {
    if (x < -6.0)
        return std::log1p(-0.5 * std::erfc(-x)); // erfc(x) = 2 − erfc(−x)
    if (x < 25.0)
        return std::log(0.5 * std::erfc(x));
    const double r = 1.0 / (x * x);
    const double series = 1.0 - 0.5 * r + 0.75 * r * r - 1.875 * r * r * r + 6.5625 * r * r * r * r;
    return -x * x - std::log(x) - 0.5 * std::log(M_PI) + std::log(0.5 * series);
}

/// log A_α for an integer order: log Σ_i C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)}.
double logAInt(double q, double sigma, long alpha) {
    double logA = -kInf;
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    double logBinom = 0.0; // log C(α, i), by C(α, i+1) = C(α, i)(α − i)/(i + 1)
    for (long i = 0; i <= alpha; ++i) {
        const double di = static_cast<double>(i);
        if (i > 0)
            logBinom += std::log(static_cast<double>(alpha - i + 1) / di);
        const double s =
            logBinom + di * logQ + static_cast<double>(alpha - i) * log1mQ + (di * di - di) / (2.0 * sigma * sigma);
        logA = logAdd(logA, s);
    }
    return logA;
}

/// log A_α for a fractional order (Mironov, Talwar & Zhang 2019 §3.3): the two series split at
/// z₀, each term taken with |C(α, i)| — an upper bound on A_α, so the accountant errs on the
/// safe side, and the reference (dp_accounting) does the same. Summed until both terms
/// decrease and fall e^{30} below the total; +∞ (the order is useless) if that takes more
/// than 1000 terms.
double logAFrac(double q, double sigma, double alpha) {
    double logA0 = -kInf;
    double logA1 = -kInf;
    const double z0 = sigma * sigma * std::log(1.0 / q - 1.0) + 0.5;
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    double lastS0 = -kInf;
    double lastS1 = -kInf;
    const double scale = 1.0 / (std::sqrt(2.0) * sigma);
    double logCoef = 0.0; // log |C(α, i)|, by C(α, i+1) = C(α, i)(α − i)/(i + 1)
    for (int i = 0; i < 1000; ++i) {
        const double di = i;
        if (i > 0)
            logCoef += std::log(std::abs(alpha - di + 1.0) / di);
        const double j = alpha - di;
        const double logT0 = logCoef + di * logQ + j * log1mQ;
        const double logT1 = logCoef + j * logQ + di * log1mQ;
        const double logE0 = logHalfErfc((di - z0) * scale);
        const double logE1 = logHalfErfc((z0 - j) * scale);
        const double logS0 = logT0 + (di * di - di) / (2.0 * sigma * sigma) + logE0;
        const double logS1 = logT1 + (j * j - j) / (2.0 * sigma * sigma) + logE1;
        logA0 = logAdd(logA0, logS0);
        logA1 = logAdd(logA1, logS1);
        const double total = logAdd(logA0, logA1);
        if (logS0 < lastS0 && logS1 < lastS1 && std::max(logS0, logS1) < total - 30.0)
            return total;
        lastS0 = logS0;
        lastS1 = logS1;
    }
    return kInf;
}

} // namespace

const std::vector<double>& defaultRdpOrders() {
    static const std::vector<double> orders = [] {
        std::vector<double> o;
        for (int x = 1; x < 100; ++x)
            o.push_back(1.0 + x / 10.0);
        for (int a = 11; a < 64; ++a)
            o.push_back(a);
        for (double a : {128.0, 256.0, 512.0, 1024.0})
            o.push_back(a);
        return o;
    }();
    return orders;
}

double rdpSubsampledGaussian(double q, double sigma, double alpha) {
    if (!(q >= 0.0 && q <= 1.0))
        throw std::invalid_argument("RDP accountant: the sampling rate q must lie in [0, 1]");
    if (!(sigma >= 0.0))
        throw std::invalid_argument("RDP accountant: the noise multiplier σ must be ≥ 0");
    if (!(alpha > 1.0))
        throw std::invalid_argument("RDP accountant: orders must be > 1");
    if (std::isinf(alpha) || sigma == 0.0)
        return kInf;
    if (q == 0.0)
        return 0.0;
    if (q == 1.0)
        return alpha / (2.0 * sigma * sigma);
    const double logA =
        std::floor(alpha) == alpha ? logAInt(q, sigma, static_cast<long>(alpha)) : logAFrac(q, sigma, alpha);
    return logA / (alpha - 1.0);
}

RdpConversion rdpToEpsilon(const std::vector<double>& orders, const std::vector<double>& rdp, double delta) {
    if (!(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("RDP accountant: δ must lie in (0, 1)");
    if (orders.size() != rdp.size() || orders.empty())
        throw std::invalid_argument("RDP accountant: one RDP value per order is needed");
    RdpConversion best{kInf, orders.front()};
    for (std::size_t i = 0; i < orders.size(); ++i) {
        const double a = orders[i];
        const double r = rdp[i];
        if (!(a >= 1.0) || !(r >= 0.0))
            throw std::invalid_argument("RDP accountant: orders must be ≥ 1 and RDP values ≥ 0");
        double eps = kInf;
        if (delta * delta + std::expm1(-r) > 0.0)
            eps = 0.0; // the KL bound δ ≤ √(1 − e^{−RDP}) already holds
        else if (a > 1.01)
            eps = r + std::log1p(-1.0 / a) - std::log(delta * a) / (a - 1.0);
        if (eps < best.epsilon)
            best = {eps, a};
    }
    best.epsilon = std::max(0.0, best.epsilon);
    return best;
}

RdpConversion rdpEpsilon(double sigma, double q, long long steps, double delta, const std::vector<double>& orders) {
    return rdpEpsilons(sigma, q, {steps}, delta, orders).front();
}

std::vector<RdpConversion> rdpEpsilons(double sigma, double q, const std::vector<long long>& steps, double delta,
                                       const std::vector<double>& orders) {
    for (long long t : steps)
        if (t < 0)
            throw std::invalid_argument("RDP accountant: the number of steps must be ≥ 0");
    // The orders are independent (at a small σ one fractional order sums hundreds of terms): in
    // parallel, each into its own slot, so the result is the same for any thread count.
    std::vector<double> oneStep(orders.size());
    tbb::parallel_for(std::size_t(0), orders.size(),
                      [&](std::size_t i) { oneStep[i] = rdpSubsampledGaussian(q, sigma, orders[i]); });
    std::vector<RdpConversion> conversions;
    conversions.reserve(steps.size());
    std::vector<double> rdp(orders.size());
    for (long long t : steps) {
        for (std::size_t i = 0; i < orders.size(); ++i) // no steps compose to 0 even where one step's RDP is +∞
            rdp[i] = t == 0 ? 0.0 : static_cast<double>(t) * oneStep[i];
        conversions.push_back(rdpToEpsilon(orders, rdp, delta));
    }
    return conversions;
}

} // namespace elab::core
