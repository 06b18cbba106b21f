#include "core/audit/audit_bound.h"

#include "core/audit/clopper_pearson.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

double epsilonLowerBound(long long fp, long long fn, long long m, double delta, double alpha) {
    const double fprU = clopperPearsonUpper(fp, m, alpha / 2.0);
    const double fnrU = clopperPearsonUpper(fn, m, alpha / 2.0);
    double best = 0.0;
    if (fprU > 0.0 && 1.0 - delta - fnrU > 0.0)
        best = std::max(best, std::log((1.0 - delta - fnrU) / fprU));
    if (fnrU > 0.0 && 1.0 - delta - fprU > 0.0)
        best = std::max(best, std::log((1.0 - delta - fprU) / fnrU));
    return best;
}

namespace {

long long countAtLeast(const std::vector<double>& sorted, double tau) {
    return static_cast<long long>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), tau));
}

} // namespace

AuditBound auditBound(std::span<const double> scoresD, std::span<const double> scoresDPrime, double delta,
                      double alpha) {
    if (scoresD.size() != scoresDPrime.size() || scoresD.size() < 2)
        throw std::invalid_argument("the audit needs the same number (≥ 2) of runs on each neighbour");
    if (!(delta >= 0.0 && delta < 1.0) || !(alpha > 0.0 && alpha < 1.0))
        throw std::invalid_argument("the audit needs 0 ≤ δ < 1 and 0 < α < 1");
    const std::size_t half = scoresD.size() / 2;
    std::vector<double> d0(scoresD.begin(), scoresD.begin() + static_cast<long>(half));
    std::vector<double> d1(scoresDPrime.begin(), scoresDPrime.begin() + static_cast<long>(half));
    std::vector<double> e0(scoresD.begin() + static_cast<long>(half), scoresD.end());
    std::vector<double> e1(scoresDPrime.begin() + static_cast<long>(half), scoresDPrime.end());
    for (auto* v : {&d0, &d1, &e0, &e1})
        std::sort(v->begin(), v->end());
    const auto m = static_cast<long long>(half);
    // Candidate thresholds: every first-half score (saying D′ at ≥ τ), and +∞ (never D′).
    std::vector<double> candidates(d0);
    candidates.insert(candidates.end(), d1.begin(), d1.end());
    candidates.push_back(std::numeric_limits<double>::infinity());
    // Ties (most often every τ at ε_LB = 0, when the canary moves the scores little) go to the
    // τ that separates the first half best, TPR − FPR: a threshold in the middle of the two
    // samples rather than below both (which says D′ for every run). Still chosen on the first
    // half only, so the reported bound is not inflated.
    double bestTau = candidates.back(), best = -1.0, bestSeparation = -2.0;
    for (double tau : candidates) {
        const long long fp = countAtLeast(d0, tau);
        const long long fn = m - countAtLeast(d1, tau);
        const double e = epsilonLowerBound(fp, fn, m, delta, alpha);
        const double separation = static_cast<double>(m - fn - fp) / static_cast<double>(m);
        if (e > best ||
            (e == best && (separation > bestSeparation || (separation == bestSeparation && tau < bestTau)))) {
            best = e;
            bestTau = tau;
            bestSeparation = separation;
        }
    }
    AuditBound out;
    out.threshold = bestTau;
    const auto n = static_cast<long long>(e0.size());
    const long long fp = countAtLeast(e0, bestTau);
    const long long fn = n - countAtLeast(e1, bestTau);
    out.evaluated = n;
    out.fpr = static_cast<double>(fp) / static_cast<double>(n);
    out.fnr = static_cast<double>(fn) / static_cast<double>(n);
    out.fprUpper = clopperPearsonUpper(fp, n, alpha / 2.0);
    out.fnrUpper = clopperPearsonUpper(fn, n, alpha / 2.0);
    out.epsLB = epsilonLowerBound(fp, fn, n, delta, alpha);
    out.maxCertifiable = epsilonLowerBound(0, 0, n, delta, alpha);
    const double fprHat = (static_cast<double>(fp) + 0.5) / static_cast<double>(n + 1);
    const double fnrHat = (static_cast<double>(fn) + 0.5) / static_cast<double>(n + 1);
    out.pointEstimate = std::max({0.0, 1.0 - delta - fnrHat > 0.0 ? std::log((1.0 - delta - fnrHat) / fprHat) : 0.0,
                                  1.0 - delta - fprHat > 0.0 ? std::log((1.0 - delta - fprHat) / fnrHat) : 0.0});
    return out;
}

} // namespace elab::core
