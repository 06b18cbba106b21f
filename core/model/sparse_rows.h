#pragma once
// Row kernels over a CSR matrix X (rows x_i) for the objectives' hot loops:
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

namespace elab::core {

namespace detail {

// Row i's stored entries are [begin(i), end(i)); an uncompressed matrix (after insert()) has
// free slots after each row's live entries.
struct Rows {
    const int* outer;
    const int* counts; // nullptr when compressed
    const int* inner;
    const double* values;
    Index n;
    explicit Rows(const SparseMatrix& X)
        : outer(X.outerIndexPtr()), counts(X.isCompressed() ? nullptr : X.innerNonZeroPtr()),
          inner(X.innerIndexPtr()), values(X.valuePtr()), n(X.outerSize()) {}
    int begin(Index i) const { return outer[i]; }
    int end(Index i) const { return counts ? outer[i] + counts[i] : outer[i + 1]; }
};

inline bool useRowScale(const Eigen::VectorXd* rowScale, const SparseMatrix& X) {
    return rowScale && rowScale->size() == X.rows() && X.rows() > 0;
}

// Σ_k x_k v_k over [k0, k1) (Binary: Σ v_k, the caller multiplies by a_i). One running sum:
// measured faster on a9a than four partial sums (≈ 14 non-zeros per row; the loop is bound by
// the scatter that follows, not by the additions).
template <bool Binary>
inline double rowDot(const Rows& X, int k0, int k1, const double* v) {
    double s = 0.0;
    for (int k = k0; k < k1; ++k) {
        if constexpr (Binary)
            s += v[X.inner[k]];
        else
            s += X.values[k] * v[X.inner[k]];
    }
    return s;
}

// out_j += t x_ij over [k0, k1) (Binary: out_j += t).
template <bool Binary>
inline void rowAxpy(const Rows& X, int k0, int k1, double t, double* out) {
    for (int k = k0; k < k1; ++k) {
        if constexpr (Binary)
            out[X.inner[k]] += t;
        else
            out[X.inner[k]] += t * X.values[k];
    }
}

template <bool Binary, class Weight>
void rowDotsThenAxpy(const Rows& X, const double* a, const double* v, Weight& weight, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        const int k0 = X.begin(i), k1 = X.end(i);
        const double s = rowDot<Binary>(X, k0, k1, v);
        const double w = weight(i, Binary ? a[i] * s : s);
        rowAxpy<Binary>(X, k0, k1, Binary ? w * a[i] : w, out);
    }
}

} // namespace detail

/// a_i of every row when each row's stored values are all equal (empty rows: 0), so the
/// matrix is described exactly by its pattern and a; otherwise an empty vector. One pass over
/// the values. Explicitly stored zeros count as values.
Eigen::VectorXd constantRowValues(const SparseMatrix& X);

/// out_i = x_iᵀv. rowScale: constantRowValues(X), or nullptr / empty to read X's values.
void sparseRowDots(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v,
                   Eigen::VectorXd& out);
/// out = Σ_i w_i x_i (= Xᵀw), same rowScale convention.
void sparseTransposedProduct(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& w,
                             Eigen::VectorXd& out);
/// out += factor·Σ_i weight_i (x_iᵀv) x_i, skipping rows with weight 0; out must have size
/// cols and must not alias v. Same rowScale convention (the a_i² factor is applied here).
void sparseWeightedGramProduct(const SparseMatrix& X, const Eigen::VectorXd* rowScale,
                               const Eigen::VectorXd& weight, double factor, const Eigen::VectorXd& v,
                               Eigen::VectorXd& out);

/// One pass over the rows for a value and its gradient: s_i = x_iᵀv, w_i = weight(i, s_i), and
/// out = Σ_i w_i x_i (zeroed first), reading row i once. weight: double(Index, double), called
/// in row order. Bit for bit sparseRowDots then weight then sparseTransposedProduct (the same
/// products and sums in the same order), in one pass instead of two.
template <class Weight>
void sparseRowDotsThenTransposed(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v,
                                 Weight&& weight, Eigen::VectorXd& out) {
    out.setZero(X.cols());
    const detail::Rows rows(X);
    if (detail::useRowScale(rowScale, X))
        detail::rowDotsThenAxpy<true>(rows, rowScale->data(), v.data(), weight, out.data());
    else
        detail::rowDotsThenAxpy<false>(rows, nullptr, v.data(), weight, out.data());
}

/// H = factor·Σ_i weight_i x_i x_iᵀ, dense p×p (symmetric, both triangles filled): the data
/// part of a Hessian XᵀDX/n. Cost Σ_i nnz_i(nnz_i+1)/2 (sparseRowPairs) updates, memory p².
void sparseWeightedGram(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                        double factor, Eigen::MatrixXd& H);
/// Σ_i nnz_i(nnz_i+1)/2: the updates sparseWeightedGram makes.
std::size_t sparseRowPairs(const SparseMatrix& X);

} // namespace elab::core
