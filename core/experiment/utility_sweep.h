#pragma once
// The ε-sweep (issue 3): measured utility over an ε grid × R repetitions, and the Taylor
// estimates from measuring points. Parallel across repetitions (oneTBB), warm-started
// along ε within a repetition; repetition r draws its noise from deriveSeed(seed, r), so
// the numbers are identical for any thread count. Grid points are streamed as soon as all
// repetitions have reached them.

#include "core/estimation/taylor.h"
#include "core/experiment/utility_metric.h"
#include "core/privacy/mechanism.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace elab::core {

struct UtilitySweepSpec {
    MechanismSpec mechanism;
    std::vector<double> grid;      ///< ε values, > 0, strictly ascending
    int repeats = 10;
    UtilityMetric metric = UtilityMetric::TrainLoss;
    std::vector<double> measureAt; ///< measuring points ε̄ (objpert-gauss and a loss metric only)
    std::vector<Estimator> estimators{Estimator::FirstOrder};
    std::uint64_t seed = 1;
    int threads = 0;               ///< 0: all cores

    std::string validate() const;
};

/// Training data and, for test metrics, a test set. Referenced, not copied.
struct SweepData {
    const FeatureMatrix& trainX;
    const Eigen::VectorXd& trainY;
    const FeatureMatrix* testX = nullptr;
    const Eigen::VectorXd* testY = nullptr;
};

struct SweepPoint {
    Eigen::Index gridIndex = 0;
    double eps = 0.0;
    double mean = 0.0;
    double sd = 0.0;              ///< sample sd over repetitions (0 if R = 1)
    std::vector<double> values;   ///< per repetition
};

struct EstimateCurve {
    double measureAt = 0.0;
    Estimator estimator = Estimator::FirstOrder;
    std::vector<double> values;   ///< mean over repetitions of the per-repetition estimates, per grid ε
    double meanAbsError = 0.0;    ///< mean over the grid of |estimate − measured mean| (Li et al. Table 2)
    double measuredValue = 0.0;   ///< mean F(ε̄) over repetitions
    double derivative = 0.0;      ///< mean F′(ε̄) over repetitions
};

/// The measuring fits at one ε̄, per repetition: enough to evaluate every estimator at any ε
/// in microseconds (the live view's estimate while the slider moves).
struct MeasuringFit {
    double measureAt = 0.0;
    std::vector<TaylorPoint> points;   ///< per repetition
    std::vector<TaylorAnchor> anchors; ///< per repetition; empty unless Anchored was asked for
};

/// Mean over repetitions of the estimator's value at eps (eps = +∞: the non-private limit).
/// Anchored needs anchors; NaN if they are missing.
double meanEstimate(const MeasuringFit& fit, Estimator estimator, double eps);

struct UtilitySweepResult {
    std::vector<double> grid;
    std::vector<SweepPoint> points;  ///< in grid order; complete only if !cancelled
    double nonPrivate = 0.0;         ///< utility of the non-private Λ-regularised model
    std::vector<EstimateCurve> estimates;
    std::vector<MeasuringFit> measuring; ///< one per measuring point, in spec order
    PrivacyGuarantee guaranteeAtMax; ///< the guarantee at the largest grid ε (its wording)
    bool cancelled = false;
    int fits = 0;
    double secondsMeasured = 0.0;    ///< wall time of the grid fits
    double secondsEstimates = 0.0;   ///< wall time of measuring fits + derivatives
};

/// Called on a worker thread whenever a grid point is complete (all repetitions), in any order.
using SweepPointSink = std::function<void(const SweepPoint&)>;

/// Runs the sweep. Throws std::invalid_argument if spec.validate() fails. On cancel
/// (ctx stop token) returns what finished with cancelled = true.
UtilitySweepResult runUtilitySweep(const SweepData& data, const UtilitySweepSpec& spec,
                                   RunContext* ctx = nullptr, const SweepPointSink& sink = {});

/// "A:B:K" → K log-spaced points from A to B; "a,b,c" → that list (sorted). Throws
/// std::invalid_argument with the reason.
std::vector<double> parseEpsGrid(const std::string& text);

} // namespace elab::core
