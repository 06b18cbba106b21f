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

double evaluateOneVsRest(UtilityMetric metric, const Loss& loss, const FeatureMatrix& X,
                         const Eigen::VectorXd& labels, const std::vector<Eigen::VectorXd>& thetas) {
    const auto K = static_cast<int>(thetas.size());
    const Index n = X.rows();
    Eigen::MatrixXd scores(n, K);
    for (int k = 0; k < K; ++k) {
        Eigen::VectorXd p;
        multiply(X, thetas[static_cast<std::size_t>(k)], p);
        scores.col(k) = p;
    }
    if (isLossMetric(metric)) {
        double total = 0.0;
        for (int k = 0; k < K; ++k) {
            double sum = 0.0;
            for (Index i = 0; i < n; ++i)
                sum += loss.value(scores(i, k), static_cast<int>(labels[i]) == k ? 1.0 : -1.0);
            total += sum / static_cast<double>(n);
        }
        return total / K;
    }
    Index correct = 0;
    for (Index i = 0; i < n; ++i) {
        const int label = static_cast<int>(labels[i]);
        bool strictlyLargest = true;
        for (int k = 0; k < K && strictlyLargest; ++k)
            strictlyLargest = k == label || scores(i, k) < scores(i, label);
        correct += strictlyLargest ? 1 : 0;
    }
    return static_cast<double>(correct) / static_cast<double>(n);
}

} // namespace elab::core
