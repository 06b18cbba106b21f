#pragma once
// The white-box audit of DP-SGD with gradient canaries (Nasr et al. 2021, 2023; docs/audit.md
// "White-box DP-SGD audit", docs/MATH.md §5.2). The real trainer (core/learners/dpsgd/
// sgd_trainer.h) runs with its audit hook: extra examples whose gradient is one parameter
// coordinate (a Dirac, clipped by the trainer's own rule to C), each in every step's batch with
// the rows' probability q, and a view of every step's noisy clipped sum G — equivalently of every
// iterate, since θ_{t+1} = (1 − ηλ)θ_t − (η/S)G_t.
//
// The coordinates: the weights that multiply a feature which is 0 in every training row (the
// first layer's H weights of such a feature, or the K output weights of a hidden = 0 model). The
// rows' gradient there is exactly 0, the weight changes no row's output, so G_t there is the
// canary's clipped gradient (when sampled) plus the step's N(0, σ²C²) noise, nothing else.
//
// Adjacency as claimed: add/remove (N declared public) — a canary is in or absent; replace-one —
// each coordinate holds a slot example, +C·e_j when in and −C·e_j when out, so that in and out
// differ by one replaced example (the pair the replace-one accountant bounds). Each run puts
// half the coordinates in and half out (alternating with the run), so every run gives trials of
// both kinds. The score of a coordinate in a run is the log-likelihood ratio of its T observations
// o_t = G_t/C under the claimed σ: Σ_t log p_in(o_t)/p_out(o_t) with p_in = (1 − q)N(0, s²) +
// qN(1, s²), p_out = N(0, s²) (add/remove) or (1 − q)N(0, s²) + qN(−1, s²) (replace-one),
// s = σ·sensitivity/C. auditBound (Clopper–Pearson, threshold on the first half) turns the out
// and in scores into ε_LB.
//
// Why the trials are independent and identically distributed: a coordinate's observations are
// (its canary's Poisson coins)·C + (its own noise coordinate), and both are independent across
// coordinates, steps and runs (one uniform per canary per step from the canary stream; the
// trainer's noise is a fresh standard normal per parameter and step), while the rows add exactly
// 0 there whatever the trajectory. Each trial is therefore the post-processing of a DP-SGD run on
// neighbouring example sets (the other canaries fixed), and its distribution does not depend on
// the other coordinates.
//
// Deterministic for a seed for any thread count: run r trains with the streams (seed', r).

#include "core/audit/audit_bound.h"
#include "core/learner/mechanism.h"
#include "core/learner/sweep_data.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace elab::core {

/// What the auditor observes of each step.
enum class WhiteboxView {
    /// The noisy sum G_t at the weights of features that are 0 in every training row: what the
    /// released iterates show, the rows adding exactly 0 there.
    Iterates,
    /// G_t minus the sampled rows' clipped sum, at every weight of every layer: an auditor who
    /// also knows the batch. DP-SGD's proof covers this view (each step is the subsampled
    /// Gaussian mechanism of the one example, every other example's contribution given), and it
    /// has a trial per weight instead of per weight of an unused feature.
    Residual
};

const char* toString(WhiteboxView view); ///< "iterates", "residual"

struct WhiteboxAuditSpec {
    MechanismSpec mechanism; ///< DP-SGD
    double eps = 1.0;        ///< the claimed ε (DP-SGD's guarantee at this ε is audited)
    int runs = 200;          ///< trainings (≥ 2), each with every canary coordinate
    double alpha = 0.05;     ///< ε_LB holds with confidence 1 − α
    std::uint64_t seed = 1;
    int threads = 0;     ///< runs in parallel (each training on one thread)
    int maxCanaries = 0; ///< canary coordinates per run (0: every one found; rounded down to even)
    WhiteboxView view = WhiteboxView::Iterates;
    /// Test-only broken trainers (1 in every real audit): σ ÷ noiseDivisor; clipMultiplier: the
    /// trainer clips at m·C and draws noise σ/m·(m·C) = σC, i.e. its noise assumes 1/m of the
    /// true sensitivity.
    double noiseDivisor = 1.0;
    double clipMultiplier = 1.0;

    std::string validate() const;
};

struct WhiteboxCanary {
    int layer = 0;     ///< 0: the first layer (the hidden one, or the output of a linear model)
    Index unit = 0;    ///< the row of W: the hidden unit or class
    Index feature = 0; ///< the column of W: its input (a feature 0 in every training row, for Iterates)
};

struct WhiteboxAuditResult {
    double claimedEps = 0.0;
    double delta = 0.0;
    Adjacency adjacency = Adjacency::ReplaceOne;
    WhiteboxView view = WhiteboxView::Iterates;
    PrivacyGuarantee guarantee; ///< what DP-SGD claims at ε
    double sigma = 0.0;         ///< σ of the claim (the score's)
    double q = 0.0;
    long long steps = 0;
    double canaryNorm = 0.0;         ///< C: a canary's clipped gradient as claimed
    double noiseInCanaryUnits = 0.0; ///< s = σ·sensitivity/C
    std::vector<Index> zeroFeatures; ///< features 0 in every training row
    std::vector<WhiteboxCanary> canaries;
    std::vector<double> scoresOut, scoresIn; ///< per trial, run by run (NaN: not run, when stopped)
    AuditBound bound;
    int runs = 0;
    double alpha = 0.05;
    bool stopped = false;
    double seconds = 0.0;
    bool violated() const { return !stopped && bound.epsLB > claimedEps; }
};

/// log p_in(o)/p_out(o) of one step's observation o = G/C (see above); s > 0, 0 < q ≤ 1.
double whiteboxStepLogRatio(double o, double q, double s, Adjacency adjacency);

/// The score of one coordinate: the sum of whiteboxStepLogRatio over its observations.
double whiteboxScore(std::span<const double> observations, double q, double s, Adjacency adjacency);

/// Audits DP-SGD on data (prepared rows). Progress (stage "white-box audit", per run) and cancel
/// through ctx. Throws std::invalid_argument: not DP-SGD, a bad spec, or (Iterates) no feature
/// that is 0 in every training row (nowhere to put a canary the rows do not touch).
WhiteboxAuditResult runWhiteboxAudit(const SweepData& data, const WhiteboxAuditSpec& spec, RunContext* ctx = nullptr);

/// The verdict in plain words, as auditVerdict.
std::string whiteboxAuditVerdict(const WhiteboxAuditResult& result);

} // namespace elab::core
