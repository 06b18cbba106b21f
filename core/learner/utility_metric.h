#pragma once
// The utility measured along ε: losses (differentiable, so they have Taylor estimates) and
// accuracies (measured only).

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"
#include "core/model/loss.h"
#include "core/util/option_names.h"

#include <string>
#include <vector>

namespace elab::core {

enum class UtilityMetric { TrainLoss, TestLoss, TrainAccuracy, TestAccuracy };

const char* toString(UtilityMetric metric);             ///< "train-loss", "test-loss", "train-acc", "test-acc"
const OptionNames<UtilityMetric>& utilityMetricNames(); ///< the names toString / utilityMetricFromString use
UtilityMetric utilityMetricFromString(const std::string& name);
inline bool isLossMetric(UtilityMetric m) { return m == UtilityMetric::TrainLoss || m == UtilityMetric::TestLoss; }
inline bool usesTestSet(UtilityMetric m) { return m == UtilityMetric::TestLoss || m == UtilityMetric::TestAccuracy; }

/// The metric of a model's scores (n × K) on rows with these labels: the one path of every
/// learner (core/learner/prediction.h). K = 1: labels ±1 (or targets); K ≥ 2: class indices.
double utilityOfScores(UtilityMetric metric, const Loss& loss, const Eigen::MatrixXd& scores, Labels labels);

/// Mean loss (1/n) Σ ℓ(x_iᵀθ, y_i), or the fraction of rows with sign(x_iᵀθ) = y_i (ties
/// count as wrong) for accuracies.
double evaluateUtility(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X, Labels y,
                       const Eigen::VectorXd& theta);

/// One-vs-rest utility of K ≥ 2 binary models (thetas[k]: class k against the rest) on rows
/// with class indices labels_i ∈ {0..K−1} (core/learners/linear_erm/one_vs_rest.h):
/// - loss: the mean over classes of each model's binary mean loss,
///   (1/K) Σ_k (1/n) Σ_i ℓ(x_iᵀθ_k, y_ik),  y_ik = +1 if labels_i = k, else −1;
/// - accuracy: the fraction of rows whose argmax_k x_iᵀθ_k is their label, counting a row as
///   wrong when another class ties with the largest score (as ties are wrong in the binary case).
double evaluateOneVsRest(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X, Labels labels,
                         const std::vector<Eigen::VectorXd>& thetas);

} // namespace elab::core
