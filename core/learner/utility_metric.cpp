#include "core/learner/utility_metric.h"

#include "core/learner/prediction.h"

#include <stdexcept>

namespace elab::core {

const OptionNames<UtilityMetric>& utilityMetricNames() {
    static const OptionNames<UtilityMetric> names{{UtilityMetric::TrainLoss, "train-loss"},
                                                  {UtilityMetric::TestLoss, "test-loss"},
                                                  {UtilityMetric::TrainAccuracy, "train-acc"},
                                                  {UtilityMetric::TestAccuracy, "test-acc"}};
    return names;
}

const char* toString(UtilityMetric value) { return optionName(utilityMetricNames(), value); }

UtilityMetric utilityMetricFromString(const std::string& name) {
    return parseOptionName(utilityMetricNames(), name, "metric");
}

double utilityOfScores(UtilityMetric metric, const Loss& loss, const Eigen::MatrixXd& scores, Labels labels) {
    return isLossMetric(metric) ? meanLossOf(loss, scores, labels) : accuracyOf(scores, labels);
}

double evaluateUtility(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X, Labels y,
                       const Eigen::VectorXd& theta) {
    return evaluateOneVsRest(metric, loss, X, y, {theta});
}

double evaluateOneVsRest(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X, Labels labels,
                         const std::vector<Eigen::VectorXd>& thetas) {
    // Block by block of rows (no n × K score matrix): utilityOfScores of linearScores, bit for bit.
    return isLossMetric(metric) ? meanLossOfLinearModels(loss, X, thetas, labels)
                                : accuracyOfLinearModels(X, thetas, labels);
}

} // namespace elab::core
