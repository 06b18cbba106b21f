#pragma once
// Row kernels over a CSR matrix X (rows x_i) for the objectives' hot loops:
//   X·v (x_iᵀv per row), Xᵀw (Σ_i w_i x_i) and the fused (1/n)Xᵀ(d ⊙ Xv) of a Hessian-vector
//   product, one pass over the rows.
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

/// H = factor·Σ_i weight_i x_i x_iᵀ, dense p×p (symmetric, both triangles filled): the data
/// part of a Hessian XᵀDX/n. Cost Σ_i nnz_i(nnz_i+1)/2 (sparseRowPairs) updates, memory p².
void sparseWeightedGram(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                        double factor, Eigen::MatrixXd& H);
/// Σ_i nnz_i(nnz_i+1)/2: the updates sparseWeightedGram makes.
std::size_t sparseRowPairs(const SparseMatrix& X);

} // namespace elab::core
