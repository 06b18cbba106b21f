#include "core/stability/stability_defaults.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>

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

namespace {

/// Per class (rows K) and in all (the last row): the sums of each column, and the sums of squares
/// in all (for the standard deviations).
template <class ForEachEntry>
void classSums(ForEachEntry&& forEach, const Eigen::VectorXi& classOf, Eigen::MatrixXd& sums,
               Eigen::VectorXd& squares) {
    forEach([&](Index row, Index col, double v) {
        sums(classOf(row), col) += v;
        sums(sums.rows() - 1, col) += v;
        squares(col) += v * v;
    });
}

} // namespace

int defaultPositiveClass(const Dataset& data) {
    const int K = data.targets.classCount();
    if (data.targets.kind != TaskKind::Multiclass || K < 2 || data.rows() == 0)
        return 0;
    const Eigen::VectorXi& classOf = data.targets.classIndex.get();
    const Index p = data.featureCount();
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(K + 1, p);
    Eigen::VectorXd squares = Eigen::VectorXd::Zero(p);
    if (data.features.isSparse()) {
        const SparseMatrix& X = data.features.sparse();
        classSums(
            [&](auto&& add) {
                for (Index i = 0; i < X.outerSize(); ++i)
                    for (SparseMatrix::InnerIterator it(X, i); it; ++it)
                        add(i, it.col(), it.value());
            },
            classOf, sums, squares);
    } else {
        const DenseMatrix& X = data.features.dense();
        classSums(
            [&](auto&& add) {
                for (Index j = 0; j < X.cols(); ++j)
                    for (Index i = 0; i < X.rows(); ++i)
                        add(i, j, X(i, j));
            },
            classOf, sums, squares);
    }
    const std::vector<Index> counts = data.targets.classCounts();
    const auto n = static_cast<double>(data.rows());
    const Eigen::RowVectorXd mean = sums.row(K) / n;
    Eigen::RowVectorXd inverseSd(p);
    for (Index j = 0; j < p; ++j) {
        const double variance = squares(j) / n - mean(j) * mean(j);
        inverseSd(j) = variance > 1e-300 ? 1.0 / std::sqrt(variance) : 0.0; // a constant column says nothing
    }
    int best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int k = 0; k < K; ++k) {
        if (counts[static_cast<std::size_t>(k)] == 0)
            continue;
        const Eigen::RowVectorXd centroid = sums.row(k) / static_cast<double>(counts[static_cast<std::size_t>(k)]);
        const double distance = ((centroid - mean).cwiseProduct(inverseSd)).squaredNorm();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = k;
        }
    }
    return best;
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
