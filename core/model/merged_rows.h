#pragma once
// Training rows with equal features merged (docs/MATH.md §2.1). Rows are often repeated
// (a9a: 24,947 distinct rows of 32,561, one-hot census records); for a margin loss with labels
// ±1 the data term is, exactly,
//   Σ_i ℓ(x_iᵀθ, y_i) = Σ_u [c⁺_u ℓ(x_uᵀθ, +1) + c⁻_u ℓ(x_uᵀθ, −1)]
// over the distinct rows x_u, with c±_u the number of rows equal to x_u labelled ±1. Every pass
// of a fit (value, gradient, Hessian-vector products, XᵀDX) then reads U rows instead of n, and
// one exp serves both labels. The objective and its minimiser are the same function of the data:
// the mechanisms still see n = Σ_u (c⁺_u + c⁻_u) rows, and only the rounding of the sums differs.

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"

#include <optional>
#include <vector>

namespace elab::core {

struct MergedRows {
    FeatureMatrix X;          ///< the distinct rows, in order of first occurrence (or as reordered)
    Eigen::VectorXd count;    ///< rows of the original matrix equal to each (Σ = n)
    std::vector<Index> rowOf; ///< row i of the original → its distinct row u (size n; may be released)
    Index originalRows = 0;   ///< n

    /// c_u = #{i → u : y_i = label}: with label +1 and ±1 labels, c⁺ (c⁻ = count − c⁺). Needs rowOf.
    Eigen::VectorXd countWhere(Labels y, double label) const;
    /// Row u of the new X is row order[u] of the old (order: a permutation of the distinct
    /// rows); count and rowOf (if kept) follow.
    void reorder(const std::vector<int>& order);
};

/// The distinct rows of X (equal: the same stored columns and the same value bits; explicit
/// zeros and −0.0 count as different), or nullopt when merging would remove fewer than
/// minShare·n rows (then it is not worth a second matrix). Cost: a hash per row, a sort of n
/// keys, and a copy of the distinct rows.
std::optional<MergedRows> mergeEqualRows(const FeatureMatrix& X, double minShare = 0.1);

} // namespace elab::core
