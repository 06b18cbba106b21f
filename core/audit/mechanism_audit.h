#pragma once
// The empirical privacy audit of a mechanism (issue 14; docs/MATH.md §5): T runs on a dataset
// D and T on its neighbour D′ under the mechanism's own adjacency (PrivacyGuarantee::adjacency:
// D′ = D with its last row replaced by the canary, or D plus the canary), each run with its own
// noise stream (seed, neighbour, run); the attacker's score is the canary's margin under the
// released model (larger when the model has seen it); auditBound turns the two samples into a
// lower bound ε_LB at confidence 1 − α. Any mechanism of the catalog is audited through the
// common learner interface. Runs go in parallel (ParallelGrid), deterministic for any thread
// count, streamed and cancellable.
//
// The canary (default): among the `canaryCandidates` coordinate directions e_j the training
// rows cover least (smallest Σ_i x_ij²), each a unit-norm row labelled against the non-private
// model (the class it scores lowest), the one whose addition moves the non-private model's
// margin on it the most. A training row can be named instead (its features, label flipped
// against the model).

#include "core/audit/audit_bound.h"
#include "core/audit/gaussian_audit_bound.h"
#include "core/learner/mechanism.h"
#include "core/learner/sweep_data.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

class CellExecutor;

struct AuditSpec {
    MechanismSpec mechanism;
    double eps = 1.0;    ///< the claimed ε (the mechanism's own guarantee at this ε is audited)
    int runs = 200;      ///< T per neighbour (≥ 4; half choose τ, half evaluate)
    double alpha = 0.05; ///< ε_LB holds with confidence 1 − α
    std::uint64_t seed = 1;
    int threads = 0;
    int canaryCandidates = 4;
    std::optional<Index> canaryRow; ///< a training row as the canary instead of the default
    /// Test-only power check: the mechanism is trained at ε·noiseDivisor while ε is claimed
    /// (its noise scale divided by about this factor). 1 in every real audit.
    double noiseDivisor = 1.0;
    /// Also the parametric bound of gaussian_audit_bound.h (δ > 0 only). Its assumption — the
    /// scores Gaussian with one variance — holds where the released model is affine in Gaussian
    /// noise (output perturbation (ε, δ); objective perturbation (ε, δ) on the worst-case pair) and
    /// its shape test can miss a departure in the tails elsewhere: asked for, never by default.
    bool gaussianFit = false;
    /// Where the 2T runs (stage "audit.<mechanism>", cell 2t + neighbour) run: other MPI ranks,
    /// a checkpoint (core/scale/cell_stage.h). nullptr: all here. The canary is chosen here.
    CellExecutor* executor = nullptr;

    std::string validate() const;
};

struct Canary {
    Eigen::VectorXd x;            ///< the row (‖x‖₂ = 1 unless a training row was named)
    double label = 1.0;           ///< as the training labels: ±1, or a class index
    std::string description;      ///< "e_17 (feature 'mean_area', the least covered), label −1"
    double nonPrivateShift = 0.0; ///< margin on D′ minus margin on D, non-private models
};

struct AuditResult {
    double claimedEps = 0.0;
    double delta = 0.0;
    Adjacency adjacency = Adjacency::ReplaceOne;
    PrivacyGuarantee guarantee; ///< what the mechanism claims at ε
    Canary canary;
    std::vector<double> scoresD, scoresDPrime; ///< per run (NaN: not run, when stopped)
    AuditBound bound;
    /// δ > 0 and every run finished: the parametric bound under the assumption that the scores
    /// are Gaussian with one variance (checked by its Lilliefors test; gaussian_audit_bound.h).
    /// Beside `bound`, never instead of it: violated() is the distribution-free verdict.
    std::optional<GaussianAuditBound> gaussian;
    int runs = 0;         ///< T asked for
    double alpha = 0.05;  ///< the bound holds with confidence 1 − α
    bool stopped = false; ///< cancelled: bound is of nothing (epsLB 0)
    double seconds = 0.0;
    bool violated() const { return !stopped && bound.epsLB > claimedEps; }
};

/// Called as each run finishes (serialised): neighbour 0 = D, 1 = D′.
using AuditRunSink = std::function<void(int neighbour, int run, double score)>;

/// Audits spec.mechanism on data (prepared rows, ‖x‖ ≤ 1). Throws std::invalid_argument (bad
/// spec, data the mechanism cannot train on, a non-private mechanism).
AuditResult runAudit(const SweepData& data, const AuditSpec& spec, RunContext* ctx = nullptr,
                     const AuditRunSink& sink = {});

/// The verdict in plain words: "consistent with the claim (ε_LB = 0.42 ≤ ε = 1 …)" or "the claim
/// is violated: ε ≥ 2.3 with 95 % confidence".
std::string auditVerdict(const AuditResult& result);
/// The parametric bound in words ("" when there is none): its ε_LB against the claim, or why the
/// scores do not allow it.
std::string gaussianVerdict(const AuditResult& result);

} // namespace elab::core
