#pragma once
// k-fold cross-validation of the L2 weight μ (mean form: J = L + (μ/2)‖θ‖², so μ = Λ/n of
// Li et al.'s eq. 1). Jain et al. §5 tune L2 "by cross-validation" without details; this is
// the textbook rule (Hastie, Tibshirani & Friedman §7.10): folds of a seeded permutation
// (row at permuted position k goes to fold k mod K), score = mean over folds of the
// validation error (misclassification rate, or MSE), the smallest score wins, ties broken
// by the smaller mean validation loss (logistic loss; for MSE they coincide), then by the
// larger μ (the simpler model).

#include "core/stability/stability_learner.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace elab::core {

struct CrossValidation {
    std::vector<double> grid;   ///< μ candidates, as given
    std::vector<double> scores; ///< mean validation error per candidate
    std::vector<double> losses; ///< mean validation loss per candidate
    double chosen = 0.0;        ///< the winning μ
    int folds = 0;
};

/// Fold of each row: a permutation from Rng(deriveSeed(seed, "cvfolds")), position mod K.
std::vector<int> crossValidationFolds(Eigen::Index rows, int folds, std::uint64_t seed);

/// Chooses μ from options.l2Grid by options.cvFolds-fold CV of the L2 learner on (X, y).
/// Each fold's fits are warm-started along the grid from the largest μ down. On stop it
/// returns early (chosen from the folds done; chosen = 0 if none). The folds run as parallel
/// tasks (TBB, in the caller's arena); their scores are summed in fold order, so the result
/// does not depend on the thread count. gram: rowGram(X), optional (computed if needed).
/// Thread: any.
CrossValidation chooseL2ByCrossValidation(const FeatureMatrix& X, const Eigen::VectorXd& y,
                                          const LearnerOptions& options, std::uint64_t seed, std::stop_token stop = {},
                                          const Eigen::MatrixXd* gram = nullptr);

} // namespace elab::core
