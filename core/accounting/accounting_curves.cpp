#include "core/accounting/accounting_curves.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
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

AccountingCurves accountingCurves(const AccountingInputs& in, std::stop_token stop) {
    if (std::string e = in.validate(); !e.empty())
        throw std::invalid_argument("accounting: " + e);
    AccountingCurves c;
    c.inputs = in;
    const SgdPrivacyParams base{1.0, in.q(), in.steps(), in.delta};
    const int n = in.sigmaPoints;
    c.sigmas.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        c.sigmas[static_cast<std::size_t>(i)] = in.sigmaMin * std::pow(in.sigmaMax / in.sigmaMin, i / double(n - 1));
    for (auto& v : c.epsBySigma)
        v.assign(c.sigmas.size(), 0.0);
    // ε(σ) per accountant and point, and each accountant's calibration: independent tasks.
    const int pointTasks = n * 3;
    tbb::parallel_for(0, pointTasks + 3, [&](int t) {
        if (stop.stop_requested())
            return;
        if (t >= pointTasks) {
            const std::size_t k = static_cast<std::size_t>(t - pointTasks);
            c.needed[k] = calibrateSigma(kAccountants[k], in.eps, base);
            SgdPrivacyParams p = base;
            p.sigma = c.needed[k].sigma;
            c.rdpOfNeeded[k] = accountEpsilon(AccountantKind::Rdp, p).epsilon;
            return;
        }
        const std::size_t k = static_cast<std::size_t>(t / n);
        const std::size_t i = static_cast<std::size_t>(t % n);
        SgdPrivacyParams p = base;
        p.sigma = c.sigmas[i];
        c.epsBySigma[k][i] = accountEpsilon(kAccountants[k], p).epsilon;
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
    for (auto& v : c.epsByEpoch)
        v.assign(c.epochs.size(), 0.0);
    const int m = static_cast<int>(c.epochs.size());
    tbb::parallel_for(0, m * 3, [&](int t) {
        if (stop.stop_requested())
            return;
        const std::size_t k = static_cast<std::size_t>(t / m);
        const std::size_t i = static_cast<std::size_t>(t % m);
        SgdPrivacyParams p = base;
        p.sigma = c.currentSigma;
        p.steps = in.stepsPerEpoch() * c.epochs[i];
        c.epsByEpoch[k][i] = accountEpsilon(kAccountants[k], p).epsilon;
    });
    c.stopped = stop.stop_requested();
    return c;
}

} // namespace elab::core
