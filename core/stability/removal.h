#pragma once
// Which training rows survive a removal of a fraction ρ (Jain et al. §5, docs/MATH.md §4.4):
// - random: a uniformly random (1 − ρ) fraction (without replacement, seeded);
// - adversarial: remove the nρ rows with the smallest |⟨x_i, θ_full⟩|, θ_full the same
//   method's model on all the training data (the points nearest the decision boundary).
// nρ is rounded to the nearest integer, and at most n − 2 rows are removed.

#include "core/data/feature_matrix.h"
#include "core/util/option_names.h"

#include <cstdint>
#include <string>
#include <vector>

namespace elab::core {

enum class RemovalKind { Random, Adversarial };

const char* toString(RemovalKind kind);
const OptionNames<RemovalKind>& removalKindNames(); ///< the names toString / removalKindFromString use
/// "random" | "adversarial"; throws std::invalid_argument otherwise.
RemovalKind removalKindFromString(const std::string& name);

/// round(ρ n), capped at n − 2 (a fit needs rows); ρ in [0, 1).
Index removalCount(Index n, double rho);

/// The n − remove kept rows, ascending, of a uniform random removal from Rng(seed).
std::vector<Index> randomKeep(Index n, Index remove, std::uint64_t seed);

/// The kept rows, ascending, after removing the `remove` rows with the smallest |score_i|
/// (ties: the lower row index is removed first). Thread: any.
std::vector<Index> adversarialKeep(const Eigen::VectorXd& score, Index remove);

/// "A:B:K" → K linearly spaced fractions from A to B (0 ≤ A ≤ B < 1); "a,b,c" → that list,
/// sorted. Throws std::invalid_argument with the reason.
std::vector<double> parseRhoGrid(const std::string& text);

} // namespace elab::core
