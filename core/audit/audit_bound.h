#pragma once
// The audit's lower bound on ε from two samples of an attacker's score (docs/MATH.md §5):
// scores of T runs on D and T on D′ (the canary's margin: larger on D′). The attacker says
// "D′" when the score is ≥ τ. For a threshold, FPR = P(say D′ | D), FNR = P(say D | D′), their
// Clopper–Pearson upper bounds FPR⁺, FNR⁺ at confidence 1 − α/2 each, and
//   ε_LB(τ) = max( log((1 − δ − FNR⁺)/FPR⁺), log((1 − δ − FPR⁺)/FNR⁺), 0 ).
// τ is chosen on the first half of each sample (the one maximising ε_LB there; among equal
// values, the one maximising TPR − FPR there) and ε_LB is
// reported on the second half, so that the choice does not inflate it. With m runs per half the
// largest reportable value is about log(m) (FPR⁺ cannot fall below 1 − (α/2)^{1/m}).

#include <span>
#include <vector>

namespace elab::core {

struct AuditBound {
    double epsLB = 0.0;                    ///< the reported lower bound (second half), ≥ 0
    double threshold = 0.0;                ///< τ, chosen on the first half
    double fpr = 0.0, fnr = 0.0;           ///< observed on the second half
    double fprUpper = 1.0, fnrUpper = 1.0; ///< their Clopper–Pearson upper bounds
    long long evaluated = 0;               ///< runs per neighbour in the second half
    double maxCertifiable = 0.0;           ///< the ε_LB of a perfect attacker with these runs
    /// The same formula on the observed rates of the second half, without confidence (each rate
    /// (k + ½)/(n + 1), so that it stays finite): what the attack saw, not a bound; ≥ 0.
    double pointEstimate = 0.0;
};

/// ε_LB(τ) from counts: fp of m runs on D said D′, fn of m runs on D′ said D.
double epsilonLowerBound(long long fp, long long fn, long long m, double delta, double alpha);

/// The bound of the scores (T ≥ 2 each; the first ⌊T/2⌋ choose τ, the rest evaluate).
AuditBound auditBound(std::span<const double> scoresD, std::span<const double> scoresDPrime, double delta,
                      double alpha = 0.05);

} // namespace elab::core
