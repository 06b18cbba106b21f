#include "core/privacy/rdp.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

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

/// log A_α for an integer order: log Σ_i C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)}, the sum kept
/// as a multiple of e^{top}, top the largest log-term so far.
double logAInt(double q, double sigma, long alpha) {
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    const double twoSigma2 = 2.0 * sigma * sigma;
    double top = -kInfinity;
    double sum = 0.0;
    double logBinom = 0.0; // log C(α, i), by C(α, i+1) = C(α, i)(α − i)/(i + 1)
    for (long i = 0; i <= alpha; ++i) {
        const double di = static_cast<double>(i);
        if (i > 0)
            logBinom += std::log(static_cast<double>(alpha - i + 1) / di);
        const double s = logBinom + di * logQ + static_cast<double>(alpha - i) * log1mQ + (di * di - di) / twoSigma2;
        if (s > top) {
            sum = top > -kInfinity ? sum * std::exp(top - s) : 0.0;
            top = s;
        }
        sum += std::exp(s - top);
    }
    return top + std::log(sum);
}

/// log A_α for a fractional order (Mironov, Talwar & Zhang 2019 §3.3): the two series split at
/// z₀, each term taken with |C(α, i)| — an upper bound on A_α, so the accountant errs on the
/// safe side, and the reference (dp_accounting) does the same. Summed until both terms
/// decrease and fall e^{30} below the total; +∞ (the order is useless) if that takes more
/// than 1000 terms. The sums are kept as multiples of e^{top}, top the largest log-term so far
/// (rescaled when a larger one comes): two exponentials per term instead of a log-add each.
double logAFrac(double q, double sigma, double alpha) {
    const double z0 = sigma * sigma * std::log(1.0 / q - 1.0) + 0.5;
    const double logQ = std::log(q);
    const double log1mQ = std::log1p(-q);
    const double twoSigma2 = 2.0 * sigma * sigma;
    const double scale = 1.0 / (std::sqrt(2.0) * sigma);
    const double tail = std::exp(-30.0);
    double top = -kInfinity;
    double sum0 = 0.0;
    double sum1 = 0.0;
    double lastS0 = -kInfinity;
    double lastS1 = -kInfinity;
    double logCoef = 0.0; // log |C(α, i)|, by C(α, i+1) = C(α, i)(α − i)/(i + 1)
    for (int i = 0; i < 1000; ++i) {
        const double di = i;
        if (i > 0)
            logCoef += std::log(std::abs(alpha - di + 1.0) / di);
        const double j = alpha - di;
        const double logS0 =
            logCoef + di * logQ + j * log1mQ + (di * di - di) / twoSigma2 + logHalfErfc((di - z0) * scale);
        const double logS1 = logCoef + j * logQ + di * log1mQ + (j * j - j) / twoSigma2 + logHalfErfc((z0 - j) * scale);
        const double largest = std::max(logS0, logS1);
        if (largest > top) {
            if (top > -kInfinity) {
                const double shrink = std::exp(top - largest);
                sum0 *= shrink;
                sum1 *= shrink;
            }
            top = largest;
        }
        const double t0 = std::exp(logS0 - top);
        const double t1 = std::exp(logS1 - top);
        sum0 += t0;
        sum1 += t1;
        if (logS0 < lastS0 && logS1 < lastS1 && std::max(t0, t1) < (sum0 + sum1) * tail)
            return top + std::log(sum0 + sum1);
        lastS0 = logS0;
        lastS1 = logS1;
    }
    return kInfinity;
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
        return kInfinity;
    if (q == 0.0)
        return 0.0;
    if (q == 1.0)
        return alpha / (2.0 * sigma * sigma);
    const double logA =
        std::floor(alpha) == alpha ? logAInt(q, sigma, static_cast<long>(alpha)) : logAFrac(q, sigma, alpha);
    return std::max(0.0, logA / (alpha - 1.0)); // A_α ≥ 1; a sum near 1 can round below it
}

namespace {

/// ε at one order from its composed RDP r: 0 where the KL bound δ² + expm1(−r) > 0 holds, +∞
/// for orders ≤ 1.01 (skipped, as dp_accounting does), else r + log((α−1)/α) − log(δα)/(α−1).
double epsilonAtOrder(double a, double r, double delta) {
    if (delta * delta + std::expm1(-r) > 0.0)
        return 0.0; // the KL bound δ ≤ √(1 − e^{−RDP}) already holds
    if (a > 1.01)
        return r + std::log1p(-1.0 / a) - std::log(delta * a) / (a - 1.0);
    return kInfinity;
}

} // namespace

RdpConversion rdpToEpsilon(const std::vector<double>& orders, const std::vector<double>& rdp, double delta) {
    if (!(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("RDP accountant: δ must lie in (0, 1)");
    if (orders.size() != rdp.size() || orders.empty())
        throw std::invalid_argument("RDP accountant: one RDP value per order is needed");
    RdpConversion best{kInfinity, orders.front()};
    for (std::size_t i = 0; i < orders.size(); ++i) {
        const double a = orders[i];
        const double r = rdp[i];
        if (!(a >= 1.0) || !(r >= 0.0))
            throw std::invalid_argument("RDP accountant: orders must be ≥ 1 and RDP values ≥ 0");
        const double eps = epsilonAtOrder(a, r, delta);
        if (eps < best.epsilon)
            best = {eps, a};
    }
    best.epsilon = std::max(0.0, best.epsilon);
    return best;
}

RdpConversion rdpEpsilon(double sigma, double q, long long steps, double delta, const std::vector<double>& orders) {
    return rdpEpsilons(sigma, q, {steps}, delta, orders).front();
}

namespace {

void checkSteps(const std::vector<long long>& steps) {
    for (long long t : steps)
        if (t < 0)
            throw std::invalid_argument("RDP accountant: the number of steps must be ≥ 0");
}

std::vector<RdpConversion> convert(const std::vector<double>& orders, const std::vector<double>& oneStep,
                                   const std::vector<long long>& steps, double delta) {
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

bool isFractional(double alpha) { return std::isfinite(alpha) && std::floor(alpha) != alpha; }

/// A lower bound on one step's RDP at a fractional order α as this code computes it, from
/// quantities that cost little: Rényi divergences grow with the order, so RDP(α) ≥ RDP(⌊α⌋) for
/// α > 2 (an integer order, exact and cheap); and every order > 1 is at least the KL divergence,
/// which Pinsker bounds by 2·TV², where the total variation of the subsampled pair is
/// q·erf(1/(2√2 σ)). Less 1e-10: a computed RDP near 0 is a logarithm of a sum of up to 1000
/// terms near 1 and can round that far below the true one.
double oneStepLowerBound(double q, double sigma, double alpha) {
    const double tv = q * std::erf(1.0 / (2.0 * std::sqrt(2.0) * sigma));
    double bound = 2.0 * tv * tv;
    if (alpha > 2.0)
        bound = std::max(bound, rdpSubsampledGaussian(q, sigma, std::floor(alpha)));
    return std::max(0.0, bound - 1e-10);
}

} // namespace

std::vector<RdpConversion> rdpEpsilonsExhaustive(double sigma, double q, const std::vector<long long>& steps,
                                                 double delta, const std::vector<double>& orders) {
    checkSteps(steps);
    // The orders are independent (at a small σ one fractional order sums hundreds of terms): in
    // parallel, each into its own slot, so the result is the same for any thread count.
    std::vector<double> oneStep(orders.size());
    tbb::parallel_for(std::size_t(0), orders.size(),
                      [&](std::size_t i) { oneStep[i] = rdpSubsampledGaussian(q, sigma, orders[i]); });
    return convert(orders, oneStep, steps, delta);
}

std::vector<RdpConversion> rdpEpsilons(double sigma, double q, const std::vector<long long>& steps, double delta,
                                       const std::vector<double>& orders) {
    checkSteps(steps);
    if (!(q > 0.0 && q < 1.0 && sigma > 0.0)) // closed forms or invalid input: nothing to save
        return rdpEpsilonsExhaustive(sigma, q, steps, delta, orders);
    // Integer orders first (a binomial sum of at most α + 1 terms) and the best ε they give at
    // each T. A fractional order (a series of up to 1000 terms) is then summed only where its ε
    // could beat that best at some T: its ε is at least T·(a lower bound on its one-step RDP) +
    // log((α−1)/α) − log(δα)/(α−1), unless the KL bound could make it 0. Skipped orders lose to
    // an order already summed by a margin far above rounding, so the result equals the
    // exhaustive search's bit for bit (a test compares the two).
    std::vector<double> oneStep(orders.size(), kInfinity);
    std::vector<std::size_t> cheap, costly;
    for (std::size_t i = 0; i < orders.size(); ++i)
        (isFractional(orders[i]) ? costly : cheap).push_back(i);
    tbb::parallel_for(std::size_t(0), cheap.size(),
                      [&](std::size_t k) { oneStep[cheap[k]] = rdpSubsampledGaussian(q, sigma, orders[cheap[k]]); });
    const std::vector<RdpConversion> bestCheap = convert(orders, oneStep, steps, delta);
    std::vector<std::size_t> needed;
    for (std::size_t i : costly) {
        const double a = orders[i];
        const double lowerStep = oneStepLowerBound(q, sigma, a);
        bool need = false;
        for (std::size_t j = 0; j < steps.size() && !need; ++j) {
            if (steps[j] == 0)
                continue; // every order gives ε = 0
            const double lowerRdp = static_cast<double>(steps[j]) * lowerStep;
            const double best = bestCheap[j].epsilon;
            const bool klPossible = delta * delta + std::expm1(-lowerRdp * (1.0 - 1e-6)) > 0.0;
            const double lowerEps =
                a > 1.01 ? lowerRdp + std::log1p(-1.0 / a) - std::log(delta * a) / (a - 1.0) : kInfinity;
            need = klPossible || lowerEps <= best + 1e-6 * (1.0 + best);
        }
        if (need)
            needed.push_back(i);
    }
    tbb::parallel_for(std::size_t(0), needed.size(),
                      [&](std::size_t k) { oneStep[needed[k]] = rdpSubsampledGaussian(q, sigma, orders[needed[k]]); });
    return convert(orders, oneStep, steps, delta);
}

} // namespace elab::core
