#include "core/privacy/pld_compose.h"

#include "core/util/fft.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <stdexcept>

namespace elab::core::pld_detail {

namespace {

constexpr std::size_t kCachedFftLength = std::size_t{1} << 18;

/// The plan for length n, kept per thread (calibration transforms at one length many times):
/// plans up to kCachedFftLength only (~10 MB each), at most four per thread; a longer one is made
/// for the call, in uncached (its cost is small beside the transforms of that length).
const Fft& fftPlan(std::size_t n, std::unique_ptr<Fft>& uncached) {
    if (n > kCachedFftLength) {
        uncached = std::make_unique<Fft>(n);
        return *uncached;
    }
    thread_local std::vector<std::unique_ptr<Fft>> plans;
    for (const std::unique_ptr<Fft>& p : plans)
        if (p->size() == n)
            return *p;
    if (plans.size() >= 4)
        plans.erase(plans.begin());
    plans.push_back(std::make_unique<Fft>(n));
    return *plans.back();
}

} // namespace

/// The window [jLo, jHi] of the T-fold sum of grid indices (0 … T(n−1)) outside which the
/// composed PMF has mass ≤ composedTail/2 on each side (Chernoff: P(S ≥ a) ≤ e^{T·K(λ) − λa}).
std::array<long long, 2> chernoffWindow(const GridPmf& g, long long steps, double spreadBins, double composedTail) {
    const std::size_t n = g.p.size();
    const long long maxSum = static_cast<long long>(n - 1) * steps;
    long long jLo = 0, jHi = maxSum;
    if (steps == 1 || n == 1)
        return {jLo, jHi};
    const double t = static_cast<double>(steps);
    const double logTail = std::log(2.0 / composedTail);
    const double scale = 1.0 / std::max(1.0, spreadBins * std::sqrt(t)); // λ per bin
    // λ on two scales: the composed spread (for a bell-shaped sum) and the step's grid width n
    // (for a step whose loss has a long thin tail, as small q and σ give).
    static constexpr std::array<double, 10> kOrders{0.5, 1, 2, 3, 4, 6, 8, 12, 16, 32};
    static constexpr std::array<double, 6> kTailOrders{1, 2, 5, 10, 20, 40};
    std::vector<double> lambdas;
    for (double c : kOrders)
        lambdas.push_back(c * scale);
    for (double c : kTailOrders)
        lambdas.push_back(c / static_cast<double>(n));
    const std::size_t m = lambdas.size();
    // K(±λ) = log Σ p_j e^{±λj} for all λ at once: running products where e^{λn} stays in range
    // (independent chains, one pass over p), log-sum-exp for the others.
    std::vector<double> k(2 * m, 0.0), ratio(2 * m), weight(2 * m, 1.0), sum(2 * m, 0.0);
    std::vector<std::size_t> logSumExp;
    for (std::size_t i = 0; i < 2 * m; ++i) {
        const double lambda = (i < m ? 1.0 : -1.0) * lambdas[i % m];
        ratio[i] = std::exp(lambda);
        if (std::abs(lambda) * static_cast<double>(n) >= 600.0)
            logSumExp.push_back(i);
    }
    for (std::size_t j = 0; j < n; ++j) {
        const double pj = g.p[j];
        for (std::size_t i = 0; i < 2 * m; ++i) {
            sum[i] += pj * weight[i];
            weight[i] *= ratio[i];
        }
    }
    for (std::size_t i = 0; i < 2 * m; ++i)
        k[i] = std::log(sum[i]);
    for (std::size_t i : logSumExp) {
        const double lambda = (i < m ? 1.0 : -1.0) * lambdas[i % m];
        double mx = -kInf;
        for (std::size_t j = 0; j < n; ++j)
            if (g.p[j] > 0.0)
                mx = std::max(mx, std::log(g.p[j]) + lambda * static_cast<double>(j));
        double s = 0.0;
        for (std::size_t j = 0; j < n; ++j)
            if (g.p[j] > 0.0)
                s += std::exp(std::log(g.p[j]) + lambda * static_cast<double>(j) - mx);
        k[i] = mx + std::log(s);
    }
    for (std::size_t i = 0; i < 2 * m; ++i) {
        const double lambda = (i < m ? 1.0 : -1.0) * lambdas[i % m];
        // Clamped to [0, maxSum] before the conversion (a double beyond long long's range is UB).
        const double bound = std::clamp((t * k[i] + logTail) / lambda, 0.0, static_cast<double>(maxSum));
        if (!std::isfinite(bound))
            continue;
        if (lambda > 0.0)
            jHi = std::min(jHi, static_cast<long long>(std::ceil(bound)));
        else
            jLo = std::max(jLo, static_cast<long long>(std::floor(bound)));
    }
    if (jHi < jLo)
        jHi = jLo;
    return {jLo, jHi};
}

/// ε at δ of a composed PMF: the smallest ε ≥ 0 with Σ_{L>ε} p(L)(1 − e^{ε−L}) + p(∞) ≤ δ
/// (dp_accounting's scan from the top).
double epsilonOf(const Composed& c, double h, double delta) {
    if (c.inf > delta)
        return kInf;
    double upper = c.inf, lower = 0.0;
    for (std::size_t i = c.p.size(); i-- > 0;) {
        const double loss = static_cast<double>(c.lo + static_cast<long long>(i)) * h;
        if (upper > delta && lower > 0.0 && std::log((upper - delta) / lower) >= loss)
            break;
        upper += c.p[i];
        lower += c.p[i] * std::exp(-loss);
        if (upper >= delta && lower == 0.0)
            return std::max(0.0, loss);
    }
    if (upper <= lower + delta)
        return 0.0;
    return std::max(0.0, std::log((upper - delta) / lower));
}

/// δ at ε of a composed PMF.
double deltaOf(const Composed& c, double h, double eps) {
    double d = c.inf;
    for (std::size_t i = c.p.size(); i-- > 0;) {
        const double loss = static_cast<double>(c.lo + static_cast<long long>(i)) * h;
        if (loss <= eps)
            break;
        d += c.p[i] * -std::expm1(eps - loss);
    }
    return std::min(1.0, d);
}

std::vector<Composed> compose(const std::vector<GridPmf>& pmfs, long long steps, double spreadBins, double composedTail,
                              std::size_t& fftLength) {
    std::vector<Composed> out(pmfs.size());
    fftLength = 0;
    if (steps == 1) {
        for (std::size_t k = 0; k < pmfs.size(); ++k)
            out[k] = {pmfs[k].lo, pmfs[k].p, pmfs[k].inf};
        return out;
    }
    std::vector<std::array<long long, 2>> windows;
    std::size_t width = 1;
    for (const GridPmf& g : pmfs) {
        windows.push_back(chernoffWindow(g, steps, spreadBins, composedTail));
        width = std::max(width, static_cast<std::size_t>(windows.back()[1] - windows.back()[0] + 1));
    }
    const std::size_t n = Fft::nextPowerOfTwo(width);
    if (n > kMaxFftLength)
        throw std::length_error("PLD: the composed window needs an FFT longer than 2^22");
    fftLength = n;
    std::unique_ptr<Fft> uncached;
    const Fft& fft = fftPlan(n, uncached);
    std::vector<std::complex<double>> x(n);
    for (std::size_t k = 0; k < pmfs.size(); ++k)
        for (std::size_t j = 0; j < pmfs[k].p.size(); ++j) // folded modulo n: the sums fold alike
            x[j % n] += k == 0 ? std::complex<double>(pmfs[k].p[j], 0.0) : std::complex<double>(0.0, pmfs[k].p[j]);
    fft.forward(x);
    // |z|^T underflows for most frequencies: skip where T·log|z| < −700.
    const double t = static_cast<double>(steps);
    const double minAbs2 = std::exp(-1400.0 / t);
    const auto power = [&](std::complex<double> z) -> std::complex<double> {
        const double a2 = z.real() * z.real() + z.imag() * z.imag();
        if (!(a2 >= minAbs2))
            return {0.0, 0.0};
        return std::exp(t * std::log(z));
    };
    if (pmfs.size() == 1) {
        for (std::complex<double>& z : x)
            z = power(z);
    } else {
        // X = A + iB with A, B the transforms of two real sequences: A_k = (X_k + conj X_{−k})/2,
        // B_k = (X_k − conj X_{−k})/(2i). The composed pair is A^T + iB^T.
        std::vector<std::complex<double>> y(n);
        for (std::size_t k = 0; k < n; ++k) {
            const std::complex<double> xk = x[k], xm = std::conj(x[(n - k) % n]);
            const std::complex<double> a = 0.5 * (xk + xm);
            const std::complex<double> b = std::complex<double>(0.0, -0.5) * (xk - xm);
            y[k] = power(a) + std::complex<double>(0.0, 1.0) * power(b);
        }
        x.swap(y);
    }
    fft.inverse(x);
    for (std::size_t k = 0; k < pmfs.size(); ++k) {
        const auto [jLo, jHi] = windows[k];
        Composed& c = out[k];
        const std::size_t len = static_cast<std::size_t>(jHi - jLo + 1);
        c.lo = pmfs[k].lo * steps + jLo;
        c.p.resize(len);
        const std::size_t start = static_cast<std::size_t>(jLo % static_cast<long long>(n));
        for (std::size_t i = 0; i < len; ++i) {
            const std::complex<double>& v = x[(start + i) % n];
            c.p[i] = std::max(0.0, k == 0 ? v.real() : v.imag());
        }
        // Mass at +∞: 1 − (1 − inf)^T, and the upper tail beyond the window (≤ composedTail/2).
        c.inf = -std::expm1(t * std::log1p(-pmfs[k].inf)) + 0.5 * composedTail;
    }
    return out;
}

} // namespace elab::core::pld_detail
