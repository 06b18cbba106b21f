#pragma once
// The utility measured along ε: losses (differentiable, so they have Taylor estimates) and
// accuracies (measured only).

#include "core/data/feature_matrix.h"
#include "core/model/loss.h"

#include <string>

namespace elab::core {

enum class UtilityMetric { TrainLoss, TestLoss, TrainAccuracy, TestAccuracy };

const char* toString(UtilityMetric metric); ///< "train-loss", "test-loss", "train-acc", "test-acc"
UtilityMetric utilityMetricFromString(const std::string& name);
inline bool isLossMetric(UtilityMetric m) { return m == UtilityMetric::TrainLoss || m == UtilityMetric::TestLoss; }
inline bool usesTestSet(UtilityMetric m) { return m == UtilityMetric::TestLoss || m == UtilityMetric::TestAccuracy; }

/// Mean loss (1/n) Σ ℓ(x_iᵀθ, y_i), or the fraction of rows with sign(x_iᵀθ) = y_i (ties
/// count as wrong) for accuracies.
double evaluateUtility(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X,
                       const Eigen::VectorXd& y, const Eigen::VectorXd& theta);

} // namespace elab::core
