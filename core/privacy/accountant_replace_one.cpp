// Replace-one guarantees (accountant.h, docs/MATH.md §3.6): an add/remove (ε_a, δ_a) restated
// by group privacy as (2ε_a, (1 + e^{ε_a})δ_a), the add/remove target for a replace-one one, and
// the least replace-one ε a σ gives (a fixed point of ε ↦ 2ε_a(δ/(1 + e^{ε/2}))).

#include "core/privacy/accountant.h"
#include "core/privacy/accountant_detail.h"
#include "core/privacy/pld.h"
#include "core/privacy/rdp.h"

#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace elab::core {

using detail::check;
using detail::kInf;

EpsDelta replaceOneEquivalent(double epsilon, double delta) {
    return {2.0 * epsilon, (1.0 + std::exp(epsilon)) * delta};
}

EpsDelta addRemoveTargetForReplaceOne(double epsilon, double delta) {
    const double half = epsilon / 2.0; // exact: 2·half == epsilon
    const double factor = 1.0 + std::exp(half);
    double deltaA = delta / factor;
    while (deltaA > 0.0 && factor * deltaA > delta) // rounding: (1 + e^{ε/2})·δ_a ≤ δ as computed
        deltaA = std::nextafter(deltaA, 0.0);
    return {half, deltaA};
}

AccountantResult asReplaceOne(const AccountantResult& addRemove) {
    AccountantResult r = addRemove;
    r.parameters.push_back({"eps_add_remove", "ε_a (add/remove)", addRemove.epsilon});
    r.parameters.push_back({"delta_add_remove", "δ_a (add/remove)", addRemove.delta});
    if (!std::isfinite(addRemove.epsilon)) {
        r.epsilon = kInf;
        return r;
    }
    const EpsDelta e = replaceOneEquivalent(addRemove.epsilon, addRemove.delta);
    r.epsilon = e.epsilon;
    r.delta = e.delta;
    return r;
}

namespace {

/// The least ε with g(ε) = 2·ε_a(δ/(1 + e^{ε/2})) ≤ ε (g increases in ε: a smaller δ_a costs more
/// ε_a), restated as replace-one at the δ_a of that ε. atDelta(δ_a): the add/remove result.
/// Iterates ε ← g(ε) from 0 (each iterate stays below the least fixed point), then brackets it
/// (g(lo) > lo, g(hi) ≤ hi) and bisects to 1e-9 relative; the result is g(hi) ≤ hi.
AccountantResult replaceOneFixedPoint(const std::function<AccountantResult(double)>& atDelta, double delta) {
    const auto at = [&](double e) {
        const double deltaA = addRemoveTargetForReplaceOne(e, delta).delta;
        AccountantResult r;
        if (!(deltaA > 0.0)) { // e^{ε/2} overflows: no δ_a left
            r.epsilon = kInf;
            return r;
        }
        r = atDelta(deltaA);
        r.delta = deltaA;
        return r;
    };
    const auto none = [&] {
        AccountantResult r = atDelta(delta);
        r.epsilon = kInf;
        r.delta = delta;
        r.notes.push_back("no replace-one ε: 2ε_a at δ/(1 + e^{ε/2}) exceeds ε for every ε");
        return r;
    };
    constexpr double kLargest = 1e5; // far beyond any ε worth stating
    double lo = 0.0;
    AccountantResult r = at(lo);
    double g = 2.0 * r.epsilon;
    for (int it = 0; it < 8; ++it) {
        if (!(g <= kLargest))
            return none();
        if (g <= lo)
            return asReplaceOne(r); // (g, (1 + e^{g/2})δ_a) with g ≤ lo: ≤ (lo, δ)
        lo = g;
        r = at(lo);
        g = 2.0 * r.epsilon;
    }
    if (!(g <= kLargest))
        return none();
    if (g <= lo)
        return asReplaceOne(r);
    // g(lo) > lo: a point above with g ≤ it, stepping out from g(lo) by doubling gaps.
    double hi = lo;
    AccountantResult atHi;
    for (double gap = g - lo;; gap *= 2.0) {
        hi = g + gap;
        if (!(hi <= kLargest))
            return none();
        atHi = at(hi);
        if (2.0 * atHi.epsilon <= hi)
            break;
        lo = hi;
    }
    while (hi - lo > 1e-9 * hi) {
        const double mid = 0.5 * (lo + hi);
        AccountantResult atMid = at(mid);
        if (2.0 * atMid.epsilon <= mid) {
            hi = mid;
            atHi = std::move(atMid);
        } else {
            lo = mid;
        }
    }
    return asReplaceOne(atHi);
}

} // namespace

std::vector<AccountantResult> replaceOneEpsilons(AccountantKind kind, SgdPrivacyParams params,
                                                 const std::vector<long long>& steps) {
    params.steps = 0;
    check(params);
    for (long long t : steps) {
        params.steps = t;
        check(params);
    }
    std::vector<AccountantResult> results;
    results.reserve(steps.size());
    if (kind == AccountantKind::Pld) { // the replace pair's PLD directly (pld.h), not group privacy
        for (long long t : steps)
            results.push_back(detail::pldResult(
                pldEpsilon(params.sigma, params.q, t, params.delta, PldNeighbours::ReplaceOne), true));
        return results;
    }
    if (kind == AccountantKind::Rdp) {
        // One step's RDP per order once; each δ_a then costs one conversion.
        const std::vector<double>& orders = defaultRdpOrders();
        std::vector<double> oneStep(orders.size());
        for (std::size_t i = 0; i < orders.size(); ++i)
            oneStep[i] = rdpSubsampledGaussian(params.q, params.sigma, orders[i]);
        std::vector<double> rdp(orders.size());
        for (long long t : steps) {
            for (std::size_t i = 0; i < orders.size(); ++i)
                rdp[i] = t == 0 ? 0.0 : static_cast<double>(t) * oneStep[i];
            results.push_back(replaceOneFixedPoint(
                [&](double deltaA) {
                    const RdpConversion c = rdpToEpsilon(orders, rdp, deltaA);
                    AccountantResult r;
                    r.kind = kind;
                    r.delta = deltaA;
                    r.epsilon = c.epsilon;
                    r.parameters = {{"order", "α", c.order}};
                    return r;
                },
                params.delta));
        }
        return results;
    }
    for (long long t : steps) {
        SgdPrivacyParams p = params;
        p.steps = t;
        results.push_back(replaceOneFixedPoint(
            [&](double deltaA) {
                p.delta = deltaA;
                return accountEpsilon(kind, p);
            },
            params.delta));
    }
    return results;
}

AccountantResult replaceOneEpsilon(AccountantKind kind, const SgdPrivacyParams& params) {
    return replaceOneEpsilons(kind, params, {params.steps}).front();
}

} // namespace elab::core
