#include "core/learner/prediction.h"

#include "core/model/linear_objective.h"
#include "core/model/sparse_rows.h"

#include <cmath>

namespace elab::core {

Eigen::VectorXd linearScores(const FeatureMatrix& X, const Eigen::VectorXd& theta, double intercept) {
    Eigen::VectorXd s;
    multiply(X, theta, s);
    if (intercept != 0.0)
        s.array() += intercept;
    return s;
}

Eigen::MatrixXd linearScores(const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas) {
    Eigen::MatrixXd s(X.rows(), static_cast<Index>(thetas.size()));
    for (std::size_t k = 0; k < thetas.size(); ++k)
        s.col(static_cast<Index>(k)) = linearScores(X, thetas[k]);
    return s;
}

namespace {

// visit(begin, S) for consecutive blocks of rows, S holding the block's scores x_iᵀθ_k (one
// column per model), each the value linearScores gives (the same row kernel on the same rows).
template <class Visit>
void forEachScoreBlock(const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas, Visit&& visit) {
    const auto K = static_cast<Index>(thetas.size());
    Eigen::MatrixXd S;
    if (!X.isSparse()) {
        X.denseRows().forEachBlock([&](Index begin, const auto& rows) {
            S.resize(rows.rows(), K);
            for (Index k = 0; k < K; ++k)
                S.col(k).noalias() = rows * thetas[static_cast<std::size_t>(k)];
            visit(begin, S);
        });
        return;
    }
    constexpr Index kBlockRows = 4096;
    const CsrRows all = X.csrRows();
    Eigen::VectorXd s;
    for (Index begin = 0; begin < all.n; begin += kBlockRows) {
        const CsrRows rows = all.slice(begin, std::min(kBlockRows, all.n - begin));
        S.resize(rows.n, K);
        for (Index k = 0; k < K; ++k) {
            sparseRowDots(rows, nullptr, thetas[static_cast<std::size_t>(k)], s);
            S.col(k) = s;
        }
        visit(begin, S);
    }
}

// Rows whose scores classify them correctly (see correctCount); label(i): row i's label.
template <class Label>
Index countCorrect(const Eigen::MatrixXd& scores, Label&& label) {
    const Index n = scores.rows(), K = scores.cols();
    Index correct = 0;
    if (K == 1) {
        for (Index i = 0; i < n; ++i)
            correct += (scores(i, 0) * label(i) > 0.0) ? 1 : 0;
        return correct;
    }
    for (Index i = 0; i < n; ++i) {
        const auto c = static_cast<Index>(label(i));
        bool strictlyLargest = true;
        for (Index k = 0; k < K && strictlyLargest; ++k)
            strictlyLargest = k == c || scores(i, k) < scores(i, c);
        correct += strictlyLargest ? 1 : 0;
    }
    return correct;
}

} // namespace

double accuracyOfLinearModels(const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas, Labels labels) {
    Index correct = 0;
    forEachScoreBlock(X, thetas, [&](Index begin, const Eigen::MatrixXd& S) {
        correct += countCorrect(S, [&](Index i) { return labels[begin + i]; });
    });
    const Index n = X.rows();
    return n > 0 ? static_cast<double>(correct) / static_cast<double>(n) : NAN;
}

double meanLossOfLinearModels(const Loss& loss, const FeatureMatrix& X, const std::vector<Eigen::VectorXd>& thetas,
                              Labels labels) {
    const Index n = X.rows();
    const auto K = static_cast<Index>(thetas.size());
    if (n == 0)
        return NAN;
    // Per model, Σ_i in row order across the blocks: meanLossOf's sums.
    std::vector<double> sums(static_cast<std::size_t>(K), 0.0);
    forEachScoreBlock(X, thetas, [&](Index begin, const Eigen::MatrixXd& S) {
        for (Index k = 0; k < K; ++k) {
            double& sum = sums[static_cast<std::size_t>(k)];
            for (Index r = 0; r < S.rows(); ++r) {
                const double y = labels[begin + r];
                sum += loss.value(S(r, k), K == 1 ? y : (static_cast<Index>(y) == k ? 1.0 : -1.0));
            }
        }
    });
    if (K == 1)
        return sums[0] / static_cast<double>(n);
    double total = 0.0;
    for (double sum : sums)
        total += sum / static_cast<double>(n);
    return total / static_cast<double>(K);
}

Index correctCount(const Eigen::MatrixXd& scores, Labels labels) {
    return countCorrect(scores, [&labels](Index i) { return labels[i]; });
}

double accuracyOf(const Eigen::MatrixXd& scores, Labels labels) {
    const Index n = scores.rows();
    return n > 0 ? static_cast<double>(correctCount(scores, labels)) / static_cast<double>(n) : NAN;
}

double errorRateOf(const Eigen::MatrixXd& scores, Labels labels) {
    const Index n = scores.rows();
    return n > 0 ? static_cast<double>(n - correctCount(scores, labels)) / static_cast<double>(n) : NAN;
}

double meanLossOf(const Loss& loss, const Eigen::MatrixXd& scores, Labels labels) {
    const Index n = scores.rows(), K = scores.cols();
    if (n == 0)
        return NAN;
    if (K == 1) {
        double sum = 0.0;
        for (Index i = 0; i < n; ++i)
            sum += loss.value(scores(i, 0), labels[i]);
        return sum / static_cast<double>(n);
    }
    double total = 0.0;
    for (Index k = 0; k < K; ++k) {
        double sum = 0.0;
        for (Index i = 0; i < n; ++i)
            sum += loss.value(scores(i, k), static_cast<Index>(labels[i]) == k ? 1.0 : -1.0);
        total += sum / static_cast<double>(n);
    }
    return total / static_cast<double>(K);
}

double meanSquaredErrorOf(const Eigen::MatrixXd& scores, const Eigen::VectorXd& targets) {
    const Index n = scores.rows();
    const Eigen::VectorXd s = scores.col(0); // a plain vector: the same reduction as before issue 10
    return n > 0 ? (s - targets).squaredNorm() / static_cast<double>(n) : NAN;
}

} // namespace elab::core
