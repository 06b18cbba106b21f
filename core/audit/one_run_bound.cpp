#include "core/audit/one_run_bound.h"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace elab::core {

namespace {

// The largest ε the bisection looks at: e^ε/(1 + e^ε) = 1 − 9.4e-14, beyond which a binomial
// success probability is 1 in double precision.
constexpr double kMaxEps = 30.0;

void check(long long m, long long r, long long v, double delta) {
    if (!(0 <= v && v <= r && r <= m && m >= 1))
        throw std::invalid_argument("the one-run bound needs 0 ≤ correct ≤ guesses ≤ canaries and ≥ 1 canary (got " +
                                    std::to_string(v) + ", " + std::to_string(r) + ", " + std::to_string(m) + ")");
    if (!(delta >= 0.0 && delta < 1.0))
        throw std::invalid_argument("the one-run bound needs 0 ≤ δ < 1");
}

} // namespace

double oneRunPValue(long long m, long long r, long long v, double eps, double delta) {
    check(m, r, v, delta);
    if (!(eps >= 0.0))
        throw std::invalid_argument("the one-run bound needs ε ≥ 0");
    if (v == 0)
        return 1.0;
    const double q = 1.0 / (1.0 + std::exp(-eps)); // the accuracy of ε-randomised response
    const boost::math::binomial_distribution<double> bin(static_cast<double>(r), q);
    // f(v) = P[X ≥ v] = P[X > v − 1].
    const double fv = boost::math::cdf(boost::math::complement(bin, static_cast<double>(v - 1)));
    double worst = 0.0, below = 0.0; // below = f(v − i) − f(v) = P[v − i ≤ X ≤ v − 1]
    if (delta > 0.0)
        for (long long i = 1; i <= v; ++i) {
            below += boost::math::pdf(bin, static_cast<double>(v - i));
            worst = std::max(worst, below / static_cast<double>(i));
        }
    return std::min(1.0, fv + 2.0 * static_cast<double>(m) * delta * worst);
}

double oneRunEpsilonLowerBound(long long m, long long r, long long v, double delta, double alpha) {
    check(m, r, v, delta);
    if (!(alpha > 0.0 && alpha < 1.0))
        throw std::invalid_argument("the one-run bound needs a confidence level α in (0, 1)");
    auto rejected = [&](double eps) { return oneRunPValue(m, r, v, eps, delta) < alpha; };
    if (!rejected(0.0))
        return 0.0;
    double lo = 0.0, hi = 1.0; // invariant: rejected(lo)
    while (hi < kMaxEps && rejected(hi)) {
        lo = hi;
        hi = std::min(kMaxEps, 2.0 * hi);
    }
    if (rejected(hi))
        return hi;
    while (hi - lo > 1e-9) {
        const double mid = 0.5 * (lo + hi);
        (rejected(mid) ? lo : hi) = mid;
    }
    return lo;
}

std::vector<long long> oneRunGuessGrid(long long m) {
    if (m < 1)
        throw std::invalid_argument("the one-run audit needs at least one canary");
    std::vector<long long> grid;
    for (long long r = 2; r < m; r *= 2)
        grid.push_back(r);
    grid.push_back(m);
    return grid;
}

OneRunBound oneRunBound(std::span<const double> scores, std::span<const char> included, double delta, double alpha) {
    if (scores.size() != included.size() || scores.empty())
        throw std::invalid_argument("the one-run bound needs one score per canary (and at least one canary)");
    const auto m = static_cast<long long>(scores.size());
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Highest score first; ties (and NaN, last) by canary index, which the coins do not choose.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const double x = scores[a], y = scores[b];
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y);
        return x > y;
    });
    OneRunBound out;
    out.canaries = m;
    const std::vector<long long> rs = oneRunGuessGrid(m);
    const double level = alpha / static_cast<double>(rs.size());
    for (long long r : rs) {
        OneRunGuess g;
        g.guesses = r;
        g.kIn = (r + 1) / 2;
        g.kOut = r - g.kIn;
        for (long long k = 0; k < g.kIn; ++k)
            g.correct += included[order[static_cast<std::size_t>(k)]] ? 1 : 0;
        for (long long k = 0; k < g.kOut; ++k)
            g.correct += included[order[static_cast<std::size_t>(m - 1 - k)]] ? 0 : 1;
        g.epsLB = oneRunEpsilonLowerBound(m, r, g.correct, delta, level);
        if (g.epsLB >= out.epsLB) {
            out.epsLB = g.epsLB;
            out.best = g;
        }
        out.maxCertifiable = std::max(out.maxCertifiable, oneRunEpsilonLowerBound(m, r, r, delta, level));
        out.grid.push_back(g);
    }
    return out;
}

} // namespace elab::core
