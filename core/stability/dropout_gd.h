#pragma once
// Dropout gradient descent, Jain et al. Algorithm 1 (docs/MATH.md §3.5), with minibatches:
// at step t draw B rows i uniformly with replacement and masks b_i ∈ {0,1}^p with
// P(b_ij = 1) = q (the keep probability), and step
//   θ ← θ − η_t (1/B) Σ_i ∇_θ ℓ(⟨b_i ⊙ x_i, θ⟩/q, y_i) = θ − η_t (1/B) Σ_i ℓ'(u_i, y_i) (b_i ⊙ x_i)/q.
// Step sizes: η_t = η₀/√(1 + e) in epoch e (an epoch is ⌈n/B⌉ steps); η₀ = 1/L̂ by default,
// L̂ = λ_ℓ · max_i ‖x_i‖² / q (λ_ℓ = max ℓ'': 1/4 logistic, 2 squared; E‖b ⊙ x‖²/q² = ‖x‖²/q).
// Output: the average of the end-of-epoch iterates of the second half of the epochs
// (tail averaging, Polyak & Juditsky 1992), which removes most of the SGD noise.
// Randomness is counter-based: the row of minibatch slot b at step t is drawn from
// k = deriveSeed(seed, t, b), and the mask bit of feature j from splitMix64(k ⊕ (j+1)·φ), so a
// run that leaves row i out (leaveOut = i: steps that draw i make no update, i.e. SGD on D∖{i}
// with the step scaled by (n−1)/n) sees the same rows and masks as the run on D at every
// other step — the coupling that makes ‖θ(D) − θ(D∖{i})‖ measure the algorithm, not the noise.
// For the squared loss E_b[(⟨b⊙x,θ⟩/q − y)²] = (θᵀx − y)² + ((1−q)/q) Σ_j x_j²θ_j², so the
// steps are unbiased gradients of the deterministic-dropout objective and the output
// converges to its minimiser; for the logistic loss they converge to the minimiser of the
// exact dropout objective, which deterministic dropout approximates.

#include "core/data/feature_matrix.h"
#include "core/model/loss.h"

#include <cstdint>
#include <stop_token>

namespace elab::core {

struct DropoutGdOptions {
    double keep = 0.5; ///< q in (0, 1]
    int epochs = 30;
    int batchSize = 1;
    double stepSize = 0.0; ///< η₀; 0: 1/L̂
};

/// The step size η₀ the options give on X (1/L̂ when stepSize = 0).
double dropoutStepSize(const FeatureMatrix& X, const Loss& loss, const DropoutGdOptions& options);

/// Runs Algorithm 1 from θ = 0 with the streams of seed; leaveOut ≥ 0: row left out (see
/// above). Stops early (returning the current average) when stop is requested. Thread: any.
Eigen::VectorXd dropoutGradientDescent(const FeatureMatrix& X, const Eigen::VectorXd& y, const Loss& loss,
                                       const DropoutGdOptions& options, std::uint64_t seed, std::stop_token stop = {},
                                       int* steps = nullptr, Index leaveOut = -1);

} // namespace elab::core
