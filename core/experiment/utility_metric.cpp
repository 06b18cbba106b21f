#include "core/experiment/utility_metric.h"

#include "core/learner/prediction.h"

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

double utilityOfScores(UtilityMetric metric, const Loss& loss, const Eigen::MatrixXd& scores,
                       const Eigen::VectorXd& labels) {
    return isLossMetric(metric) ? meanLossOf(loss, scores, labels) : accuracyOf(scores, labels);
}

double evaluateUtility(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X, const Eigen::VectorXd& y,
                       const Eigen::VectorXd& theta) {
    return utilityOfScores(metric, loss, linearScores(X, theta), y);
}

double evaluateOneVsRest(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X,
                         const Eigen::VectorXd& labels, const std::vector<Eigen::VectorXd>& thetas) {
    return utilityOfScores(metric, loss, linearScores(X, thetas), labels);
}

} // namespace elab::core
