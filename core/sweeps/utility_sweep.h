#pragma once
// The ε-sweep (issue 3): measured utility over an ε grid × R repetitions, and the Taylor
// estimates from measuring points, for any private learner (core/learner/private_learner.h). Parallel across
// repetitions (oneTBB), warm-started along ε within a repetition; repetition r draws its noise from deriveSeed(seed,
// r), so the numbers are identical for any thread count. Grid points are streamed as soon as all repetitions have
// reached them. Multiclass data (SweepData::classes = K) is classified one-vs-rest with the budget split across the K
// models (core/learners/linear_erm/one_vs_rest.h): every "fit" of a repetition at ε is then K fits at ε/K, model k of
// repetition r with noise from deriveSeed(seed, r, k).

#include "core/learner/fit_options.h"
#include "core/learner/mechanism.h"
#include "core/learner/solver_summary.h"
#include "core/learner/sweep_data.h"
#include "core/learner/utility_metric.h"
#include "core/learners/linear_erm/taylor.h"
#include "core/util/run_context.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace elab::core {

class CellExecutor;
class PreparedProblem;

struct UtilitySweepSpec {
    MechanismSpec mechanism;
    /// ε values, > 0, strictly ascending; empty with measuring points: the Taylor fits alone
    /// (no measured grid, so no estimate errors: EstimateCurve::meanAbsError is NaN).
    std::vector<double> grid;
    int repeats = 10;
    UtilityMetric metric = UtilityMetric::TrainLoss;
    std::vector<double> measureAt; ///< measuring points ε̄ (objpert-gauss and a loss metric only)
    std::vector<Estimator> estimators{Estimator::FirstOrder};
    std::uint64_t seed = 1;
    int threads = 0;          ///< 0: all cores
    FitOptions solverOptions; ///< every fit's tolerances and iteration limits
    /// Fit the non-private reference (ε = ∞) for UtilitySweepResult::nonPrivate. Needed anyway
    /// (and then fitted regardless) for measuring points, which warm-start from it; a single
    /// slider probe or `--no-reference` skips it.
    bool reference = true;
    /// Where the repetitions (the cells of stage "utility") run: other MPI ranks, a checkpoint
    /// (core/scale/cell_stage.h). nullptr: all here. The measuring fits always run here.
    CellExecutor* executor = nullptr;

    /// "" if valid; else why. Checks the mechanism too (the convenience overload of
    /// runUtilitySweep builds its learner from it).
    std::string validate() const;
    /// The checks that do not depend on the learner (grid, repeats, threads, solver, ε̄ values).
    std::string validateRun() const;
};

struct SweepPoint {
    Eigen::Index gridIndex = 0;
    double eps = 0.0;
    double mean = 0.0;
    double sd = 0.0;            ///< sample sd over repetitions (0 if R = 1)
    std::vector<double> values; ///< per repetition
};

struct EstimateCurve {
    double measureAt = 0.0;
    Estimator estimator = Estimator::FirstOrder;
    std::vector<double> values; ///< mean over repetitions of the per-repetition estimates, per grid ε
    double meanAbsError = 0.0;  ///< mean over the grid of |estimate − measured mean| (Li et al. Table 2)
    double measuredValue = 0.0; ///< mean F(ε̄) over repetitions
    double derivative = 0.0;    ///< mean F′(ε̄) over repetitions
};

/// The measuring fits at one ε̄, per repetition: enough to evaluate every estimator at any ε
/// in microseconds (the live view's estimate while the slider moves).
/// One-vs-rest (models = K > 1): points and anchors are the whole classifier's (F, F′, F″ in
/// the classifier's ε, by the chain rule of one_vs_rest.h), and modelPoints / modelAnchors
/// hold each model's own, at ε̄/K; points[r].thetaD1 stacks the models' dθ_k/dε in class order.
struct MeasuringFit {
    double measureAt = 0.0;
    std::vector<TaylorPoint> points;                     ///< per repetition
    std::vector<TaylorAnchor> anchors;                   ///< per repetition; empty unless Anchored was asked for
    int models = 1;                                      ///< K one-vs-rest models (1: a binary classifier)
    std::vector<std::vector<TaylorPoint>> modelPoints;   ///< [repetition][model]; empty if models = 1
    std::vector<std::vector<TaylorAnchor>> modelAnchors; ///< [repetition][model]; empty unless Anchored and models > 1
    /// The loss of the non-private model (NaN: unknown): the level the estimates approach as ε grows.
    /// A mechanism that adds noise does not do better in expectation; an estimate past this level is
    /// its line extrapolated outside its model, so meanEstimate holds it there.
    double nonPrivate = NAN;
    /// The variance estimator's expansion of each model around the non-private fit (MATH.md §4.7), the
    /// same for every measuring point (it reads none of them); null unless Variance was asked for.
    std::shared_ptr<const std::vector<NoiseExpansion>> expansions;
};

/// Mean over repetitions of the estimator's value at eps (eps = +∞: the non-private limit), held
/// at fit.nonPrivate when it passes it (estimates exist for losses only: never below it).
/// One-vs-rest: (1/R) Σ_r (1/K) Σ_k F̂_k(eps/K), each model's estimator at eps/K.
/// Anchored needs anchors and Variance its expansions; NaN if they are missing. Thread: any (reads fit only).
double meanEstimate(const MeasuringFit& fit, Estimator estimator, double eps);
/// The same, not held at the non-private level: the estimator's own line (to see where it passes it).
double unboundedEstimate(const MeasuringFit& fit, Estimator estimator, double eps);

struct UtilitySweepResult {
    std::vector<double> grid;
    std::vector<SweepPoint> points; ///< in grid order; complete only if !cancelled
    double nonPrivate = NAN;        ///< utility of the non-private Λ-regularised model (NaN: not fitted)
    std::vector<EstimateCurve> estimates;
    std::vector<MeasuringFit> measuring;      ///< one per measuring point, in spec order
    PrivacyGuarantee guaranteeAtMax;          ///< the guarantee at the largest grid ε (its wording)
    std::vector<PrivacyGuarantee> guarantees; ///< per grid ε, in grid order: branch and constants used there
    /// Per grid ε: the theory's upper bound on the expected training loss (MATH.md §4.5); empty when
    /// the learner has none or no reference was fitted. Whatever the metric, it bounds the training loss.
    std::vector<double> trainLossBound;
    bool cancelled = false;
    int fits = 0;                  ///< grid trainings of single models (K per grid point and repetition one-vs-rest)
    int classes = 0;               ///< K for one-vs-rest, 0 for a binary classifier
    int models = 1;                ///< binary models per classifier: K, or 1
    SolverSummary solver;          ///< the grid fits, in (grid, repetition, model) order
    SolverSummary measuringSolver; ///< the non-private reference (ε = +∞) and the measuring fits
    double secondsMeasured = 0.0;  ///< wall time of the grid fits
    double secondsEstimates = 0.0; ///< wall time of measuring fits + derivatives
};

/// Called on a worker thread whenever a grid point is complete (all repetitions), in any order.
using SweepPointSink = std::function<void(const SweepPoint&)>;

/// Runs the sweep of the problem's learner (spec.mechanism and spec.metric are not used: the
/// learner has its own). Parallel over repetitions by core/util/parallel_grid.h. Throws
/// std::invalid_argument if spec.validateRun() fails, or measuring points are asked of a learner
/// without Taylor estimates or with an accuracy metric. On cancel (ctx stop token) returns what
/// finished with cancelled = true. The problem's reference fit is reused (and kept) across calls.
UtilitySweepResult runUtilitySweep(const PreparedProblem& problem, const UtilitySweepSpec& spec,
                                   RunContext* ctx = nullptr, const SweepPointSink& sink = {});
/// The same on a linear ERM problem prepared from spec.mechanism and spec.metric for this call
/// alone. Throws std::invalid_argument if spec.validate() fails or the labels do not fit the
/// loss (see OneVsRest).
UtilitySweepResult runUtilitySweep(const SweepData& data, const UtilitySweepSpec& spec, RunContext* ctx = nullptr,
                                   const SweepPointSink& sink = {});

/// "A:B:K" → K log-spaced points from A to B; "a,b,c" → that list (sorted). Throws
/// std::invalid_argument with the reason.
std::vector<double> parseEpsGrid(const std::string& text);

} // namespace elab::core
