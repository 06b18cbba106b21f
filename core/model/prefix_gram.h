#pragma once
// XᵀDX for binary sparse rows by shared prefixes: the preconditioner's Hessian formed in fewer
// updates (docs/MATH.md §2.1).
//
// For rows x_i = a_i·1_{S_i} (constantRowValues), H = Σ_i w_i a_i² 1_{S_i} 1_{S_i}ᵀ. Write each
// S_i as a sequence of columns, most frequent first, and put the sequences in a prefix tree: a
// node v (column c_v at depth d_v, path c_1 … c_{d_v} = c_v) is passed by the rows whose
// sequences start with that path, and every pair (c_k, c_v), k ≤ d_v, lies in all of them. So
//   H = Σ_v W_v Σ_{k ≤ d_v} (e_{c_k} e_{c_v}ᵀ, symmetrised),  W_v = Σ_{rows i through v} w_i a_i²,
// each pair of each row counted once (at the node of its later column). The cost is
// Σ_v d_v updates plus one addition per row and per node, against Σ_i |S_i|(|S_i|+1)/2 for
// sparseWeightedGram: rows of one-hot data share long prefixes (a9a's distinct rows: 44 %).
// The nodes are kept in depth-first order with their column and depth only (≈ 14 bytes a node
// with W): the path of a node is the stack of columns above it, and W_v the sum over its subtree,
// both found in one pass each.

#include "core/data/feature_matrix.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elab::core {

class PrefixGram {
public:
    /// The tree of X's row patterns (values are not read: X must be binary, each row's values
    /// equal, as constantRowValues finds). Cost: a sort of each row and of the rows.
    explicit PrefixGram(const CsrRows& X);

    /// H = factor·Σ_i weight_i a_i² x̃_i x̃_iᵀ (x̃_i the 0/1 pattern of row i, a = the row
    /// scales): sparseWeightedGram(X, &a, weight, factor, H) in other summation order.
    void compute(const Eigen::VectorXd& a, const Eigen::VectorXd& weight, double factor, Eigen::MatrixXd& H) const;

    /// Updates per compute() (Σ_v (d_v + 1) + rows + nodes), to compare with sparseRowPairs.
    std::size_t updates() const;
    Index cols() const { return m_cols; }

private:
    Index m_cols = 0;
    int m_maxDepth = 0;
    std::vector<int> m_leaf;           ///< row i → the node of its whole sequence (−1: empty row)
    std::vector<int> m_column;         ///< node → c_v, nodes in depth-first order (parents first)
    std::vector<std::uint16_t> m_depth; ///< node → d_v (1 for the first column)
};

} // namespace elab::core
