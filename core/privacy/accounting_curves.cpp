#include "core/privacy/accounting_curves.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace elab::core {

std::string AccountingInputs::validate() const {
    if (rows < 1)
        return "the training set needs at least one row";
    if (!(batchSize >= 1.0) || !std::isfinite(batchSize))
        return "the batch size S must be a number ≥ 1";
    if (epochs < 1 || epochs > 100000)
        return "the epochs must lie in 1 … 100000";
    if (!(delta > 0.0 && delta < 1.0))
        return "δ must lie in (0, 1)";
    if (!(eps > 0.0) || !std::isfinite(eps))
        return "ε must be a finite number > 0";
    if (sigmaPoints < 2 || !(sigmaMin > 0.0) || !(sigmaMax > sigmaMin))
        return "the σ grid needs ≥ 2 points and 0 < σ min < σ max";
    return {};
}

double AccountingInputs::q() const { return std::min(1.0, batchSize / static_cast<double>(rows)); }

long long AccountingInputs::stepsPerEpoch() const { return static_cast<long long>(std::ceil(1.0 / q() - 1e-9)); }

std::size_t accountantIndex(AccountantKind kind) {
    for (std::size_t k = 0; k < kAccountants.size(); ++k)
        if (kAccountants[k] == kind)
            return k;
    return 0;
}

std::string accountantAbbreviation(AccountantKind kind) {
    switch (kind) {
    case AccountantKind::Rdp: return "RDP";
    case AccountantKind::AdvancedComposition: return "AC";
    case AccountantKind::ZcdpPublished: return "zCDP (no proof)";
    case AccountantKind::Pld: return "PLD";
    }
    return toString(kind);
}

bool sameSigmaCurves(const AccountingInputs& a, const AccountingInputs& b) {
    return a.rows == b.rows && a.batchSize == b.batchSize && a.epochs == b.epochs && a.delta == b.delta &&
           a.nPublic == b.nPublic && a.sigmaPoints == b.sigmaPoints && a.sigmaMin == b.sigmaMin &&
           a.sigmaMax == b.sigmaMax;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Accountant k's σ for in.eps, or σ = +∞ when no σ up to calibrateSigma's limit reaches it.
Calibration neededSigma(std::size_t k, const AccountingInputs& in, const SgdPrivacyParams& base) {
    if (std::optional<Calibration> c = in.nPublic ? calibrateSigmaWithinLimit(kAccountants[k], in.eps, base)
                                                  : calibrateSigmaReplaceOneWithinLimit(kAccountants[k], in.eps, base))
        return *std::move(c);
    Calibration none; // no σ ≤ 10⁶: a finding about this accountant, not a failure
    none.sigma = std::numeric_limits<double>::infinity();
    none.result.kind = kAccountants[k];
    none.result.epsilon = kNaN;
    none.result.delta = in.delta;
    none.result.proven = accountantIsProof(kAccountants[k]);
    none.reachedTarget = false;
    return none;
}

/// ε of params in the inputs' adjacency, for every step count.
std::vector<AccountantResult> epsilonsOf(const AccountingInputs& in, AccountantKind kind,
                                         const SgdPrivacyParams& params, const std::vector<long long>& steps) {
    return in.nPublic ? accountEpsilons(kind, params, steps) : replaceOneEpsilons(kind, params, steps);
}

} // namespace

AccountingCurves accountingCurves(const AccountingInputs& in, std::stop_token stop, const AccountingCurves* reuse) {
    if (std::string e = in.validate(); !e.empty())
        throw std::invalid_argument("accounting: " + e);
    AccountingCurves c;
    c.inputs = in;
    const SgdPrivacyParams base{1.0, in.q(), in.steps(), in.delta};
    const int n = in.sigmaPoints;
    const bool reused = reuse && !reuse->stopped && sameSigmaCurves(reuse->inputs, in);
    if (reused) {
        c.sigmas = reuse->sigmas;
        c.epsBySigma = reuse->epsBySigma;
    } else {
        c.sigmas.resize(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            c.sigmas[static_cast<std::size_t>(i)] =
                in.sigmaMin * std::pow(in.sigmaMax / in.sigmaMin, i / double(n - 1));
        for (auto& v : c.epsBySigma)
            v.assign(c.sigmas.size(), 0.0);
    }
    // ε(σ) per accountant and point (unless reused), and each accountant's calibration:
    // independent tasks, the calibrations first (the longest).
    constexpr int kinds = static_cast<int>(kAccountantCount);
    const int pointTasks = reused ? 0 : n * kinds;
    tbb::parallel_for(0, pointTasks + kinds, [&](int t) {
        if (stop.stop_requested())
            return;
        if (t < kinds) {
            const std::size_t k = static_cast<std::size_t>(t);
            c.needed[k] = neededSigma(k, in, base);
            SgdPrivacyParams p = base;
            p.sigma = c.needed[k].sigma;
            // RDP's own add/remove calibration already accounted its σ with RDP (the same result).
            c.rdpOfNeeded[k] = !c.reached(k) ? kNaN
                               : kAccountants[k] == AccountantKind::Rdp && in.nPublic
                                   ? c.needed[k].result.epsilon
                                   : epsilonsOf(in, AccountantKind::Rdp, p, {p.steps}).front().epsilon;
            return;
        }
        const std::size_t k = static_cast<std::size_t>((t - kinds) / n);
        const std::size_t i = static_cast<std::size_t>((t - kinds) % n);
        SgdPrivacyParams p = base;
        p.sigma = c.sigmas[i];
        c.epsBySigma[k][i] = epsilonsOf(in, kAccountants[k], p, {p.steps}).front().epsilon;
    });
    if (stop.stop_requested()) {
        c.stopped = true;
        return c;
    }
    c.currentSigma = c.needed[accountantIndex(in.accountant)].sigma;
    const int every = std::max(1, in.epochs / 200);
    for (int e = every; e <= in.epochs; e += every)
        c.epochs.push_back(e);
    if (c.epochs.empty() || c.epochs.back() != in.epochs)
        c.epochs.push_back(in.epochs);
    std::vector<long long> steps;
    for (int e : c.epochs)
        steps.push_back(in.stepsPerEpoch() * e);
    // Per accountant, every epoch at once (RDP: one step's orders once, then a conversion per epoch).
    tbb::parallel_for(0, static_cast<int>(kAccountantCount), [&](int t) {
        const std::size_t k = static_cast<std::size_t>(t);
        c.epsByEpoch[k].assign(c.epochs.size(), kNaN);
        if (stop.stop_requested() || !std::isfinite(c.currentSigma))
            return;
        SgdPrivacyParams p = base;
        p.sigma = c.currentSigma;
        const std::vector<AccountantResult> spent = epsilonsOf(in, kAccountants[k], p, steps);
        for (std::size_t i = 0; i < spent.size(); ++i)
            c.epsByEpoch[k][i] = spent[i].epsilon;
    });
    c.stopped = stop.stop_requested();
    return c;
}

} // namespace elab::core
