#pragma once
// Row-block kernels over the rows of a dense matrix X (DenseRows: plain, or a view with row
// factors and an implicit intercept column, core/data/feature_matrix.h) — the dense
// counterparts of sparse_rows.h, for the objectives' passes:
//   X·v, Xᵀw, the fused (1/n)Xᵀ(d ⊙ Xv) of a Hessian-vector product, the fused Xᵀw(Xv) of an
//   objective's value and gradient, XᵀDX, and Σ_i d_i x_ij².
// Each works on blocks of DenseRows::blockRows() rows (≈ 256 KiB): a block is read from memory
// once and reused from cache, and no n-vector is formed for the intermediate x_iᵀv (on a million
// rows that is 8 MB per vector per fit). The blocks depend on X's shape only, so the sums are
// the same on every run and every thread count; a view and its plain copy give the same numbers
// bit for bit (the block holds the plain copy's values).

#include "core/data/feature_matrix.h"

namespace elab::core {

/// out_i = x_iᵀv (out resized to n).
void denseRowDots(const DenseRows& X, const Eigen::VectorXd& v, Eigen::VectorXd& out);
/// out = Σ_i w_i x_i (= Xᵀw).
void denseTransposedProduct(const DenseRows& X, const Eigen::VectorXd& w, Eigen::VectorXd& out);

namespace detail {
/// The pass of denseRowDotsThenTransposed and denseRowDotPairsThenTransposed: with u (WithU),
/// t_i = x_iᵀu from the same block as s_i = x_iᵀv.
template <bool WithU, class Weight>
void rowDotsThenTransposed(const DenseRows& X, const Eigen::VectorXd* u, const Eigen::VectorXd& v, Weight&& weight,
                           Eigen::VectorXd& out) {
    out.setZero(X.cols);
    Eigen::VectorXd t, s, w;
    X.forEachBlock([&](Index begin, const auto& rows) {
        if constexpr (WithU)
            t.noalias() = rows * *u;
        s.noalias() = rows * v;
        w.resize(s.size());
        for (Index k = 0; k < s.size(); ++k) {
            if constexpr (WithU)
                w[k] = weight(begin + k, t[k], s[k]);
            else
                w[k] = weight(begin + k, s[k]);
        }
        out.noalias() += rows.transpose() * w;
    });
}
} // namespace detail

/// One pass over the rows for a value and its gradient: s_i = x_iᵀv, w_i = weight(i, s_i), and
/// out = Σ_i w_i x_i (zeroed first), each block of rows read once. weight: double(Index, double),
/// called in row order. s_i is bit for bit denseRowDots' out_i.
template <class Weight>
void denseRowDotsThenTransposed(const DenseRows& X, const Eigen::VectorXd& v, Weight&& weight, Eigen::VectorXd& out) {
    detail::rowDotsThenTransposed<false>(X, nullptr, v, weight, out);
}

/// The same pass with a second row dot t_i = x_iᵀu: w_i = weight(i, t_i, s_i), weight being
/// double(Index, double, double). t_i is bit for bit denseRowDots' out_i for u, and no n-vector
/// of it is kept (the second-order Taylor term's third derivative at x_iᵀθ: 8 MB a call at a
/// million rows).
template <class Weight>
void denseRowDotPairsThenTransposed(const DenseRows& X, const Eigen::VectorXd& u, const Eigen::VectorXd& v,
                                    Weight&& weight, Eigen::VectorXd& out) {
    detail::rowDotsThenTransposed<true>(X, &u, v, weight, out);
}

/// denseRowDotsThenTransposed that also forms H = Σ_i c_i x_i x_iᵀ (p × p, both triangles, zeroed
/// first), c_i being what weight(i, s_i, c_i) writes into its third argument: the curvature of
/// every row enters H by blocks and no n-vector of it is kept. out and the weights' calls are
/// those of denseRowDotsThenTransposed bit for bit.
template <class Weight>
void denseRowDotsThenTransposedAndGram(const DenseRows& X, const Eigen::VectorXd& v, Weight&& weight,
                                       Eigen::VectorXd& out, Eigen::MatrixXd& H) {
    out.setZero(X.cols);
    H.setZero(X.cols, X.cols);
    Eigen::VectorXd s, w, c;
    Eigen::MatrixXd weighted;
    X.forEachBlock([&](Index begin, const auto& rows) {
        s.noalias() = rows * v;
        w.resize(s.size());
        c.resize(s.size());
        for (Index k = 0; k < s.size(); ++k)
            w[k] = weight(begin + k, s[k], c[k]);
        out.noalias() += rows.transpose() * w;
        // The upper triangle by column dot products over the block (a p × m × p product
        // would pack the block for a general kernel: slower at the few columns this serves).
        weighted.noalias() = c.asDiagonal() * rows;
        for (Index j = 0; j < X.cols; ++j)
            for (Index k = j; k < X.cols; ++k)
                H(j, k) += weighted.col(j).dot(rows.col(k));
    });
    H.triangularView<Eigen::StrictlyLower>() = H.transpose();
}

/// out += factor·Σ_i weight_i (x_iᵀv) x_i; out must have size cols and must not alias v.
void denseWeightedGramProduct(const DenseRows& X, const Eigen::VectorXd& weight, double factor,
                              const Eigen::VectorXd& v, Eigen::VectorXd& out);
/// H = factor·Σ_i weight_i x_i x_iᵀ (weight nullptr: all 1), dense p×p, both triangles.
void denseWeightedGram(const DenseRows& X, const Eigen::VectorXd* weight, double factor, Eigen::MatrixXd& H);
/// out_j = Σ_i weight_i x_ij² (the diagonal of XᵀDX).
void denseWeightedSquares(const DenseRows& X, const Eigen::VectorXd& weight, Eigen::VectorXd& out);

} // namespace elab::core
