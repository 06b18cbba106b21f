// ε of the three accountants (accountant.h); calibration of σ is in accountant_calibration.cpp,
// replace-one guarantees in accountant_replace_one.cpp.

#include "core/privacy/accountant.h"

#include "core/privacy/accountant_detail.h"
#include "core/privacy/pld.h"
#include "core/privacy/rdp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

namespace {

using detail::check;
using detail::kInf;
using detail::pldResult;

// --- Advanced composition with amplification --------------------------------------------

struct AcSplit {
    double epsilon = kInf;
    double deltaPrime = 0.0, deltaIt = 0.0, epsIt = 0.0, eps1 = 0.0;
};

/// The AC bound when a share f ∈ (0, 1) of δ goes to δ' and the rest to the T amplified steps.
AcSplit acForSplit(const SgdPrivacyParams& p, double f) {
    AcSplit s;
    s.deltaPrime = f * p.delta;
    s.deltaIt = (1.0 - f) * p.delta / (static_cast<double>(p.steps) * p.q);
    const double logTerm = std::log(1.25 / s.deltaIt);
    if (!(logTerm > 0.0) || p.sigma <= 0.0)
        return s;
    s.epsIt = std::sqrt(2.0 * logTerm) / p.sigma;
    if (!(s.epsIt < 1.0))
        return s; // the classical Gaussian mechanism bound is proven for ε < 1 only
    s.eps1 = std::log1p(p.q * std::expm1(s.epsIt));
    const double t = static_cast<double>(p.steps);
    s.epsilon = std::sqrt(2.0 * t * std::log(1.0 / s.deltaPrime)) * s.eps1 + t * s.eps1 * std::expm1(s.eps1);
    return s;
}

AccountantResult acEpsilon(const SgdPrivacyParams& p) {
    AccountantResult r;
    r.kind = AccountantKind::AdvancedComposition;
    r.delta = p.delta;
    if (p.steps == 0) {
        r.notes.push_back("no steps: nothing spent");
        return r;
    }
    // The split of δ: a scan over logit(f), then golden-section refinement around the best.
    const auto at = [&](double u) { return acForSplit(p, 1.0 / (1.0 + std::exp(-u))); };
    double bestU = 0.0;
    AcSplit best;
    for (int k = 0; k <= 60; ++k) {
        const double u = -15.0 + 0.5 * k;
        if (const AcSplit s = at(u); s.epsilon < best.epsilon) {
            best = s;
            bestU = u;
        }
    }
    if (std::isfinite(best.epsilon)) {
        const double g = (std::sqrt(5.0) - 1.0) / 2.0;
        double a = bestU - 0.5, b = bestU + 0.5;
        for (int it = 0; it < 40; ++it) {
            const double c = b - g * (b - a), d = a + g * (b - a);
            const AcSplit sc = at(c), sd = at(d);
            if (sc.epsilon < best.epsilon)
                best = sc;
            if (sd.epsilon < best.epsilon)
                best = sd;
            if (sc.epsilon <= sd.epsilon)
                b = d;
            else
                a = c;
        }
    }
    r.epsilon = best.epsilon;
    if (!std::isfinite(best.epsilon)) {
        r.notes.push_back(
            "no guarantee: the classical Gaussian mechanism bound needs ε_it < 1, i.e. σ ≥ √(2 log(1.25/δ_it)), "
            "which no split of δ reaches at this σ");
        return r;
    }
    r.parameters = {{"delta_prime", "δ'", best.deltaPrime},
                    {"delta_it", "δ_it", best.deltaIt},
                    {"eps_it", "ε_it", best.epsIt},
                    {"eps_1", "ε₁", best.eps1}};
    r.notes.push_back("the split of δ between δ' and the steps minimises ε (any split is valid)");
    return r;
}

// --- The paper's zCDP procedure, as published ----------------------------------------------

AccountantResult zcdpEpsilon(const SgdPrivacyParams& p) {
    AccountantResult r;
    r.kind = AccountantKind::ZcdpPublished;
    r.delta = p.delta;
    r.proven = false;
    r.notes.push_back(
        "as published (Ermis & Cemgil §4.3): converts a per-step (ε, δ) guarantee into zCDP, which is not "
        "valid in general; not a proven guarantee (docs/MATH.md §3.6)");
    if (p.steps == 0)
        return r;
    // σ_pub(ε) decreases in ε: bisect ε in log space; report the upper end.
    double lo = 1e-12, hi = 1e12;
    const double sLo = zcdpPublishedSigma(lo, p.delta, p.q, p.steps);
    const double sHi = zcdpPublishedSigma(hi, p.delta, p.q, p.steps);
    if (!std::isfinite(sLo) || !(sLo > 0.0)) {
        r.epsilon = kInf;
        r.notes.push_back("the procedure is undefined here (δ/q ≥ 1.25)");
        return r;
    }
    if (p.sigma >= sLo) {
        r.epsilon = lo;
        return r;
    }
    if (p.sigma <= sHi) {
        r.epsilon = kInf;
        return r;
    }
    for (int it = 0; it < 200 && hi / lo - 1.0 > 1e-12; ++it) {
        const double mid = std::sqrt(lo * hi);
        if (zcdpPublishedSigma(mid, p.delta, p.q, p.steps) > p.sigma)
            lo = mid;
        else
            hi = mid;
    }
    r.epsilon = hi;
    const double logInvDelta = std::log(1.0 / p.delta);
    const double sqrtRho = std::sqrt(logInvDelta + hi) - std::sqrt(logInvDelta);
    r.parameters = {{"rho", "ρ", sqrtRho * sqrtRho}, {"delta_prime", "δ'", p.delta}};
    return r;
}

} // namespace

AccountantResult detail::pldResult(const PldEpsilon& e, bool replaceOne) {
    AccountantResult r;
    r.kind = AccountantKind::Pld;
    r.epsilon = e.epsilon;
    r.delta = e.delta;
    r.parameters = {{"discretization", "h", e.discretization},
                    {"infinity_mass", "mass at +∞", e.infinityMass},
                    {"fft_length", "FFT length", static_cast<double>(e.fftLength)}};
    if (replaceOne)
        r.notes.push_back("replace-one from the PLD of the replace pair (1−q)N(0, σ²) + qN(∓1, σ²), not by group "
                          "privacy");
    return r;
}

const OptionNames<AccountantKind>& accountantKindNames() {
    static const OptionNames<AccountantKind> names{{AccountantKind::Rdp, "rdp"},
                                                   {AccountantKind::AdvancedComposition, "ac"},
                                                   {AccountantKind::ZcdpPublished, "zcdp-published"},
                                                   {AccountantKind::Pld, "pld"}};
    return names;
}

const char* toString(AccountantKind kind) { return optionName(accountantKindNames(), kind); }

AccountantKind accountantKindFromString(const std::string& name) {
    return parseOptionName(accountantKindNames(), name, "accountant");
}

std::string accountantTitle(AccountantKind kind) {
    switch (kind) {
    case AccountantKind::Rdp: return "RDP, Poisson-subsampled Gaussian (Mironov et al. 2019)";
    case AccountantKind::AdvancedComposition: return "advanced composition + amplification (the paper's DPD-AC)";
    case AccountantKind::ZcdpPublished: return "zCDP procedure as published (the paper's DPD-zCDP; not a proof)";
    case AccountantKind::Pld: return "PLD, Poisson-subsampled Gaussian (pessimistic connect-the-dots, FFT composition)";
    }
    return "?";
}

std::string accountantShortTitle(AccountantKind kind) {
    switch (kind) {
    case AccountantKind::Rdp: return "RDP";
    case AccountantKind::AdvancedComposition: return "advanced composition (DPD-AC)";
    case AccountantKind::ZcdpPublished: return "zCDP as published (no proof)";
    case AccountantKind::Pld: return "PLD";
    }
    return "?";
}

bool accountantIsProof(AccountantKind kind) { return kind != AccountantKind::ZcdpPublished; }

std::string SgdPrivacyParams::validate() const {
    if (!(sigma >= 0.0) || !std::isfinite(sigma))
        return "the noise multiplier σ must be a finite number ≥ 0";
    if (!(q > 0.0 && q <= 1.0))
        return "the sampling rate q must lie in (0, 1]";
    if (steps < 0)
        return "the number of steps must be ≥ 0";
    if (!(delta > 0.0 && delta < 1.0))
        return "δ must lie in (0, 1)";
    return {};
}

double advancedCompositionEpsilon(const SgdPrivacyParams& params, double deltaPrime) {
    check(params);
    if (!(deltaPrime > 0.0 && deltaPrime < params.delta))
        throw std::invalid_argument("accountant: δ' must lie in (0, δ)");
    if (params.steps == 0)
        return 0.0;
    return acForSplit(params, deltaPrime / params.delta).epsilon;
}

double zcdpPublishedSigma(double epsTotal, double delta, double q, long long steps) {
    const double logInvDelta = std::log(1.0 / delta);
    const double sqrtRho = std::sqrt(logInvDelta + epsTotal) - std::sqrt(logInvDelta);
    const double rho = sqrtRho * sqrtRho;
    const double epsPrime = std::sqrt(4.0 * rho * std::log(1.25 / delta) / static_cast<double>(steps));
    const double epsIter = std::log1p(std::expm1(epsPrime) / q);
    const double deltaIter = delta / q;
    const double logTerm = std::log(1.25 / deltaIter);
    if (!(logTerm > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    return std::sqrt(2.0 * logTerm) / epsIter;
}

AccountantResult accountEpsilon(AccountantKind kind, const SgdPrivacyParams& params) {
    return accountEpsilons(kind, params, {params.steps}).front();
}

std::vector<AccountantResult> accountEpsilons(AccountantKind kind, SgdPrivacyParams params,
                                              const std::vector<long long>& steps) {
    std::vector<AccountantResult> results;
    results.reserve(steps.size());
    params.steps = 0;
    check(params);
    for (long long t : steps) { // every count checked before any work
        params.steps = t;
        check(params);
    }
    switch (kind) {
    case AccountantKind::Rdp:
        for (const RdpConversion& c : rdpEpsilons(params.sigma, params.q, steps, params.delta)) {
            AccountantResult r;
            r.kind = kind;
            r.delta = params.delta;
            r.epsilon = c.epsilon;
            r.parameters = {{"order", "α", c.order}};
            results.push_back(std::move(r));
        }
        return results;
    case AccountantKind::Pld:
        for (long long t : steps)
            results.push_back(pldResult(pldEpsilon(params.sigma, params.q, t, params.delta)));
        return results;
    case AccountantKind::AdvancedComposition:
    case AccountantKind::ZcdpPublished:
        for (long long t : steps) {
            params.steps = t;
            results.push_back(kind == AccountantKind::AdvancedComposition ? acEpsilon(params) : zcdpEpsilon(params));
        }
        return results;
    }
    throw std::invalid_argument("accountant: unknown kind");
}

double AccountantResult::parameter(const std::string& name) const {
    for (const MechanismParameter& p : parameters)
        if (p.name == name)
            return p.value;
    return std::numeric_limits<double>::quiet_NaN();
}

} // namespace elab::core
