#include "core/stability/dropout_gd.h"

#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace elab::core {

namespace {

// One row's kept entries (j, x_ij b_ij / q): the dropped-out row, scaled.
struct MaskedRow {
    std::vector<Eigen::Index> index;
    std::vector<double> value;
};

void maskRow(const FeatureMatrix& X, Eigen::Index i, double keep, std::uint64_t key, MaskedRow& out) {
    out.index.clear();
    out.value.clear();
    const double scale = 1.0 / keep;
    const auto threshold = static_cast<std::uint64_t>(keep * 0x1.0p53);
    auto consider = [&](Eigen::Index j, double x) {
        const std::uint64_t bits = splitMix64(key ^ (static_cast<std::uint64_t>(j + 1) * 0x9E3779B97F4A7C15ULL)) >> 11;
        if (keep >= 1.0 || bits < threshold) {
            out.index.push_back(j);
            out.value.push_back(x * scale);
        }
    };
    if (X.isSparse()) {
        const SparseMatrix& S = X.sparse();
        const int* outer = S.outerIndexPtr();
        const int* inner = S.innerIndexPtr();
        const double* values = S.valuePtr();
        for (int k = outer[i]; k < outer[i + 1]; ++k)
            consider(inner[k], values[k]);
    } else {
        const DenseMatrix& D = X.dense();
        for (Eigen::Index j = 0; j < D.cols(); ++j)
            if (D(i, j) != 0.0)
                consider(j, D(i, j));
    }
}

} // namespace

double dropoutStepSize(const FeatureMatrix& X, const Loss& loss, const DropoutGdOptions& options) {
    if (options.stepSize > 0.0)
        return options.stepSize;
    const double maxNorm2 = X.rows() > 0 ? X.rowNorms().cwiseAbs2().maxCoeff() : 1.0;
    const double lipschitz = loss.curvatureBound() * std::max(maxNorm2, 1e-12) / options.keep;
    return 1.0 / lipschitz;
}

Eigen::VectorXd dropoutGradientDescent(const FeatureMatrix& X, const Eigen::VectorXd& y, const Loss& loss,
                                       const DropoutGdOptions& options, std::uint64_t seed, std::stop_token stop,
                                       int* steps, Index leaveOut) {
    const Eigen::Index n = X.rows(), p = X.cols();
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(p), average = Eigen::VectorXd::Zero(p);
    if (steps)
        *steps = 0;
    if (n == 0)
        return theta;
    const int batch = std::max(1, options.batchSize);
    const auto stepsPerEpoch = static_cast<int>((n + batch - 1) / batch);
    const double eta0 = dropoutStepSize(X, loss, options);
    const int firstAveraged = options.epochs / 2;
    int averaged = 0;
    std::uint64_t stepIndex = 0;
    std::vector<MaskedRow> rows(static_cast<std::size_t>(batch));
    std::vector<double> slopes(static_cast<std::size_t>(batch));
    for (int epoch = 0; epoch < options.epochs; ++epoch) {
        if (stop.stop_requested())
            break;
        const double eta = eta0 / std::sqrt(1.0 + epoch) / batch;
        for (int t = 0; t < stepsPerEpoch; ++t, ++stepIndex) {
            // Gradients at the same θ for the whole minibatch, then one step.
            for (int b = 0; b < batch; ++b) {
                const std::uint64_t key = deriveSeed(seed, stepIndex, static_cast<std::uint64_t>(b));
                // Row ⌊k·n/2⁶⁴⌋: uniform up to a bias of n/2⁶⁴.
                const auto i = static_cast<Eigen::Index>((static_cast<UInt128>(key) * static_cast<std::uint64_t>(n)) >> 64);
                MaskedRow& row = rows[static_cast<std::size_t>(b)];
                if (i == leaveOut) {
                    row.index.clear();
                    row.value.clear();
                    slopes[static_cast<std::size_t>(b)] = 0.0;
                    continue;
                }
                maskRow(X, i, options.keep, key, row);
                double u = 0.0;
                for (std::size_t k = 0; k < row.index.size(); ++k)
                    u += row.value[k] * theta[row.index[k]];
                slopes[static_cast<std::size_t>(b)] = loss.d1(u, y[i]);
            }
            for (int b = 0; b < batch; ++b) {
                const MaskedRow& row = rows[static_cast<std::size_t>(b)];
                const double step = eta * slopes[static_cast<std::size_t>(b)];
                for (std::size_t k = 0; k < row.index.size(); ++k)
                    theta[row.index[k]] -= step * row.value[k];
            }
        }
        if (steps)
            *steps += stepsPerEpoch;
        if (epoch >= firstAveraged) {
            ++averaged;
            average += (theta - average) / averaged;
        }
    }
    return averaged > 0 ? average : theta;
}

} // namespace elab::core
