#include "core/privacy/utility_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::core {

std::optional<double> MeasuredCurve::at(double e) const {
    if (eps.empty() || eps.size() != value.size() || !(e >= eps.front() && e <= eps.back()))
        return std::nullopt;
    const auto hi = std::lower_bound(eps.begin(), eps.end(), e);
    const std::size_t j = static_cast<std::size_t>(hi - eps.begin());
    if (eps[j] == e || j == 0)
        return value[j];
    const double t = (std::log(e) - std::log(eps[j - 1])) / (std::log(eps[j]) - std::log(eps[j - 1]));
    return value[j - 1] + t * (value[j] - value[j - 1]);
}

UtilityCost utilityCost(const MeasuredCurve& curve, AccountantKind sweepAccountant, const SgdPrivacyParams& schedule,
                        AccountantKind kind, double eps, bool higherIsBetter, bool nPublic) {
    UtilityCost c;
    const std::optional<Calibration> calibration = nPublic ? calibrateSigmaWithinLimit(kind, eps, schedule)
                                                           : calibrateSigmaReplaceOneWithinLimit(kind, eps, schedule);
    if (!calibration) { // no σ ≤ kMaxCalibratedSigma: nothing the sweep measured
        c.sigma = std::numeric_limits<double>::infinity();
        c.equivalentEps = std::numeric_limits<double>::quiet_NaN();
        return c;
    }
    c.sigma = calibration->sigma;
    SgdPrivacyParams p = schedule;
    p.sigma = c.sigma;
    c.equivalentEps = (nPublic ? accountEpsilon(sweepAccountant, p) : replaceOneEpsilon(sweepAccountant, p)).epsilon;
    c.value = curve.at(c.equivalentEps);
    const std::optional<double> atTarget = curve.at(eps);
    if (c.value && atTarget)
        c.cost = higherIsBetter ? *atTarget - *c.value : *c.value - *atTarget;
    return c;
}

} // namespace elab::core
