#pragma once
// Row kernels over the rows of a CSR matrix X (CsrRows: plain, or a view with row factors and an
// implicit intercept column, core/data/feature_matrix.h) for the objectives' hot loops:
//   X·v (x_iᵀv per row), Xᵀw (Σ_i w_i x_i), the fused (1/n)Xᵀ(d ⊙ Xv) of a Hessian-vector
//   product, and the fused Xᵀw(Xv) of an objective's value and gradient, one pass over the rows.
// Raw-pointer loops over the CSR arrays (no per-entry iterator, no reload of the output's data
// pointer), and for binary rows no values at all (below).
//
// Binary rows. After row clipping, one-hot data (a9a: 14 ones per row) has rows whose stored
// non-zeros are all one value a_i (x_i = a_i·1_{S_i}). With the RowScales of such a matrix the
// kernels read the column indices only (4 instead of 12 bytes per non-zero) and fold a_i into
// one multiplication per row. Exact storage: only the rounding of the sums changes (a_i Σ v_j
// instead of Σ a_i v_j, ≤ a few ulps).

#include "core/data/feature_matrix.h"

#include <type_traits>

namespace elab::core {

namespace detail {

using Rows = CsrRows;

inline bool useRowScale(const Eigen::VectorXd* rowScale, const CsrRows& X) {
    return rowScale && rowScale->size() == X.n && X.n > 0;
}

// Plain: no row factors and no implicit entry (a plain matrix; for Binary rows, no implicit
// entry: a_i carries the factors). The kernels are instantiated for both, so a plain matrix's
// loops carry no per-row test.

// Σ_k x_ik v_k over row i (Binary: Σ v_k, the caller multiplies by a_i), the implicit intercept
// entry last. Non-binary values are stored·factor(i). One running sum: measured faster on a9a
// than four partial sums (≈ 14 non-zeros per row; the loop is bound by the scatter that
// follows, not by the additions).
template <bool Binary, bool Plain>
inline double rowDot(const Rows& X, Index i, int k0, int k1, const double* v) {
    double s = 0.0;
    if constexpr (Binary) {
        for (int k = k0; k < k1; ++k)
            s += v[X.inner[k]];
        if constexpr (!Plain)
            if (X.intercept >= 0)
                s += v[X.intercept];
    } else if constexpr (Plain) {
        for (int k = k0; k < k1; ++k)
            s += X.values[k] * v[X.inner[k]];
    } else {
        const double f = X.factor(i);
        for (int k = k0; k < k1; ++k)
            s += (X.values[k] * f) * v[X.inner[k]];
        if (X.intercept >= 0)
            s += (X.interceptValue * f) * v[X.intercept];
    }
    return s;
}

// out_j += t x_ij over row i (Binary: out_j += t), the implicit intercept entry last.
template <bool Binary, bool Plain>
inline void rowAxpy(const Rows& X, Index i, int k0, int k1, double t, double* out) {
    if constexpr (Binary) {
        for (int k = k0; k < k1; ++k)
            out[X.inner[k]] += t;
        if constexpr (!Plain)
            if (X.intercept >= 0)
                out[X.intercept] += t;
    } else if constexpr (Plain) {
        for (int k = k0; k < k1; ++k)
            out[X.inner[k]] += t * X.values[k];
    } else {
        const double f = X.factor(i);
        for (int k = k0; k < k1; ++k)
            out[X.inner[k]] += t * (X.values[k] * f);
        if (X.intercept >= 0)
            out[X.intercept] += t * (X.interceptValue * f);
    }
}

template <bool Binary, bool Plain, class Weight>
void rowDotsThenAxpy(const Rows& X, const double* a, const double* v, Weight& weight, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        const int k0 = X.begin(i), k1 = X.end(i);
        const double s = rowDot<Binary, Plain>(X, i, k0, k1, v);
        const double w = weight(i, Binary ? a[i] * s : s);
        rowAxpy<Binary, Plain>(X, i, k0, k1, Binary ? w * a[i] : w, out);
    }
}

// kernel(binary, plain) with both as std::bool_constant: the instantiation for X's layout.
template <class Kernel>
void dispatchRows(const Rows& X, bool binary, Kernel&& kernel) {
    const bool plain = X.intercept < 0 && (binary || !X.scale);
    if (binary) {
        if (plain)
            kernel(std::true_type{}, std::true_type{});
        else
            kernel(std::true_type{}, std::false_type{});
    } else if (plain) {
        kernel(std::false_type{}, std::true_type{});
    } else {
        kernel(std::false_type{}, std::false_type{});
    }
}

} // namespace detail

/// a_i of every row when each row's stored values are all equal (empty rows: 0), so the
/// matrix is described exactly by its pattern and a; otherwise an empty vector. One pass over
/// the values. Explicitly stored zeros count as values.
Eigen::VectorXd constantRowValues(const CsrRows& X);

/// out_i = x_iᵀv. rowScale: constantRowValues(X), or nullptr / empty to read X's values.
void sparseRowDots(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v, Eigen::VectorXd& out);
/// out = Σ_i w_i x_i (= Xᵀw), same rowScale convention.
void sparseTransposedProduct(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& w,
                             Eigen::VectorXd& out);
/// out += factor·Σ_i weight_i (x_iᵀv) x_i, skipping rows with weight 0; out must have size
/// cols and must not alias v. Same rowScale convention (the a_i² factor is applied here).
void sparseWeightedGramProduct(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                               double factor, const Eigen::VectorXd& v, Eigen::VectorXd& out);

/// One pass over the rows for a value and its gradient: s_i = x_iᵀv, w_i = weight(i, s_i), and
/// out = Σ_i w_i x_i (zeroed first), reading row i once. weight: double(Index, double), called
/// in row order. Bit for bit sparseRowDots then weight then sparseTransposedProduct (the same
/// products and sums in the same order), in one pass instead of two.
template <class Weight>
void sparseRowDotsThenTransposed(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v,
                                 Weight&& weight, Eigen::VectorXd& out) {
    out.setZero(X.cols);
    const bool binary = detail::useRowScale(rowScale, X);
    detail::dispatchRows(X, binary, [&](auto b, auto plain) {
        detail::rowDotsThenAxpy<decltype(b)::value, decltype(plain)::value>(X, binary ? rowScale->data() : nullptr,
                                                                            v.data(), weight, out.data());
    });
}

/// H = factor·Σ_i weight_i x_i x_iᵀ, dense p×p (symmetric, both triangles filled): the data
/// part of a Hessian XᵀDX/n. Cost Σ_i nnz_i(nnz_i+1)/2 (sparseRowPairs) updates, memory p².
void sparseWeightedGram(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight, double factor,
                        Eigen::MatrixXd& H);
/// Σ_i nnz_i(nnz_i+1)/2: the updates sparseWeightedGram makes.
std::size_t sparseRowPairs(const CsrRows& X);

} // namespace elab::core
