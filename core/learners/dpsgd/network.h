#pragma once
// The models DP-SGD trains (docs/MATH.md §3.6): softmax over K classes of a linear map, or of
// one ReLU hidden layer. Parameters per dense layer: W (out × in) and b (out). Per-example
// gradients are never formed: for a dense layer with input a_i and output gradient δ_i the
// example's gradient is (δ_i a_iᵀ, δ_i), whose squared norm is ‖δ_i‖²(‖a_i‖² + 1); the clipped
// sum is Σ_i c_i δ_i a_iᵀ = (c ⊙ Δ)ᵀ A, one matrix product per layer.

#include "core/data/feature_matrix.h"
#include "core/learner/sgd_spec.h"

#include <Eigen/Core>

#include <vector>

namespace elab::core {

struct DenseLayer {
    Eigen::MatrixXd W; ///< out × in
    Eigen::VectorXd b; ///< out
};

/// Layers in order: [hidden, output] or [output].
struct Network {
    std::vector<DenseLayer> layers;

    Index parameterCount() const;
    int outputs() const { return static_cast<int>(layers.back().W.rows()); }
    bool hasHidden() const { return layers.size() == 2; }
    /// Adds scale·(the other network's parameters) (same shapes).
    void addScaled(const Network& other, double scale);
    /// Sets every parameter to 0, keeping the shapes.
    void setZero();
};

/// Initial parameters from rng: the hidden layer He-normal (sd √(2/p)), the output layer
/// normal with sd √(1/H), biases 0; a linear model starts at 0.
Network initialNetwork(Index inputs, int hidden, int classes, std::uint64_t seed);

/// The n × K logits of the rows of X (no dropout: the expected network).
Eigen::MatrixXd networkLogits(const Network& net, const FeatureMatrix& X);

/// Mean softmax cross-entropy and accuracy of logits against class indices 0..K−1.
struct ClassificationMetrics {
    double loss = 0.0;
    double accuracy = 0.0;
};
ClassificationMetrics classificationMetrics(const Eigen::MatrixXd& logits, const Eigen::VectorXi& classes);

/// How a batch's per-example gradients are clipped before summing.
struct ClipRule {
    bool clip = true; ///< false: no clipping (non-private SGD)
    ClipMode mode = ClipMode::Total;
    double threshold = 1.0; ///< C (Total) or C_l (PerLayer)
    /// η of clipFactor: 0 in double precision, kSingleClipMargin in single (docs/MATH.md §3.6).
    double margin = 0.0;
};

/// The clip margin of the single-precision products: it covers the rounding of the values handed
/// to a float product (the scaled δ_i and x_i, each element to within 2⁻²⁴ relative, and each
/// product of two of them once more) and of the norm computed in double (docs/MATH.md §3.6).
constexpr double kSingleClipMargin = 0x1p-20;

/// The clip factor of an example's gradient of squared norm sq: min(1, C/(√sq·(1 + η))), 1 when
/// sq = 0. With η = 0 the usual min(1, C/‖g‖).
double clipFactor(double squaredNorm, double threshold, double margin);

/// Work buffers of one batch, reused across steps.
struct BatchWork {
    Eigen::MatrixXd hiddenPre, hidden, logits, deltaOut, deltaHidden, mask;
    Eigen::VectorXd inputSqNorm, layerSqNorm0, layerSqNorm1, factor0, factor1;
};

/// The clipped sum of the per-example gradients of the mean cross-entropy over a batch:
/// X rows with class indices y; mask (b × H, or empty) multiplies the hidden units (dropout).
/// Writes sum (shapes of net) and, if given, each example's unclipped gradient norm.
void clippedGradientSum(const Network& net, const FeatureMatrix& X, const Eigen::VectorXi& y,
                        const Eigen::MatrixXd* mask, const ClipRule& rule, BatchWork& work, Network& sum,
                        Eigen::VectorXd* norms = nullptr);

} // namespace elab::core
