#pragma once
// One feature that dominates the rows' norms: when it holds most of the squared norm of most rows,
// clipping rows to ‖x‖₂ ≤ 1 leaves every other feature near zero, and a private linear model learns
// little beyond that feature — while its utility curve can look as good as the non-private one
// (Adult's sampling weight fnlwgt, up to 1.5·10⁶, without a public bound: test accuracy 0.754, the
// majority rate, against 0.847 without the column). The views that decide ε say so.

#include "core/data/dataset.h"

#include <optional>
#include <string>

namespace elab::core {

struct NormDominance {
    std::string feature;   ///< the feature's name
    double rowShare = 0.0; ///< fraction of the rows in which it holds ≥ 90 % of the squared norm
};

/// The feature holding ≥ 90 % of the squared norm of at least half of data's nonzero rows (the one
/// doing so in the most rows), or nullopt. Reads every stored value once; any thread.
std::optional<NormDominance> dominantFeature(const Dataset& data);

/// One sentence for the user.
std::string dominanceNote(const NormDominance& dominance);

/// The largest class of classification targets: the accuracy of always answering it.
struct MajorityClass {
    std::string name;
    double rate = 0.0; ///< its share of the rows
};

/// Of data's targets; nullopt for regression or no rows.
std::optional<MajorityClass> majorityClass(const Dataset& data);

/// A model whose accuracy is within `margin` of always answering the largest class learned nothing
/// a user would pay privacy for: one sentence saying so (the non-private model's accuracy, the
/// class, its rate, the usual causes), or "" when the model does better.
std::string majorityNote(double nonPrivateAccuracy, const MajorityClass& majority, double margin = 0.01);

} // namespace elab::core
