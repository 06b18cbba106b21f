#include "core/stability/dropout_gd.h"

#include "core/util/random.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

namespace elab::core {

namespace {

// One row's kept entries (j, x_ij b_ij / q): the dropped-out row, scaled.
struct MaskedRow {
    std::vector<Eigen::Index> index;
    std::vector<double> value;
};

// Fills out with row i's kept entries and returns Σ_k value_k θ_{index_k} (accumulated in
// the order of the row, as the separate dot product did).
double maskRow(const FeatureMatrix& X, Eigen::Index i, double keep, std::uint64_t key, const Eigen::VectorXd& theta,
               MaskedRow& out) {
    const double scale = 1.0 / keep;
    const auto threshold = static_cast<std::uint64_t>(keep * 0x1.0p53);
    const bool all = keep >= 1.0;
    const double* th = theta.data();
    double u = 0.0;
    if (X.isSparse()) {
        const SparseMatrix& S = X.sparse();
        const int begin = S.outerIndexPtr()[i], end = S.outerIndexPtr()[i + 1];
        const int* inner = S.innerIndexPtr();
        const double* values = S.valuePtr();
        out.index.resize(static_cast<std::size_t>(end - begin));
        out.value.resize(static_cast<std::size_t>(end - begin));
        Eigen::Index* idx = out.index.data();
        double* val = out.value.data();
        std::size_t count = 0;
        // Branch-free compaction (the keep test is a coin flip the predictor cannot learn):
        // every entry is written at slot count, which advances only for kept ones. Adding +0.0
        // for a dropped entry leaves u unchanged (u starts at +0.0, so it is never −0.0).
        for (int k = begin; k < end; ++k) {
            const Eigen::Index j = inner[k];
            const std::uint64_t bits =
                splitMix64(key ^ (static_cast<std::uint64_t>(j + 1) * 0x9E3779B97F4A7C15ULL)) >> 11;
            const auto kept = static_cast<std::uint64_t>(all) | static_cast<std::uint64_t>(bits < threshold);
            const double v = values[k] * scale;
            idx[count] = j;
            val[count] = v;
            // term or +0.0 by masking its bits (the compiler turns a ?: here into a branch).
            u += std::bit_cast<double>(std::bit_cast<std::uint64_t>(v * th[j]) & (0 - kept));
            count += static_cast<std::size_t>(kept);
        }
        out.index.resize(count);
        out.value.resize(count);
        return u;
    }
    out.index.clear();
    out.value.clear();
    const DenseMatrix& D = X.dense();
    for (Eigen::Index j = 0; j < D.cols(); ++j)
        if (D(i, j) != 0.0) {
            const std::uint64_t bits =
                splitMix64(key ^ (static_cast<std::uint64_t>(j + 1) * 0x9E3779B97F4A7C15ULL)) >> 11;
            if (all || bits < threshold) {
                out.index.push_back(j);
                out.value.push_back(D(i, j) * scale);
                u += out.value.back() * th[j];
            }
        }
    return u;
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
                const auto i =
                    static_cast<Eigen::Index>((static_cast<UInt128>(key) * static_cast<std::uint64_t>(n)) >> 64);
                MaskedRow& row = rows[static_cast<std::size_t>(b)];
                if (i == leaveOut) {
                    row.index.clear();
                    row.value.clear();
                    slopes[static_cast<std::size_t>(b)] = 0.0;
                    continue;
                }
                const double u = maskRow(X, i, options.keep, key, theta, row);
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
