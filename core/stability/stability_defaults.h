#pragma once
// The rules of the stability study that the CLI and the GUI share (issue 10: one home for
// every rule): which model a task takes, the data preparation each model gets by default, when
// an intercept is fitted, and which tasks a model accepts. The study is non-private (Jain et
// al. §5): linear regression on standardised columns without a norm bound is its setting.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/stability/stability_learner.h"

#include <string>

namespace elab::core {

/// Linear for a regression target, logistic otherwise.
StabilityModel defaultStabilityModel(TaskKind task);

/// Logistic: rows clipped to ‖x‖ ≤ 1. Linear: columns standardised, no norm bound (values
/// keep their scale; the study makes no privacy claim).
PreprocessOptions defaultStabilityPreprocess(StabilityModel model);

/// An intercept by centring: linear regression on dense data only.
bool stabilityFitsIntercept(StabilityModel model, bool sparseFeatures);

/// "" if model can be fitted to task; else why, in words. positiveClass: a positive class
/// will binarise a multiclass label (checks made before the preparation).
std::string stabilityTaskProblem(StabilityModel model, TaskKind task, bool positiveClass = false);

} // namespace elab::core
