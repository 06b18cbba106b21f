#include "core/sweeps/mechanism_comparison.h"

#include "core/sweeps/proposed_eps.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace elab::core {

namespace {

bool meets(double value, double target, UtilityMetric metric) {
    return std::isfinite(value) && (isLossMetric(metric) ? value <= target : value >= target);
}

} // namespace

std::optional<double> measuredTargetEps(const std::vector<SweepPoint>& points, double target, UtilityMetric metric) {
    if (points.empty())
        return std::nullopt;
    if (points.size() == 1)
        return meets(points.front().mean, target, metric) ? std::optional<double>(points.front().eps) : std::nullopt;
    return smallestEpsMeeting(measuredCurve(points), target, isLossMetric(metric), points.front().eps,
                              points.back().eps);
}

TargetEps verifyTargetEps(const PreparedProblem& problem, const std::vector<SweepPoint>& points,
                          const TargetEpsSpec& spec, RunContext* ctx) {
    TargetEps result;
    result.measured = measuredTargetEps(points, spec.target, spec.metric);
    if (!result.measured)
        return result;
    const double epsM = *result.measured;
    // The grid point above ε_m that met the target in the sweep (ε_m itself when it is one).
    double hi = NAN;
    for (const SweepPoint& p : points)
        if (p.eps >= epsM * (1.0 - 1e-12) && meets(p.mean, spec.target, spec.metric)) {
            hi = p.eps;
            break;
        }
    if (std::isfinite(hi) && std::abs(hi - epsM) <= 1e-12 * hi) {
        result.verified = hi; // measured there already, with these seeds
        return result;
    }
    const auto measure = [&](double eps) -> std::optional<TargetEpsStep> {
        UtilitySweepSpec s;
        s.grid = {eps};
        s.repeats = spec.repeats;
        s.metric = spec.metric;
        s.seed = spec.seed;
        s.threads = spec.threads;
        s.solverOptions = spec.solverOptions;
        s.estimators.clear();
        s.reference = false;
        const UtilitySweepResult r = runUtilitySweep(problem, s, ctx);
        if (r.cancelled || r.points.empty())
            return std::nullopt;
        const SweepPoint& p = r.points.front();
        return TargetEpsStep{eps, p.mean, p.sd, meets(p.mean, spec.target, spec.metric)};
    };
    double lo = epsM;
    for (int k = 0; k <= spec.maxSteps; ++k) {
        const double eps = k == 0 ? epsM : std::sqrt(lo * hi);
        const auto step = measure(eps);
        if (!step) {
            result.cancelled = true;
            break;
        }
        result.steps.push_back(*step);
        if (step->meets) {
            hi = eps;
            if (k == 0)
                break; // ε_m verified
        } else {
            lo = eps;
        }
        if (!std::isfinite(hi) || hi <= lo * (1.0 + spec.relativeWidth))
            break;
    }
    if (std::isfinite(hi))
        result.verified = hi;
    return result;
}

std::vector<std::size_t> rankByUtility(const std::vector<double>& values, UtilityMetric metric) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const bool lower = isLossMetric(metric);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const double x = values[a], y = values[b];
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y);
        return lower ? x < y : x > y;
    });
    return order;
}

std::optional<std::size_t> leastEps(const std::vector<std::optional<double>>& eps) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < eps.size(); ++i)
        if (eps[i] && (!best || *eps[i] < *eps[*best]))
            best = i;
    return best;
}

} // namespace elab::core
