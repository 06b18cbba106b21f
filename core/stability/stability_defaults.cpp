#include "core/stability/stability_defaults.h"

namespace elab::core {

StabilityModel defaultStabilityModel(TaskKind task) {
    return task == TaskKind::Regression ? StabilityModel::Linear : StabilityModel::Logistic;
}

PreprocessOptions defaultStabilityPreprocess(StabilityModel model, bool sparseFeatures) {
    PreprocessOptions p;
    const bool linear = model == StabilityModel::Linear;
    p.norm = linear ? NormPolicy::None : NormPolicy::ClipRows;
    p.standardise = linear || !sparseFeatures;
    return p;
}

bool stabilityFitsIntercept(StabilityModel model, bool sparseFeatures) {
    return model == StabilityModel::Linear && !sparseFeatures;
}

std::string stabilityTaskProblem(StabilityModel model, TaskKind task, bool positiveClass) {
    if (model == StabilityModel::Linear && task != TaskKind::Regression)
        return "linear regression needs a numeric (regression) target; this dataset has class labels";
    if (model == StabilityModel::Logistic && task == TaskKind::Regression)
        return "logistic regression needs a binary label; this dataset has a numeric target (use linear regression)";
    if (model == StabilityModel::Logistic && task == TaskKind::Multiclass && !positiveClass)
        return "logistic regression needs a binary label: choose a positive class to compare against the rest "
               "(--positive CLASS)";
    return {};
}

} // namespace elab::core
