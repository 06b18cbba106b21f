#pragma once
// The single-precision path of a network with a hidden layer on dense rows (docs/MATH.md §3.6,
// "clipping in finite precision"): the hidden layer's two large products — the forward product
// X_B W_hᵀ and the clipped sum Σ_i c_i δ_i x_iᵀ — in float (sgemm), everything else in double:
// the output layer, the per-example norms (accumulated in double from double values), the clip
// factors (with the margin kSingleClipMargin), and whatever the caller does with the sum (noise,
// update). Same results as the double path to float rounding; bit-identical for any thread count
// (the products are split over fixed slices of units, core/learners/dpsgd/unit_slices.h).

#include "core/learners/dpsgd/network.h"

#include <Eigen/Core>

#include <vector>

namespace elab::core {

/// Dense rows as the single-precision path reads them: each row a contiguous float column (so a
/// batch is gathered by copying whole rows), and its squared norm in double from the double row.
struct SingleRows {
    Eigen::MatrixXf columns; ///< p × n: column i is row i, rounded to float
    Eigen::VectorXd squaredNorms;

    Index rows() const { return columns.cols(); }
    Index cols() const { return columns.rows(); }
};

/// The rows of a dense X (also a view: its values as the plain copy holds them). Throws
/// std::invalid_argument for sparse X.
SingleRows singleRows(const FeatureMatrix& X);

/// Work buffers of one run, sized for the largest batch so far: a step allocates nothing unless
/// its batch is the largest yet.
struct SingleWork {
    Index capacity = 0;
    Eigen::MatrixXf batch;                       ///< p × capacity: the batch's rows as columns
    Eigen::MatrixXf hiddenW;                     ///< H × p: the hidden layer's W in float
    Eigen::MatrixXf product;                     ///< capacity × H: X_B W_hᵀ in float
    Eigen::MatrixXd hiddenPre;                   ///< capacity × H: ReLU before the mask (with dropout only)
    Eigen::MatrixXd hidden;                      ///< capacity × H: ReLU (times the dropout mask)
    Eigen::MatrixXd logits;                      ///< capacity × K
    Eigen::MatrixXd deltaOut;                    ///< capacity × K
    Eigen::MatrixXd deltaHidden;                 ///< capacity × H
    Eigen::MatrixXf deltaFloat;                  ///< capacity × H: the clipped δ of the hidden layer in float
    Eigen::MatrixXf gradient;                    ///< H × p: the clipped sum of the hidden layer's W in float
    Eigen::MatrixXd partialHidden, partialDelta; ///< capacity × slices: ‖h_i‖², ‖δ_i‖² per slice of units
    Eigen::VectorXd inputSq, sq0, sq1, factor0, factor1;

    /// Sizes the buffers for batches of up to `rows` (no-op when they already fit).
    void reserve(Index rows, Index inputs, Index hidden, Index outputs);
};

/// clippedGradientSum for a network with a hidden layer, the batch being rows `batch` of X, with
/// class indices y (one per row of X) — the hidden layer's products in float, clipped with
/// rule.margin (kSingleClipMargin for the guarantee). mask: nullptr or at least |batch| × H, its
/// first |batch| rows used. norms: each example's unclipped gradient norm, if given (resized).
void clippedGradientSumSingle(const Network& net, const SingleRows& X, const std::vector<Index>& batch,
                              const Eigen::VectorXi& y, const Eigen::MatrixXd* mask, const ClipRule& rule,
                              SingleWork& work, Network& sum, Eigen::VectorXd* norms = nullptr);

/// networkLogits with the hidden layer's product in float (X's rows through singleRows).
Eigen::MatrixXd networkLogitsSingle(const Network& net, const SingleRows& X);

} // namespace elab::core
