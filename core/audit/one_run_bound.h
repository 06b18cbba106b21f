#pragma once
// The lower bound of the one-run audit (Steinke, Nasr & Jagielski 2023, "Privacy Auditing with
// One (1) Training Run", Theorem 3.1; docs/MATH.md §5.1). m canaries, each included by its own
// fair coin S_i; from the released model the auditor makes r guesses T_i ∈ {in, out} (abstaining
// on the other m − r) and W of them are correct. If the map S ↦ output is (ε, δ)-DP with respect
// to changing one S_i, then for every v
//   P[W ≥ v] ≤ f(v) + 2mδ · max_{1 ≤ i ≤ v} (f(v − i) − f(v)) / i,
//   f(u) = P[Binomial(r, e^ε/(1 + e^ε)) ≥ u]
// (the right-hand side is the "p-value" of v under the hypothesis "(ε, δ)-DP"). ε_LB is an ε
// whose p-value is below α: the audit rejects (ε′, δ)-DP for every ε′ ≤ ε_LB with confidence
// 1 − α (a mechanism that is (ε′, δ)-DP is also (ε_LB, δ)-DP).
//
// The guesses: the k₊ highest-scored canaries are guessed in, the k₋ lowest out (ties by canary
// index). k₊ + k₋ = r runs over a fixed grid (r = 2, 4, 8, … and m, k₊ = ⌈r/2⌉), each tested at
// level α/|grid| and the largest ε_LB reported: the union bound pays for choosing r after looking.

#include <span>
#include <vector>

namespace elab::core {

/// The theorem's bound on P[W ≥ v] for m canaries, r guesses, an (ε, δ)-DP mechanism (capped at 1).
/// 0 ≤ v ≤ r ≤ m, ε ≥ 0, 0 ≤ δ < 1; throws std::invalid_argument otherwise.
double oneRunPValue(long long m, long long r, long long v, double eps, double delta);

/// The largest ε (to 1e-9) found by bisection with oneRunPValue(m, r, v, ε, δ) < alpha; 0 when even
/// ε = 0 is not rejected. Every value it returns has p-value < alpha (or is 0).
double oneRunEpsilonLowerBound(long long m, long long r, long long v, double delta, double alpha);

/// The guess counts r of the grid for m canaries: 2, 4, 8, … below m, and m (m ≥ 1; {1} for m = 1).
std::vector<long long> oneRunGuessGrid(long long m);

struct OneRunGuess {
    long long guesses = 0; ///< r = kIn + kOut
    long long kIn = 0;     ///< the top-scored canaries guessed in
    long long kOut = 0;    ///< the bottom-scored canaries guessed out
    long long correct = 0; ///< W
    double epsLB = 0.0;    ///< at level α / |grid|
};

struct OneRunBound {
    double epsLB = 0.0; ///< the largest over the grid, ≥ 0
    OneRunGuess best;   ///< the grid point that gave it (the largest r among ties)
    std::vector<OneRunGuess> grid;
    long long canaries = 0;      ///< m
    double maxCertifiable = 0.0; ///< the ε_LB of a perfect guesser with this grid, m, δ, α
};

/// The bound of one run: scores[i] (larger: more likely included), included[i] the true coin of
/// canary i. Throws std::invalid_argument for sizes that differ or are 0.
OneRunBound oneRunBound(std::span<const double> scores, std::span<const char> included, double delta,
                        double alpha = 0.05);

} // namespace elab::core
