#pragma once
// The one prediction and metric path: every utility (train/test loss and accuracy, docs/MATH.md
// §3.7, §4) and every stability error (§4.4) is computed from a score matrix S (n × K) here.
//   K = 1: labels y_i ∈ {±1} (or real targets); row i is correct iff y_i·s_i > 0 (ties wrong);
//          loss (1/n) Σ ℓ(s_i, y_i).
//   K ≥ 2: labels are class indices 0..K−1; row i is correct iff its class's score is strictly
//          the largest; loss (1/K) Σ_k (1/n) Σ_i ℓ(s_ik, y_ik), y_ik = +1 if y_i = k else −1
//          (one-vs-rest, §3.7).

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"
#include "core/model/loss.h"

#include <Eigen/Core>

#include <vector>

namespace elab::core {

/// s = Xθ + b (b added only when non-zero), one column.
Eigen::VectorXd linearScores(const FeatureMatrix& X, const Eigen::VectorXd& theta, double intercept = 0.0);

/// S = [Xθ_1 … Xθ_K], one column per model (one-vs-rest: class k's model in column k).
Eigen::MatrixXd linearScores(const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas);

/// The same metrics of the models θ_1..θ_K (one-vs-rest: class k's in position k) on X's rows,
/// computed block by block of rows: no n × K score matrix is formed. Bit for bit the value of
/// accuracyOf / meanLossOf on linearScores(X, thetas).
double accuracyOfLinearModels(const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas, Labels labels);
double meanLossOfLinearModels(const Loss& loss, const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas,
                              Labels labels);

/// Rows classified correctly (see above).
Index correctCount(const Eigen::MatrixXd& scores, Labels labels);
/// Fraction of rows classified correctly; fraction misclassified (NaN for no rows).
double accuracyOf(const Eigen::MatrixXd& scores, Labels labels);
double errorRateOf(const Eigen::MatrixXd& scores, Labels labels);
/// Mean loss (see above; NaN for no rows).
double meanLossOf(const Loss& loss, const Eigen::MatrixXd& scores, Labels labels);
/// One column: (1/n) Σ (s_i − y_i)² (NaN for no rows).
double meanSquaredErrorOf(const Eigen::MatrixXd& scores, const Eigen::VectorXd& targets);

} // namespace elab::core
