// The PLD accountant (pld.h; docs/MATH.md §3.6, accountant 4).

#include "core/privacy/pld.h"

#include "core/privacy/pld_compose.h"
#include "core/privacy/pld_step.h"

#include "core/privacy/analytic_gaussian.h"
#include "core/util/fft.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace elab::core {

namespace {

using namespace pld_detail;

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
