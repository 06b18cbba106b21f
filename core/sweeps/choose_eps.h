#pragma once
// The smallest ε that meets a required utility (Li et al. Algorithm 1, then refined; docs/MATH.md §4.2).
//
// Step k measures the mean utility F(ε_k) and F′(ε_k) over R repetitions (one training
// each; F′ costs a CG solve, not a training), stops if F̂ − tol ≤ F(ε_k) ≤ F̂ (a loss met
// with little budget to spare), else proposes ε_{k+1} from the estimator's line — first
// order: ε̂ = (F̂ − F)/F′ + ε̄ (Algorithm 1); inverse-eps: linear in 1/ε — safeguarded by
// the bracket of measured ε that do and do not meet the target (geometric midpoint when the
// proposal leaves it). Proposals aim at the band centre F̂ − tol/2. A bisection on log ε over the same measurements is
// the baseline. Utility is a loss (lower is better); objective perturbation (Gaussian) only. Multiclass data
// (SweepData::classes = K) is one-vs-rest with the budget split (one_vs_rest.h): the ε searched for is the whole
// classifier's, each model trained at ε/K.

#include "core/learner/fit_options.h"
#include "core/learner/solver_summary.h"
#include "core/learners/linear_erm/taylor.h"
#include "core/sweeps/utility_sweep.h"

#include <vector>

namespace elab::core {

struct ChooseEpsSpec {
    MechanismSpec mechanism;
    UtilityMetric metric = UtilityMetric::TrainLoss;
    double target = 0.0;                         ///< F̂
    double tolerance = 0.005;                    ///< absolute, in utility units
    double measureAt = 1.0;                      ///< ε̄ of the first step
    Estimator estimator = Estimator::FirstOrder; ///< FirstOrder or InverseEps
    int repeats = 10;
    int maxSteps = 12;
    double epsMin = 1e-3, epsMax = 1e2;
    std::uint64_t seed = 1;
    int threads = 0;
    FitOptions solverOptions; ///< every fit's tolerances and iteration limits

    /// "" if valid; else why. Checks the mechanism too (for the convenience overload).
    std::string validate() const;
    /// The checks that do not depend on the learner.
    std::string validateRun() const;
};

struct ChooseEpsStep {
    double eps = 0.0;
    double measured = 0.0;      ///< mean F over repetitions
    double derivative = 0.0;    ///< mean F′ (NaN for bisection steps)
    double proposed = 0.0;      ///< next ε (NaN on the last step)
    bool meets = false;         ///< measured ≤ target
    int trainings = 0;          ///< cumulative classifier trainings (each K model fits one-vs-rest)
    std::vector<double> values; ///< F per repetition
};

struct ChooseEpsResult {
    std::vector<ChooseEpsStep> steps;     ///< Taylor-guided refinement
    double firstEstimate = 0.0;           ///< Algorithm 1 alone, from the first measuring fit
    std::vector<ChooseEpsStep> bisection; ///< baseline
    double nonPrivate = 0.0;              ///< the best any ε can do (about)
    bool reachable = true;                ///< false if even the non-private model misses the target
    double chosenEps = 0.0;               ///< smallest measured ε that meets the target (NaN if none)
    double bisectionEps = 0.0;
    bool converged = false;
    bool cancelled = false;
    int classes = 0;               ///< K for one-vs-rest, 0 for a binary classifier
    int models = 1;                ///< binary models per classifier
    PrivacyGuarantee guarantee;    ///< at chosenEps (notion empty if none was found)
    SolverSummary solver;          ///< the refinement's fits
    SolverSummary bisectionSolver; ///< the bisection's fits
};

/// The search on the problem's learner (spec.mechanism and spec.metric are not used), which
/// must have Taylor estimates and a loss metric (else std::invalid_argument). The problem's
/// reference fit is reused and kept.
ChooseEpsResult chooseEpsilon(const PreparedProblem& problem, const ChooseEpsSpec& spec, RunContext* ctx = nullptr);
/// The same on a linear ERM problem prepared from spec.mechanism and spec.metric for this call.
ChooseEpsResult chooseEpsilon(const SweepData& data, const ChooseEpsSpec& spec, RunContext* ctx = nullptr);

} // namespace elab::core
