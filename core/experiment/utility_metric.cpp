#include "core/experiment/utility_metric.h"

#include "core/model/linear_objective.h"

#include <stdexcept>

namespace elab::core {

const char* toString(UtilityMetric metric) {
    switch (metric) {
    case UtilityMetric::TrainLoss: return "train-loss";
    case UtilityMetric::TestLoss: return "test-loss";
    case UtilityMetric::TrainAccuracy: return "train-acc";
    case UtilityMetric::TestAccuracy: return "test-acc";
    }
    return "?";
}

UtilityMetric utilityMetricFromString(const std::string& name) {
    for (UtilityMetric m : {UtilityMetric::TrainLoss, UtilityMetric::TestLoss, UtilityMetric::TrainAccuracy,
                            UtilityMetric::TestAccuracy})
        if (name == toString(m))
            return m;
    throw std::invalid_argument("unknown metric '" + name + "' (train-loss, test-loss, train-acc, test-acc)");
}

double evaluateUtility(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X,
                       const Eigen::VectorXd& y, const Eigen::VectorXd& theta) {
    Eigen::VectorXd p;
    multiply(X, theta, p);
    const Eigen::Index n = p.size();
    if (isLossMetric(metric)) {
        double sum = 0.0;
        for (Eigen::Index i = 0; i < n; ++i)
            sum += loss.value(p[i], y[i]);
        return sum / static_cast<double>(n);
    }
    Eigen::Index correct = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        correct += (p[i] * y[i] > 0.0) ? 1 : 0;
    return static_cast<double>(correct) / static_cast<double>(n);
}

} // namespace elab::core
