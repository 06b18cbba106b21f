#pragma once
// Binary sparse rows as a prefix tree of their column sets: a fit's passes over X in fewer
// operations than one per non-zero (docs/MATH.md §2.1).
//
// For rows x_i = a_i·1_{S_i} (constantRowValues), write each S_i as a sequence of columns, most
// frequent first, and put the sequences in a prefix tree: node v (column c_v at depth d_v, path
// c_1 … c_{d_v} = c_v) is passed by the rows whose sequences start with that path. Rows of one-hot
// data share long prefixes (a9a's distinct rows: 91 k nodes for 346 k non-zeros). Then
//   x_iᵀθ = a_i P(leaf_i),  P(v) = P(parent v) + θ_{c_v}          (one addition per node),
//   Σ_i w_i x_i = Σ_v e_{c_v} Σ_{rows i through v} w_i a_i          (one addition per node and row),
//   XᵀDX = Σ_v W_v Σ_{k ≤ d_v} sym(e_{c_k} e_{c_v}ᵀ),  W_v = Σ_{i through v} d_i a_i²,
// each pair of each row counted once, at the node of its later column (Σ_v d_v updates, against
// Σ_i |S_i|(|S_i|+1)/2 row by row).
// The nodes are kept in depth-first order with their column and depth, and the rows in the
// order of that walk (lexicographic: the rows through a node are a contiguous range of it). A
// pass is then three loops without branches on the data:
//   1. nodes: P(v) = P(path above) + v_{c_v}, kept per depth; P(v) written at the first row of
//      v's range (a node with no row of its own is overwritten by its first child, later);
//   2. rows: s_i = a_i P(leaf_i), w_i = weight(i, s_i), and the running sums R of w_i a_i;
//   3. nodes: (Σ_i w_i x_i)_{c_v} += R(end of v's range) − R(start of v's range).
// The rounding differs from the row-by-row sums (differences of running sums: errors of order
// 2^-53·Σ_i |w_i a_i| per column, the same order as row by row).

#include "core/data/feature_matrix.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elab::core {

class PrefixTree {
public:
    /// The tree of X's row patterns (values are not read: X must be binary, each row's values
    /// equal, as constantRowValues finds). Cost: a sort of each row and of the rows.
    explicit PrefixTree(const CsrRows& X);

    /// H = factor·Σ_i weight_i a_i² x̃_i x̃_iᵀ (x̃_i the 0/1 pattern of row i, a = the row
    /// scales): sparseWeightedGram(X, &a, weight, factor, H) in other summation order.
    void compute(const Eigen::VectorXd& a, const Eigen::VectorXd& weight, double factor, Eigen::MatrixXd& H) const;

    /// sparseRowDotsThenTransposed(X, &a, v, weight, out) in other summation order: s_i = x_iᵀv,
    /// w_i = weight(i, s_i), out = Σ_i w_i x_i (zeroed first). weight is called once per row, in
    /// the tree's row order (not row order). work: scratch space, resized here (2n + 1 doubles;
    /// kept by the caller from pass to pass).
    template <class Weight>
    void rowDotsThenTransposed(const Eigen::VectorXd& a, const Eigen::VectorXd& v, Weight&& weight,
                               Eigen::VectorXd& out, std::vector<double>& work) const;
    /// out += factor·Σ_i weight_i (x_iᵀv) x_i: sparseWeightedGramProduct(X, &a, weight, factor, v,
    /// out) in other summation order. out must not alias v. work as above.
    void weightedGramProduct(const Eigen::VectorXd& a, const Eigen::VectorXd& weight, double factor,
                             const Eigen::VectorXd& v, Eigen::VectorXd& out, std::vector<double>& work) const;

    /// Updates per compute() (Σ_v (d_v + 1) + rows + nodes), to compare with sparseRowPairs.
    std::size_t updates() const;
    /// Whether compute() pays against sparseWeightedGram: updates() ≤ 3/4 of the rows' pairs
    /// (a9a's distinct rows: 45 %, 1.7–2.8× faster).
    bool gramPays() const { return 4 * updates() <= 3 * m_pairs; }
    /// Whether the passes (rowDotsThenTransposed, weightedGramProduct) pay against the row
    /// kernels: two loops over the nodes against one over the non-zeros, so nodes ≤ half the
    /// non-zeros (a9a's distinct rows: 26 %, the passes 1.7–2× faster).
    bool passesPay() const { return 2 * nodes() <= m_entries; }
    /// The walk's order: position j → row (rows without entries first, then lexicographic by
    /// sequence, equal sequences by row index). The passes call weight(i, ·) in this order.
    const std::vector<int>& walkOrder() const { return m_order; }
    /// For rows renumbered by walkOrder (row j of the new X is row walkOrder()[j] of the old, and
    /// so for the scales and weights the caller passes): the tree of the new X, the same passes
    /// in the same order, whose per-row reads and writes then go in sequence (built anew on the
    /// new X, the tree would be this one).
    void renumberRowsInWalkOrder();
    /// Nodes of the tree: a pass costs about nodes + rows, against X's non-zeros row by row.
    std::size_t nodes() const { return m_column.size(); }
    Index rows() const { return static_cast<Index>(m_order.size()); }
    Index cols() const { return m_cols; }

private:
    // Loop 1 of a pass: P(v) at the first row of each node's range; rows without entries 0.
    const double* pathSums(const Eigen::VectorXd& v, std::vector<double>& work) const;
    // The three loops: out += Σ_i w_i x_i, w_i = weight(i, x_iᵀv).
    template <class Weight>
    void addTransposed(const Eigen::VectorXd& a, const Eigen::VectorXd& v, Weight& weight, Eigen::VectorXd& out,
                       std::vector<double>& work) const;

    Index m_cols = 0;
    int m_maxDepth = 0;
    int m_emptyRows = 0;                    ///< rows without entries: the first of the walk's order
    std::size_t m_entries = 0, m_pairs = 0; ///< Σ |S_i| and Σ |S_i|(|S_i|+1)/2 of the rows
    std::vector<int> m_column;              ///< node → c_v, nodes in depth-first order (parents first)
    std::vector<std::uint16_t> m_depth;     ///< node → d_v (1 for the first column)
    std::vector<int> m_first, m_end;        ///< node → its rows' range [first, end) in the walk's order
    std::vector<int> m_order;               ///< the walk's order: rows without entries, then by sequence
    std::vector<int> m_group;               ///< walk position → the first position of its sequence
    std::vector<int> m_rankOf, m_byRank;    ///< column → its rank by frequency, and back
};

template <class Weight>
void PrefixTree::rowDotsThenTransposed(const Eigen::VectorXd& a, const Eigen::VectorXd& v, Weight&& weight,
                                       Eigen::VectorXd& out, std::vector<double>& work) const {
    out.setZero(m_cols);
    addTransposed(a, v, weight, out, work);
}

template <class Weight>
void PrefixTree::addTransposed(const Eigen::VectorXd& a, const Eigen::VectorXd& v, Weight& weight, Eigen::VectorXd& out,
                               std::vector<double>& work) const {
    const double* P = pathSums(v, work);
    const std::size_t n = m_order.size();
    double* R = work.data() + n; // R[j] = Σ_{k<j} w a over the walk's first j rows
    const double* scale = a.data();
    double running = 0.0;
    R[0] = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        const int i = m_order[j];
        const double ai = scale[i];
        running += weight(static_cast<Index>(i), ai * P[m_group[j]]) * ai;
        R[j + 1] = running;
    }
    double* o = out.data();
    const std::size_t nodes = m_column.size();
    for (std::size_t u = 0; u < nodes; ++u)
        o[m_column[u]] += R[m_end[u]] - R[m_first[u]];
}

} // namespace elab::core
