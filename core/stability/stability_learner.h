#pragma once
// The four learners of the stability study (Jain et al. §5; docs/MATH.md §3.5, §4.4), for
// logistic regression (labels ±1) and linear regression (squared loss, real targets), in
// the engine's mean form J(θ) = (1/n) Σ ℓ(θᵀx_i + b, y_i) + penalty:
// - None: μ = 0. Logistic regression on linearly separable data has no finite minimiser;
//   the Newton iterates grow without bound while the training loss → 0. The fit is stopped
//   once every training margin y_i p_i is > 0 (a separating θ: the certificate) and the mean
//   training loss is ≤ separableLoss, and flagged separable.
// - L2: μ/2‖θ‖², μ chosen by k-fold cross-validation (core/stability/cross_validation.h).
// - Dropout: dropout gradient descent, Algorithm 1 (core/stability/dropout_gd.h).
// - DeterministicDropout: the Gaussian (Wang & Manning) objective of dropout_objective.h.
//   With many more features than rows (text) the training data is separable by directions
//   whose dropout variance is small relative to the margin, and the objective decreases
//   towards 0 as θ grows (its minimiser, if any, lies where the Gaussian tail beyond the
//   quadrature's last node matters): the same stop and flag as for None apply to logistic
//   regression, and these fits start from 0.
// An intercept b (linear regression, dense data) is fitted by centring X and y over the
// fit's own training rows: b = ȳ − x̄ᵀθ, never penalised and never dropped.

#include "core/data/feature_matrix.h"
#include "core/model/loss.h"
#include "core/optim/newton_cg.h"
#include "core/util/option_names.h"

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

namespace elab::core {

enum class StabilityModel { Logistic, Linear };
enum class StabilityMethod { None, L2, Dropout, DeterministicDropout };

const char* toString(StabilityModel model);
const OptionNames<StabilityModel>& stabilityModelNames(); ///< the names toString / stabilityModelFromString use
const char* toString(StabilityMethod method);
const OptionNames<StabilityMethod>& stabilityMethodNames(); ///< the names toString / stabilityMethodFromString use
/// "logistic" | "linear"; throws std::invalid_argument otherwise.
StabilityModel stabilityModelFromString(const std::string& name);
/// "none" | "l2" | "dropout" | "deterministic-dropout"; throws std::invalid_argument otherwise.
StabilityMethod stabilityMethodFromString(const std::string& name);
/// Logistic for Logistic, Squared for Linear.
Loss lossOf(StabilityModel model);

struct LinearModel {
    Eigen::VectorXd theta;
    double intercept = 0.0;
};

struct LearnerOptions {
    StabilityModel model = StabilityModel::Logistic;
    double keep = 0.5;         ///< q, the keep probability (dropout rate 1 − q), in (0, 1]
    bool fitIntercept = false; ///< linear regression on dense data only (by centring)
    std::vector<double> l2Grid{1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0}; ///< μ candidates
    int cvFolds = 5;
    int epochs = 30;             ///< dropout GD passes (n/B steps each)
    int batchSize = 1;           ///< dropout GD minibatch B
    double stepSize = 0.0;       ///< dropout GD η₀; 0: automatic, 1/L̂ (see dropout_gd.h)
    int hermiteNodes = 24;       ///< deterministic dropout, logistic
    double separableLoss = 1e-3; ///< unregularised logistic: stop level of the training loss
    NewtonCgOptions solver{1e-10, 1e-8, 100, 500};

    std::string validate() const;
};

struct LearnerFit {
    LinearModel model;
    NewtonCgStatus status = NewtonCgStatus::Converged; ///< Converged for dropout GD
    int iterations = 0;                                ///< Newton iterations, or dropout GD steps
    bool separable = false; ///< logistic, none / deterministic dropout: stopped by the separable rule
    double trainLoss = 0.0; ///< mean ℓ on the training rows (no penalty, no dropout)
};

/// Fits method on (X, y), or on (X, y) without row leaveOut (≥ 0; dropout GD: the coupled
/// run of dropout_gd.h). mu: the L2 weight (L2 only). seed: dropout GD's streams (rows and
/// masks). warm: starting θ for L2 and linear deterministic dropout (the learners with the
/// separable stop start at 0 so that the stop means the same for every fit).
/// Thread: any; X, y are read only.
/// rowGram: XXᵀ of these rows (rowGram(X)), optional; L2 on sparse data with more features
/// than rows uses it for the exact dual (Woodbury) preconditioner and computes it if null.
LearnerFit fitLearner(StabilityMethod method, const FeatureMatrix& X, const Eigen::VectorXd& y,
                      const LearnerOptions& options, double mu, std::uint64_t seed, const LinearModel* warm = nullptr,
                      std::stop_token stop = {}, Index leaveOut = -1, const Eigen::MatrixXd* rowGram = nullptr);

/// Whether L2 fits on X use the dual preconditioner (sparse, more columns than rows).
bool usesRowGram(const FeatureMatrix& X);
/// G = XXᵀ (n × n, dense). Entry (i, k) depends on rows i and k only, so the Gram of a row
/// subset is the submatrix: selectGram.
Eigen::MatrixXd rowGram(const FeatureMatrix& X);
/// G(rows, rows).
Eigen::MatrixXd selectGram(const Eigen::MatrixXd& gram, const std::vector<Index>& rows);

/// Scores p = Xθ + b.
Eigen::VectorXd predict(const LinearModel& model, const FeatureMatrix& X);
/// Logistic: the misclassification rate, counting y·p ≤ 0 as an error. Linear: the mean
/// squared error (1/n) Σ (p_i − y_i)².
double predictionError(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y);
/// Mean loss (1/n) Σ ℓ(p_i, y_i): logistic loss, or the squared error.
double meanLoss(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y);

} // namespace elab::core
