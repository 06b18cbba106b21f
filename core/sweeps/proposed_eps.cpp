#include "core/sweeps/proposed_eps.h"

#include <cmath>

namespace elab::core {

std::optional<double> smallestEpsMeeting(const std::function<double(double)>& f, double target, bool lowerIsBetter,
                                         double epsMin, double epsMax) {
    if (!f || !(epsMin > 0.0) || !(epsMax >= epsMin))
        return std::nullopt;
    const auto meets = [&](double eps) {
        const double v = f(eps);
        return std::isfinite(v) && (lowerIsBetter ? v <= target : v >= target);
    };
    const double lo = std::log(epsMin), hi = std::log(epsMax);
    constexpr int kScan = 400;
    double previous = lo;
    for (int k = 0; k <= kScan; ++k) {
        const double x = lo + (hi - lo) * k / kScan;
        if (meets(std::exp(x))) {
            if (k == 0)
                return std::exp(x);
            double a = previous, b = x; // a misses, b meets
            for (int i = 0; i < 50; ++i) {
                const double mid = 0.5 * (a + b);
                (meets(std::exp(mid)) ? b : a) = mid;
            }
            return std::exp(b);
        }
        previous = x;
    }
    return std::nullopt;
}

std::function<double(double)> measuredCurve(const std::vector<SweepPoint>& points) {
    std::vector<std::pair<double, double>> curve; // (log ε, mean)
    for (const SweepPoint& p : points)
        curve.emplace_back(std::log(p.eps), p.mean);
    if (curve.size() < 2)
        return {};
    return [curve](double eps) {
        const double x = std::log(eps);
        if (x <= curve.front().first)
            return curve.front().second;
        for (std::size_t k = 1; k < curve.size(); ++k)
            if (x <= curve[k].first) {
                const double t = (x - curve[k - 1].first) / (curve[k].first - curve[k - 1].first);
                return curve[k - 1].second + t * (curve[k].second - curve[k - 1].second);
            }
        return curve.back().second;
    };
}

ProposedEps proposeEps(const std::vector<SweepPoint>& points, const MeasuringFit* fit, Estimator estimator,
                       double target, UtilityMetric metric, double epsMin, double epsMax) {
    const bool lowerIsBetter = isLossMetric(metric);
    ProposedEps proposal;
    if (fit) {
        const auto line = [fit, estimator](double eps) { return meanEstimate(*fit, estimator, eps); };
        proposal.eps = smallestEpsMeeting(line, target, lowerIsBetter, epsMin, epsMax);
        proposal.fromEstimate = proposal.eps.has_value();
    }
    if (!proposal.eps) // the estimate never reaches the target: the measured curve may
        proposal.eps = smallestEpsMeeting(measuredCurve(points), target, lowerIsBetter, epsMin, epsMax);
    return proposal;
}

} // namespace elab::core
