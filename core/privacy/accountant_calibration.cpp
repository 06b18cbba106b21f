// Calibration (accountant.h): the smallest σ whose ε meets a target, by bracketing and then
// bisecting on the accountant's own ε, so that the σ returned never overshoots the target; and
// the same for a replace-one target through group privacy (accountant_replace_one.cpp). The PLD
// accountant has its own root finder (pldCalibrateSigma) and its own replace-one pair.

#include "core/privacy/accountant.h"
#include "core/privacy/accountant_detail.h"
#include "core/privacy/pld.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace elab::core {

using detail::check;

namespace {

std::optional<Calibration> pldCalibration(double targetEps, const SgdPrivacyParams& p, PldNeighbours neighbours) {
    const std::optional<PldCalibration> c =
        pldCalibrateSigma(targetEps, p.q, p.steps, p.delta, neighbours, kMaxCalibratedSigma);
    if (!c)
        return std::nullopt;
    return Calibration{c->sigma, detail::pldResult(c->result, neighbours == PldNeighbours::ReplaceOne),
                       c->reachedTarget};
}

} // namespace

Calibration calibrateSigma(AccountantKind kind, double targetEps, const SgdPrivacyParams& params) {
    if (std::optional<Calibration> c = calibrateSigmaWithinLimit(kind, targetEps, params))
        return *std::move(c);
    throw std::runtime_error("calibration: no noise multiplier up to 1e6 reaches ε = " + std::to_string(targetEps));
}

std::optional<Calibration> calibrateSigmaWithinLimit(AccountantKind kind, double targetEps,
                                                     const SgdPrivacyParams& params) {
    if (!(targetEps > 0.0) || !std::isfinite(targetEps))
        throw std::invalid_argument("calibration: the target ε must be a finite number > 0");
    SgdPrivacyParams p = params;
    p.sigma = 1.0;
    check(p);
    if (kind == AccountantKind::Pld) // its own root finder: a few evaluations instead of ~20
        return pldCalibration(targetEps, p, PldNeighbours::AddRemove);
    const auto eps = [&](double sigma) {
        p.sigma = sigma;
        return accountEpsilon(kind, p);
    };
    // Bracket: σ doubled from 1 (the last step to the limit itself, so that "none" means none ≤
    // the limit), or, if σ = 1 meets the target, halved. Each σ is accounted once.
    double hi = 1.0, lo = 0.0;
    AccountantResult atHi = eps(hi);
    while (!(atHi.epsilon <= targetEps)) {
        if (hi >= kMaxCalibratedSigma)
            return std::nullopt;
        lo = hi;
        hi = std::min(2.0 * hi, kMaxCalibratedSigma);
        atHi = eps(hi);
    }
    if (lo == 0.0)
        for (lo = hi / 2.0;; lo /= 2.0) {
            AccountantResult atLo = eps(lo);
            if (!(atLo.epsilon <= targetEps))
                break;
            hi = lo;
            atHi = std::move(atLo);
            if (lo / 2.0 < 1e-6)
                return Calibration{hi, atHi, true}; // almost no noise already meets the target
        }
    // Invariant: ε(lo) > target ≥ ε(hi).
    for (int it = 0; it < 200; ++it) {
        if (targetEps - atHi.epsilon <= 1e-5 * targetEps || hi / lo - 1.0 < 1e-12)
            break;
        const double mid = std::sqrt(lo * hi);
        const AccountantResult atMid = eps(mid);
        if (atMid.epsilon <= targetEps) {
            hi = mid;
            atHi = atMid;
        } else {
            lo = mid;
        }
    }
    return Calibration{hi, atHi, targetEps - atHi.epsilon <= 1e-3 * targetEps};
}

std::optional<Calibration> calibrateSigmaReplaceOneWithinLimit(AccountantKind kind, double targetEps,
                                                               const SgdPrivacyParams& params) {
    if (!(targetEps > 0.0) || !std::isfinite(targetEps))
        throw std::invalid_argument("calibration: the target ε must be a finite number > 0");
    if (kind == AccountantKind::Pld) { // the replace pair's PLD directly, not group privacy
        SgdPrivacyParams p = params;
        p.sigma = 1.0;
        check(p);
        return pldCalibration(targetEps, p, PldNeighbours::ReplaceOne);
    }
    SgdPrivacyParams p = params;
    const EpsDelta target = addRemoveTargetForReplaceOne(targetEps, params.delta);
    p.delta = target.delta;
    std::optional<Calibration> c = calibrateSigmaWithinLimit(kind, target.epsilon, p);
    if (c)
        c->result = asReplaceOne(c->result);
    return c;
}

} // namespace elab::core
