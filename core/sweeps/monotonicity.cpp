#include "core/sweeps/monotonicity.h"

#include "core/util/format_number.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace elab::core {

double MonotonicityViolation::zScore() const {
    const double gap = std::abs(meanWorse - meanBetter);
    return standardError > 0.0 ? gap / standardError : INFINITY;
}

MonotonicityCheck checkMonotonicity(const std::vector<SweepPoint>& points, bool higherIsBetter, double z) {
    MonotonicityCheck check;
    check.z = z;
    if (points.size() < 2) {
        check.reason = "needs at least two grid points";
        return check;
    }
    for (const SweepPoint& p : points)
        if (p.values.size() < 2) {
            check.reason = "needs at least two repetitions per grid point (the noise of the mean is unknown with one)";
            return check;
        }
    check.checked = true;
    const auto better = [&](double a, double b) { return higherIsBetter ? a > b : a < b; };
    std::size_t best = 0;
    for (std::size_t j = 1; j < points.size(); ++j) {
        const SweepPoint& i = points[best];
        const SweepPoint& p = points[j];
        const double se = std::sqrt(i.sd * i.sd / static_cast<double>(i.values.size()) +
                                    p.sd * p.sd / static_cast<double>(p.values.size()));
        // A floor of a few ulps keeps two deterministic (sd = 0) equal-up-to-rounding means quiet.
        const double floor = 64.0 * 2.220446049250313e-16 * std::max({1.0, std::abs(i.mean), std::abs(p.mean)});
        const double worse = higherIsBetter ? i.mean - p.mean : p.mean - i.mean;
        if (worse > z * se + floor)
            check.violations.push_back({i.eps, p.eps, i.gridIndex, p.gridIndex, i.mean, p.mean, se, {}});
        if (better(p.mean, points[best].mean))
            best = j;
    }
    return check;
}

std::string MonotonicityCheck::message(bool higherIsBetter) const {
    std::string text;
    for (const MonotonicityViolation& v : violations) {
        if (!text.empty())
            text += " ";
        text += "Utility gets worse as ε grows: " + std::string(higherIsBetter ? "" : "loss ") +
                formatNumber(v.meanWorse) + " at ε = " + formatNumber(v.epsWorse) + " against " +
                formatNumber(v.meanBetter) + " at ε = " + formatNumber(v.epsBetter) + " (" + formatNumber(v.zScore()) +
                " standard errors; a sign of a broken mechanism).";
        if (!v.note.empty())
            text += " " + v.note;
    }
    return text;
}

void explainByExtraRidge(MonotonicityCheck& check, const std::vector<PrivacyGuarantee>& guarantees) {
    const auto ridgeAt = [&](Eigen::Index g) {
        return g >= 0 && static_cast<std::size_t>(g) < guarantees.size()
                   ? guarantees[static_cast<std::size_t>(g)].parameter("extra_ridge")
                   : std::numeric_limits<double>::quiet_NaN();
    };
    for (MonotonicityViolation& v : check.violations) {
        const double better = ridgeAt(v.gridBetter), worse = ridgeAt(v.gridWorse);
        if (!(std::isfinite(better) && std::isfinite(worse) && worse < better))
            continue;
        std::string symbol = "Δ";
        for (const MechanismParameter& p : guarantees[static_cast<std::size_t>(v.gridWorse)].parameters)
            if (p.name == "extra_ridge")
                symbol = p.symbol;
        v.note = "Or the mechanism's ridge: " + symbol + " falls from " + formatNumber(better) +
                 " at ε = " + formatNumber(v.epsBetter) + " to " + formatNumber(worse) +
                 " at ε = " + formatNumber(v.epsWorse) +
                 "; at a small Λ that can cost more than the noise saves. A larger Λ removes such a rise, not a "
                 "wrong noise scale.";
    }
}

} // namespace elab::core
