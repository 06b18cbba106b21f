// The PLD accountant (pld.h; docs/MATH.md §3.6, accountant 4).

#include "core/privacy/pld.h"

#include "core/privacy/analytic_gaussian.h"
#include "core/util/fft.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace elab::core {

namespace {

using mechanism_constants::logNormalCdf;

constexpr double kInf = std::numeric_limits<double>::infinity();
/// How much mass the truncations may move. Per step, the noise is cut where Φ = stepTail on each
/// side: the loss range discretised. Nothing is lost: connect the dots puts the mass above the
/// top grid point at +∞ and lumps the mass below the bottom one on it (both only raise δ, by at
/// most stepTail per step each). The composed PMF: the mass outside the FFT window (Chernoff
/// bounds) ≤ composedTail/2 per side; the upper part is counted at +∞, the lower part wraps
/// around into the window (raising δ by at most its mass).
struct Tails {
    double stepTail = 0.5 * std::exp(-50.0); ///< dp_accounting's default
    double composedTail = 1e-15;

    /// For ε at δ after T steps: the truncations together raise δ by at most ~1e-6·δ.
    static Tails forDelta(double delta, long long steps) {
        Tails t;
        t.stepTail = std::max(t.stepTail, 1e-7 * delta / static_cast<double>(std::max(1LL, steps)));
        t.composedTail = std::max(t.composedTail, 1e-6 * delta);
        return t;
    }
};
/// Limits on the grid: one step's grid points and the FFT length (h grows to fit them).
constexpr std::size_t kMaxStepPoints = std::size_t{1} << 20;
constexpr std::size_t kMaxFftLength = std::size_t{1} << 22;

double logAddExp(double a, double b) {
    if (a == -kInf)
        return b;
    if (b == -kInf)
        return a;
    const double m = std::max(a, b);
    return m + std::log1p(std::exp(-std::abs(a - b)));
}

/// z with Φ(z) = tail, by bisection on log Φ.
double noiseTailQuantile(double tail) {
    const double target = std::log(tail);
    double lo = -40.0, hi = 0.0;
    for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        (logNormalCdf(mid) < target ? lo : hi) = mid;
    }
    return hi;
}

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
          tailZ(noiseTailQuantile(stepTail)) {}

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

/// The T-fold composition of one or two grid PMFs (two real sequences share one complex FFT:
/// the first in the real part, the second in the imaginary part).
struct Composed {
    long long lo = 0; ///< grid index of out[0]
    std::vector<double> p;
    double inf = 0.0;
};

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

/// More steps than any training takes; keeps every index sum (grid index × T) within long long.
constexpr long long kMaxSteps = 1'000'000'000'000LL;

void checkParams(double sigma, double q, long long steps) {
    if (!(sigma >= 0.0) || !std::isfinite(sigma))
        throw std::invalid_argument("PLD accountant: the noise multiplier σ must be a finite number ≥ 0");
    if (!(q > 0.0 && q <= 1.0))
        throw std::invalid_argument("PLD accountant: the sampling rate q must lie in (0, 1]");
    if (steps < 0 || steps > kMaxSteps)
        throw std::invalid_argument("PLD accountant: the number of steps must lie in [0, 10¹²]");
}

std::vector<Pair> pairsOf(double q, PldNeighbours neighbours) {
    if (neighbours == PldNeighbours::ReplaceOne)
        return {Pair::Replace};
    if (q == 1.0)
        return {Pair::Remove}; // q = 1: the add pair's PLD is the remove pair's
    return {Pair::Remove, Pair::Add};
}

/// The composed PMFs of a run (sigma > 0, steps ≥ 1) and the h used.
struct Run {
    std::vector<Composed> composed;
    PldEpsilon info;
};

Run run(double sigma, double q, long long steps, PldNeighbours neighbours, const PldSettings& settings,
        const Tails& tails) {
    std::vector<StepPair> pairs;
    for (Pair p : pairsOf(q, neighbours))
        pairs.emplace_back(sigma, q, p, tails.stepTail);
    double sd = 0.0, range = 0.0;
    for (const StepPair& p : pairs) {
        sd = std::max(sd, p.lossSd());
        const auto [xa, xb] = p.xRange();
        range = std::max(range, p.loss(xa) - p.loss(xb));
    }
    double h = settings.discretization;
    if (!(h > 0.0)) {
        if (!(settings.relativeAccuracy > 0.0))
            throw std::invalid_argument("PLD accountant: the relative accuracy must be > 0");
        h = sd * std::sqrt(8.0 * settings.relativeAccuracy);
    }
    if (!std::isfinite(h) || !(h > 0.0))
        h = range / 1024.0;
    h = std::max(h, range / static_cast<double>(kMaxStepPoints));
    if (!(settings.discretization > 0.0) && steps > 1) {
        // The FFT length is a power of two: let h grow by up to √2 (the excess by up to 2) so that
        // the composed window fills one instead of leaving up to half of the next unused. The
        // window's extent in loss units, from a grid 8 times coarser (cheap, and a little wider).
        const double coarse = 8.0 * h;
        double extent = 0.0;
        for (const StepPair& p : pairs) {
            const GridPmf g = connectTheDots(p, coarse);
            const auto [jLo, jHi] = chernoffWindow(g, steps, sd / coarse, tails.composedTail);
            extent = std::max(extent, static_cast<double>(jHi - jLo + 1) * coarse);
        }
        const double bins = 1.15 * extent / h; // the final grid's window comes out a little wider
        const std::size_t n = Fft::nextPowerOfTwo(static_cast<std::size_t>(std::ceil(bins / std::numbers::sqrt2)));
        if (static_cast<double>(n) < bins)
            h = std::min(std::numbers::sqrt2 * h, std::max(h, 1.15 * extent / static_cast<double>(n)));
    }
    Run r;
    for (int attempt = 0;; ++attempt) {
        std::vector<GridPmf> grids;
        for (const StepPair& p : pairs)
            grids.push_back(connectTheDots(p, h));
        try {
            r.composed = compose(grids, steps, sd / h, tails.composedTail, r.info.fftLength);
            break;
        } catch (const std::length_error&) {
            if (attempt >= 8)
                throw std::runtime_error("PLD accountant: no grid step fits the composition of " +
                                         std::to_string(steps) + " steps in an FFT of 2^22");
            h *= 2.0;
        }
    }
    r.info.discretization = h;
    r.info.stepLossSd = sd;
    for (const Composed& c : r.composed)
        r.info.infinityMass = std::max(r.info.infinityMass, c.inf);
    return r;
}

/// The search of pldCalibrateSigma on one grid setting: from σ = start, secant steps in
/// (log σ, log ε) (the slope guessed as `slope` until two points are known, at most ×16 a step,
/// overshooting by 5 % to bracket), then the Illinois variant of regula falsi keeping
/// ε(hi) ≤ target, until target − ε(hi) ≤ tolerance·target.
struct Solved {
    enum class Status { Bracketed, NoneUpToMax, AlmostNoNoise } status = Status::NoneUpToMax;
    double lo = 0.0, hi = 0.0; ///< ε(lo) > target ≥ ε(hi)
    PldEpsilon atLo, atHi;
};

Solved solveForSigma(const std::function<PldEpsilon(double)>& at, double targetEps, double start, double slope0,
                     double tolerance, double maxSigma) {
    const double logTarget = std::log(targetEps);
    // f(σ) = log ε(σ) − log target, decreasing in σ; ±∞ where ε is +∞ or 0.
    const auto f = [&](const PldEpsilon& e) { return std::log(e.epsilon) - logTarget; };
    Solved r;
    double s = start;
    PldEpsilon e = at(s);
    double prevS = 0.0, prevF = 0.0;
    for (int it = 0; it < 100; ++it) {
        const double fs = f(e);
        if (fs <= 0.0) {
            r.hi = s;
            r.atHi = e;
        } else {
            r.lo = s;
            r.atLo = e;
        }
        if (r.lo > 0.0 && r.hi > 0.0)
            break;
        double slope = slope0;
        if (prevS > 0.0 && std::isfinite(fs) && std::isfinite(prevF) && s != prevS) {
            const double g = (fs - prevF) / (std::log(s) - std::log(prevS));
            if (g < -0.05)
                slope = g;
        }
        double stepLog = std::isfinite(fs) ? -fs / slope : (fs > 0.0 ? std::log(16.0) : -std::log(16.0));
        stepLog = std::clamp(stepLog * 1.05, -std::log(16.0), std::log(16.0));
        if (fs > 0.0 && stepLog < 1e-4)
            stepLog = 1e-4;
        if (fs <= 0.0 && stepLog > -1e-4)
            stepLog = -1e-4;
        prevS = s;
        prevF = fs;
        s *= std::exp(stepLog);
        if (r.hi == 0.0 && s >= maxSigma) {
            if (prevS >= maxSigma)
                return r; // NoneUpToMax
            s = maxSigma;
        }
        if (r.lo == 0.0 && s < 1e-6) {
            r.status = Solved::Status::AlmostNoNoise; // almost no noise already meets the target
            return r;
        }
        e = at(s);
    }
    if (!(r.lo > 0.0 && r.hi > 0.0))
        return r;
    r.status = Solved::Status::Bracketed;
    double fLo = f(r.atLo), fHi = f(r.atHi);
    int side = 0;
    for (int it = 0; it < 100; ++it) {
        if (targetEps - r.atHi.epsilon <= tolerance * targetEps || r.hi / r.lo - 1.0 < 1e-12)
            break;
        const double a = std::log(r.lo), b = std::log(r.hi);
        double m = 0.5 * (a + b); // bisection where f is infinite
        if (std::isfinite(fLo) && std::isfinite(fHi) && fLo != fHi)
            m = std::clamp(a + (b - a) * fLo / (fLo - fHi), a + 1e-3 * (b - a), b - 1e-3 * (b - a));
        const double mid = std::exp(m);
        const PldEpsilon atMid = at(mid);
        const double fm = f(atMid);
        if (fm <= 0.0) {
            r.hi = mid;
            r.atHi = atMid;
            fHi = fm;
            if (side == 1)
                fLo *= 0.5;
            side = 1;
        } else {
            r.lo = mid;
            r.atLo = atMid;
            fLo = fm;
            if (side == -1)
                fHi *= 0.5;
            side = -1;
        }
    }
    return r;
}

} // namespace

PldEpsilon pldEpsilon(double sigma, double q, long long steps, double delta, PldNeighbours neighbours,
                      const PldSettings& settings) {
    checkParams(sigma, q, steps);
    if (!(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("PLD accountant: δ must lie in (0, 1)");
    PldEpsilon e;
    e.delta = delta;
    if (steps == 0)
        return e;
    if (sigma == 0.0) {
        e.epsilon = kInf;
        e.infinityMass = 1.0;
        return e;
    }
    Run r = run(sigma, q, steps, neighbours, settings, Tails::forDelta(delta, steps));
    e = r.info;
    e.delta = delta;
    e.epsilon = 0.0;
    for (const Composed& c : r.composed)
        e.epsilon = std::max(e.epsilon, epsilonOf(c, e.discretization, delta));
    return e;
}

double pldDelta(double sigma, double q, long long steps, double epsilon, PldNeighbours neighbours,
                const PldSettings& settings) {
    checkParams(sigma, q, steps);
    if (std::isnan(epsilon))
        throw std::invalid_argument("PLD accountant: ε must be a number");
    if (steps == 0)
        return 0.0;
    if (sigma == 0.0)
        return 1.0;
    const Run r = run(sigma, q, steps, neighbours, settings, Tails{});
    double d = 0.0;
    for (const Composed& c : r.composed)
        d = std::max(d, deltaOf(c, r.info.discretization, epsilon));
    return d;
}

double pldStepDelta(double sigma, double q, double epsilon, PldNeighbours neighbours) {
    checkParams(sigma, q, 1);
    if (!(sigma > 0.0))
        throw std::invalid_argument("PLD accountant: the step's δ needs σ > 0");
    double d = 0.0;
    for (Pair p : pairsOf(q, neighbours))
        d = std::max(d, StepPair(sigma, q, p, Tails{}.stepTail).delta(epsilon));
    return d;
}

std::optional<PldCalibration> pldCalibrateSigma(double targetEps, double q, long long steps, double delta,
                                                PldNeighbours neighbours, double maxSigma,
                                                const PldSettings& settings) {
    if (!(targetEps > 0.0) || !std::isfinite(targetEps))
        throw std::invalid_argument("PLD calibration: the target ε must be a finite number > 0");
    if (!(maxSigma > 0.0) || !std::isfinite(maxSigma))
        throw std::invalid_argument("PLD calibration: the largest σ must be a finite number > 0");
    checkParams(1.0, q, steps);
    if (!(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("PLD calibration: δ must lie in (0, 1)");
    const auto atWith = [&](const PldSettings& st) {
        return [&, st](double sigma) { return pldEpsilon(sigma, q, steps, delta, neighbours, st); };
    };
    if (steps == 0)
        return PldCalibration{0.0, atWith(settings)(0.0), true};
    double start = std::min(1.0, maxSigma), slope = -1.0;
    if (!(settings.discretization > 0.0)) {
        // First on a grid 10 times coarser (excess ~100r, a tenth of the grid points): its root is
        // a little above the fine one, and with its slope the fine search needs 3–4 evaluations.
        PldSettings coarse = settings;
        coarse.relativeAccuracy *= 100.0;
        const Solved c = solveForSigma(atWith(coarse), targetEps, start, slope, 1e-4, maxSigma);
        if (c.status == Solved::Status::Bracketed) {
            start = c.hi;
            const double fLo = std::log(c.atLo.epsilon / targetEps), fHi = std::log(c.atHi.epsilon / targetEps);
            if (std::isfinite(fLo) && std::isfinite(fHi) && c.lo < c.hi)
                slope = std::min(-0.05, (fHi - fLo) / (std::log(c.hi) - std::log(c.lo)));
        }
    }
    const Solved r = solveForSigma(atWith(settings), targetEps, start, slope, 1e-5, maxSigma);
    switch (r.status) {
    case Solved::Status::NoneUpToMax: return std::nullopt;
    case Solved::Status::AlmostNoNoise: return PldCalibration{r.hi, r.atHi, true};
    case Solved::Status::Bracketed: break;
    }
    return PldCalibration{r.hi, r.atHi, targetEps - r.atHi.epsilon <= 1e-3 * targetEps};
}

} // namespace elab::core
