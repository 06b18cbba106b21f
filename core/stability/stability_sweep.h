#pragma once
// The stability study of Jain et al. §5 (issue 5; docs/MATH.md §3.5, §4.4): for each method and
// each removal fraction ρ, train on the training set minus nρ rows (random or adversarial,
// core/stability/removal.h), R repetitions, and measure
//   test error err_r(ρ) (misclassification, or MSE) and marginal error |err_r(ρ) − err(0)|,
// err(0) the method's test error on all the training data (mean over R seeded fits for
// dropout GD, one fit otherwise). Also model stability, ‖θ(D) − θ(D∖{i})‖₂ over sampled
// training rows i (θ without the intercept).
// Parallel across (ρ, repetition, method) tasks (core/util/parallel_grid.h); every random stream comes from
// the seed: removal of (ρ index g, repetition r) from deriveSeed(seed, g, r) — the same rows
// for every method, a paired comparison — and dropout masks from
// deriveSeed(deriveSeed(seed, g, r), 0x6D61736B + method) ("mask"); so results are identical for any thread count.
// A (ρ, method) cell is streamed as soon as its R repetitions are done; cancelling keeps the
// finished cells. Adversarial removal with a deterministic learner (none, L2 with a fixed μ,
// deterministic dropout) removes the same rows in every repetition, so it is fitted once and
// its R values are equal (sd 0).

#include "core/stability/cross_validation.h"
#include "core/stability/removal.h"
#include "core/stability/stability_learner.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace elab::core {

class CellExecutor;

/// Training and test data, referenced (they must outlive the run). Logistic: y = ±1.
struct StabilityData {
    const FeatureMatrix& trainX;
    const Eigen::VectorXd& trainY;
    const FeatureMatrix& testX;
    const Eigen::VectorXd& testY;
};

struct StabilitySpec {
    LearnerOptions learner;
    std::vector<StabilityMethod> methods{StabilityMethod::None, StabilityMethod::L2, StabilityMethod::Dropout,
                                         StabilityMethod::DeterministicDropout};
    RemovalKind removal = RemovalKind::Random;
    std::vector<double> rho; ///< removal fractions in [0, 1), strictly ascending
    int repeats = 20;
    int stabilitySamples = 10; ///< rows i for ‖θ(D) − θ(D∖{i})‖ (0: skip)
    bool cvPerFit = false;     ///< re-tune μ by CV on every reduced set (default: once, on all the data)
    std::uint64_t seed = 1;
    int threads = 0; ///< 0: all cores
    /// Where the removal fits (stage "stability.removal", one cell per (ρ, method, repetition)
    /// task) and the model-stability fits ("stability.model", one per (method, row)) run:
    /// other MPI ranks, a checkpoint (core/scale/cell_stage.h). nullptr: all here. The
    /// baselines (CV and full-data fits) always run here.
    CellExecutor* executor = nullptr;

    std::string validate() const;
};

struct MeanSd {
    double mean = 0.0;
    double sd = 0.0; ///< sample sd (0 if one value)
};

/// Mean and sample sd of values (NaN mean if empty).
MeanSd meanSd(const std::vector<double>& values);

/// One (ρ, method) cell over the R repetitions.
struct StabilityCell {
    std::size_t rhoIndex = 0;
    double rho = 0.0;
    std::size_t methodIndex = 0; ///< into StabilitySpec::methods
    StabilityMethod method = StabilityMethod::None;
    Index removed = 0; ///< rows removed
    MeanSd testError;
    MeanSd marginalError;        ///< of |err_r(ρ) − err(0)| over r
    double meanDifference = 0.0; ///< |mean_r err_r(ρ) − err(0)|, the paper's "difference in mean test error"
    std::vector<double> errors;  ///< err_r(ρ), per repetition
    int separable = 0;           ///< repetitions flagged separable (none, logistic)
    int notConverged = 0;        ///< repetitions whose solver did not converge
};

/// What each method does on all the training data.
struct MethodBaseline {
    StabilityMethod method = StabilityMethod::None;
    MeanSd fullError;       ///< err(0) (over R seeded fits for dropout)
    double trainLoss = 0.0; ///< mean training loss of the (first) full fit
    double thetaNorm = 0.0; ///< ‖θ_full‖₂
    bool separable = false; ///< none, logistic: the training data is linearly separable
    int iterations = 0;
    NewtonCgStatus status = NewtonCgStatus::Converged;
    double mu = 0.0;    ///< L2: the chosen μ
    CrossValidation cv; ///< L2: grid and scores (empty otherwise)
};

/// ‖θ(D) − θ(D∖{i})‖₂ over the sampled rows i (dropout GD: both fits with the same seed).
struct ModelStability {
    StabilityMethod method = StabilityMethod::None;
    int samples = 0;
    MeanSd distance;
    double maxDistance = 0.0;
    double relativeMean = 0.0; ///< mean distance / ‖θ(D)‖₂
};

struct StabilityResult {
    std::vector<double> rho;
    std::vector<StabilityMethod> methods;
    RemovalKind removal = RemovalKind::Random;
    std::vector<MethodBaseline> baselines; ///< per method, spec order
    std::vector<StabilityCell> cells;      ///< complete cells, (ρ, method) order
    std::vector<ModelStability> stability; ///< per method; empty if skipped or cancelled
    bool cancelled = false;
    int fits = 0;                 ///< learner fits (CV folds excluded)
    double secondsBaseline = 0.0; ///< CV and the full-data fits
    double secondsSweep = 0.0;
    double secondsStability = 0.0;
};

/// Called on a worker thread, serialised, when a cell is complete, in any order.
using StabilityCellSink = std::function<void(const StabilityCell&)>;

/// Runs the study. Throws std::invalid_argument if spec.validate() fails or the data does not
/// fit (sizes, labels ±1 for logistic). On cancel (ctx stop token) returns the complete
/// cells with cancelled = true. Thread: any (one call per RunContext).
StabilityResult runStabilitySweep(const StabilityData& data, const StabilitySpec& spec, RunContext* ctx = nullptr,
                                  const StabilityCellSink& sink = {});

} // namespace elab::core
