#include "core/sweeps/proposed_eps.h"

#include "core/util/format_number.h"

#include <algorithm>
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

const char* toString(EstimateDoubt doubt) {
    switch (doubt) {
    case EstimateDoubt::None: return "none";
    case EstimateDoubt::ContradictedByMeasurements: return "contradicted-by-measurements";
    case EstimateDoubt::PassesNonPrivate: return "passes-non-private";
    case EstimateDoubt::FarFromMeasuringPoint: return "far-from-measuring-point";
    case EstimateDoubt::EstimatorsDisagree: return "estimators-disagree";
    case EstimateDoubt::LevelCurveDisagrees: return "level-curve-disagrees";
    }
    return "none";
}

std::string doubtText(const ProposedEps& proposal, bool lowerIsBetter) {
    if (proposal.doubt == EstimateDoubt::None || !proposal.setAside)
        return {};
    const std::string estimate = "The estimate's ε = " + formatNumber(*proposal.setAside) +
                                 " (measured at ε = " + formatNumber(proposal.measureAt) + ") is set aside: ";
    switch (proposal.doubt) {
    case EstimateDoubt::ContradictedByMeasurements:
        return estimate + (std::isfinite(proposal.doubtEps)
                               ? "the measured curve meets the target at ε = " + formatNumber(proposal.doubtEps) +
                                     ", more than 2× away."
                               : std::string("the measured curve does not meet the target at it."));
    case EstimateDoubt::PassesNonPrivate:
        return estimate + "its line passes the non-private " + (lowerIsBetter ? "loss" : "level") +
               (std::isfinite(proposal.doubtEps) ? " at ε = " + formatNumber(proposal.doubtEps)
                                                 : std::string(" as ε grows")) +
               ", which no noisy model does.";
    case EstimateDoubt::FarFromMeasuringPoint:
        return estimate + "more than 10× from the measuring point, too far for a Taylor expansion.";
    case EstimateDoubt::EstimatorsDisagree:
    case EstimateDoubt::LevelCurveDisagrees:
        return estimate +
               (proposal.doubt == EstimateDoubt::LevelCurveDisagrees
                    ? std::string("the 1/ε curve through the measured value and the non-private level ")
                    : "the " + std::string(toString(proposal.otherEstimator)) + " line from the same point ") +
               (std::isfinite(proposal.doubtEps)
                    ? "meets the target at ε = " + formatNumber(proposal.doubtEps) + ", more than 2× away"
                    : std::string("does not meet the target")) +
               ": the curve's shape that far is not known.";
    case EstimateDoubt::None: break;
    }
    return {};
}

namespace {

/// The first ε in [from, to] (log scan) where the line is past the level (NaN: none).
double whereLinePasses(const MeasuringFit& fit, Estimator estimator, bool lowerIsBetter, double from, double to) {
    if (!std::isfinite(fit.nonPrivate) || !(from > 0.0) || !(to >= from))
        return NAN;
    constexpr int kScan = 200;
    for (int k = 0; k <= kScan; ++k) {
        const double eps = std::exp(std::log(from) + (std::log(to) - std::log(from)) * k / kScan);
        const double v = unboundedEstimate(fit, estimator, eps);
        if (lowerIsBetter ? v < fit.nonPrivate : v > fit.nonPrivate)
            return eps;
    }
    return NAN;
}

} // namespace

ProposedEps proposeEps(const std::vector<SweepPoint>& points, const MeasuringFit* fit, Estimator estimator,
                       double target, UtilityMetric metric, double epsMin, double epsMax) {
    const bool lowerIsBetter = isLossMetric(metric);
    const std::function<double(double)> measured = measuredCurve(points);
    const std::optional<double> fromMeasured = smallestEpsMeeting(measured, target, lowerIsBetter, epsMin, epsMax);
    ProposedEps proposal;
    if (fit) {
        const auto line = [fit, estimator](double eps) { return meanEstimate(*fit, estimator, eps); };
        const std::optional<double> p = smallestEpsMeeting(line, target, lowerIsBetter, epsMin, epsMax);
        proposal.measureAt = fit->measureAt;
        if (p) {
            const double at = fit->measureAt;
            const bool covered =
                std::any_of(points.begin(), points.end(), [&](const SweepPoint& q) { return q.eps <= *p; }) &&
                std::any_of(points.begin(), points.end(), [&](const SweepPoint& q) { return q.eps >= *p; });
            const double passes =
                whereLinePasses(*fit, estimator, lowerIsBetter, std::min(at, *p), 1.2 * std::max(at, *p));
            // Two other shapes of the curve beyond ε̄, from what was measured: the other line that
            // needs only F(ε̄) and F′(ε̄), and the 1/ε curve through F(ε̄) and the non-private level.
            const Estimator otherEstimator =
                estimator == Estimator::InverseEps ? Estimator::FirstOrder : Estimator::InverseEps;
            const auto other = [fit, otherEstimator](double eps) { return meanEstimate(*fit, otherEstimator, eps); };
            const std::optional<double> otherP = smallestEpsMeeting(other, target, lowerIsBetter, epsMin, epsMax);
            std::optional<double> levelP;
            if (std::isfinite(fit->nonPrivate)) {
                const double atBar = unboundedEstimate(*fit, estimator, at); // F(ε̄): every line passes through it
                const double level = fit->nonPrivate;
                const auto toLevel = [atBar, level, at](double eps) { return level + (atBar - level) * at / eps; };
                levelP = smallestEpsMeeting(toLevel, target, lowerIsBetter, epsMin, epsMax);
            }
            const auto apart = [&](const std::optional<double>& q) { return !q || *q > 2.0 * *p || *q < 0.5 * *p; };
            if (measured && covered && apart(fromMeasured)) {
                proposal.doubt = EstimateDoubt::ContradictedByMeasurements;
                proposal.doubtEps = fromMeasured ? *fromMeasured : NAN;
            } else if (apart(otherP)) {
                proposal.doubt = EstimateDoubt::EstimatorsDisagree;
                proposal.doubtEps = otherP ? *otherP : NAN;
                proposal.otherEstimator = otherEstimator;
            } else if (std::isfinite(fit->nonPrivate) && apart(levelP)) {
                proposal.doubt = EstimateDoubt::LevelCurveDisagrees;
                proposal.doubtEps = levelP ? *levelP : NAN;
            } else if (std::isfinite(passes)) {
                proposal.doubt = EstimateDoubt::PassesNonPrivate;
                proposal.doubtEps = passes;
            } else if (*p > 10.0 * at || *p < 0.1 * at) {
                proposal.doubt = EstimateDoubt::FarFromMeasuringPoint;
                proposal.doubtEps = at;
            }
            if (proposal.doubt == EstimateDoubt::None) {
                proposal.eps = p;
                proposal.fromEstimate = true;
                return proposal;
            }
            proposal.setAside = p;
        }
    }
    proposal.eps = fromMeasured; // in doubt, or the estimate never reaches the target: the measurements
    return proposal;
}

} // namespace elab::core
