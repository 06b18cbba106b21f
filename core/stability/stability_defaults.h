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

/// Logistic on dense data: columns standardised, then rows clipped to ‖x‖ ≤ 1 — raw columns
/// on their own scales make the problem so ill-conditioned that dropout GD does not converge
/// in its epochs (breast cancer: 0.34 test error against 0.02–0.08 for the Newton-fitted
/// methods, issue 13). Logistic on sparse data (the 20 Newsgroups setting of Jain et al.): rows
/// clipped only. Linear: columns standardised, no norm bound. The study is non-private, so
/// standardising (which reads the data) costs nothing here; the log still says it leaks.
PreprocessOptions defaultStabilityPreprocess(StabilityModel model, bool sparseFeatures = false);

/// An intercept by centring: linear regression on dense data only.
bool stabilityFitsIntercept(StabilityModel model, bool sparseFeatures);

/// The class a multiclass label is binarised at by default (its index): the one whose centroid is
/// nearest the centroid of all rows, each column in units of its standard deviation — the class
/// "in the middle", whose one-against-the-rest split is the hardest (iris: versicolor; setosa,
/// the first, is linearly separable and every error would be 0). The study is non-private, so
/// reading the data costs nothing here. 0 for fewer than two classes.
int defaultPositiveClass(const Dataset& data);

/// "" if model can be fitted to task; else why, in words. positiveClass: a positive class
/// will binarise a multiclass label (checks made before the preparation).
std::string stabilityTaskProblem(StabilityModel model, TaskKind task, bool positiveClass = false);

} // namespace elab::core
