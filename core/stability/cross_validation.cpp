#include "core/stability/cross_validation.h"

#include "core/util/random.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

namespace elab::core {

std::vector<int> crossValidationFolds(Eigen::Index rows, int folds, std::uint64_t seed) {
    std::vector<Index> order(static_cast<std::size_t>(rows));
    std::iota(order.begin(), order.end(), Index(0));
    Rng rng(deriveSeed(seed, 0x6376666F6C6473ULL)); // "cvfolds"
    shuffleInPlace(order, rng);
    std::vector<int> fold(static_cast<std::size_t>(rows));
    for (std::size_t k = 0; k < order.size(); ++k)
        fold[static_cast<std::size_t>(order[k])] = static_cast<int>(k % static_cast<std::size_t>(folds));
    return fold;
}

CrossValidation chooseL2ByCrossValidation(const FeatureMatrix& X, const Eigen::VectorXd& y,
                                          const LearnerOptions& options, std::uint64_t seed, std::stop_token stop,
                                          const Eigen::MatrixXd* gram) {
    CrossValidation cv;
    cv.grid = options.l2Grid;
    cv.folds = options.cvFolds;
    const std::size_t G = cv.grid.size();
    cv.scores.assign(G, 0.0);
    cv.losses.assign(G, 0.0);
    const std::vector<int> fold = crossValidationFolds(X.rows(), options.cvFolds, seed);
    std::vector<std::size_t> descending(G);
    std::iota(descending.begin(), descending.end(), std::size_t(0));
    std::stable_sort(descending.begin(), descending.end(),
                     [&](std::size_t a, std::size_t b) { return cv.grid[a] > cv.grid[b]; });
    Eigen::MatrixXd ownGram;
    if (usesRowGram(X) && !(gram && gram->rows() == X.rows())) {
        ownGram = rowGram(X);
        gram = &ownGram;
    } else if (!usesRowGram(X)) {
        gram = nullptr;
    }
    const auto F = static_cast<std::size_t>(options.cvFolds);
    std::vector<std::vector<double>> foldScores(F, std::vector<double>(G, 0.0)), foldLosses = foldScores;
    std::vector<char> ran(F, 0);
    tbb::parallel_for(std::size_t(0), F, [&](std::size_t fi) {
        if (stop.stop_requested())
            return;
        const int f = static_cast<int>(fi);
        std::vector<Index> trainRows, validRows;
        for (std::size_t i = 0; i < fold.size(); ++i)
            (fold[i] == f ? validRows : trainRows).push_back(static_cast<Index>(i));
        const FeatureMatrix trainX = X.selectRows(trainRows), validX = X.selectRows(validRows);
        Eigen::VectorXd trainY(static_cast<Index>(trainRows.size())), validY(static_cast<Index>(validRows.size()));
        for (std::size_t k = 0; k < trainRows.size(); ++k)
            trainY[static_cast<Index>(k)] = y[trainRows[k]];
        for (std::size_t k = 0; k < validRows.size(); ++k)
            validY[static_cast<Index>(k)] = y[validRows[k]];
        const Eigen::MatrixXd trainGram = gram ? selectGram(*gram, trainRows) : Eigen::MatrixXd();
        LinearModel warm;
        for (std::size_t g : descending) {
            const LearnerFit fit =
                fitLearner(StabilityMethod::L2, trainX, trainY, options, cv.grid[g], 0,
                           warm.theta.size() > 0 ? &warm : nullptr, stop, -1, gram ? &trainGram : nullptr);
            warm = fit.model;
            foldScores[fi][g] = predictionError(options.model, fit.model, validX, validY);
            foldLosses[fi][g] = meanLoss(options.model, fit.model, validX, validY);
        }
        ran[fi] = 1;
    });
    int foldsDone = 0;
    for (std::size_t fi = 0; fi < F; ++fi) // in fold order, as the sequential loop summed
        if (ran[fi]) {
            for (std::size_t g = 0; g < G; ++g) {
                cv.scores[g] += foldScores[fi][g];
                cv.losses[g] += foldLosses[fi][g];
            }
            ++foldsDone;
        }
    if (foldsDone == 0)
        return cv;
    for (std::size_t g = 0; g < G; ++g) {
        cv.scores[g] /= foldsDone;
        cv.losses[g] /= foldsDone;
    }
    std::size_t best = descending.front();
    for (std::size_t g : descending) { // largest μ first: strict improvements only
        const double tol = 1e-12;
        if (cv.scores[g] < cv.scores[best] - tol ||
            (std::abs(cv.scores[g] - cv.scores[best]) <= tol && cv.losses[g] < cv.losses[best] - tol))
            best = g;
    }
    cv.chosen = cv.grid[best];
    return cv;
}

} // namespace elab::core
