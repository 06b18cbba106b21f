#pragma once
// The privacy audit from one training run (Steinke, Nasr & Jagielski 2023; docs/MATH.md §5.1):
// m canaries, each included by its own fair coin S_i drawn from the seed, one private fit of the
// catalog mechanism, a score per canary from the released model, and the lower bound of
// core/audit/one_run_bound.h from the number of correct guesses.
//
// The canaries: unit rows e_j along the m feature columns the training rows cover least
// (smallest Σ_i x_ij²), one per column so that no two canaries share a direction of a linear
// model's parameters; m is capped at the number of columns. Each is labelled against the
// non-private model of D (−sign of its score; for K classes its lowest-scored class), and has a
// baseline label (the opposite sign; the highest-scored class). Adjacency is the mechanism's own:
//   add/remove (DP-SGD with N declared public): the included canaries are added to D;
//   replace-one: each canary has a slot, a row that is the canary when S_i = 1 and the canary's
//   features with the baseline label when S_i = 0 — changing one coin replaces one row.
// The score of canary i: its margin under the released model (y·s, or s_label − s_baseline for K
// score columns) minus the midpoint of that margin under two non-private fits, every canary out
// and every canary in — the auditor knows D and the canaries, not the coins.
//
// Deterministic for a seed for any thread count: the coins come from (seed, canary index), the
// noise from (seed); the three fits (two references, one private) run in parallel.

#include "core/audit/one_run_bound.h"
#include "core/learner/mechanism.h"
#include "core/learner/sweep_data.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace elab::core {

struct OneRunAuditSpec {
    MechanismSpec mechanism;
    double eps = 1.0;    ///< the claimed ε (the mechanism's guarantee at this ε is audited)
    int canaries = 1000; ///< m asked; capped at the number of feature columns
    double alpha = 0.05; ///< ε_LB holds with confidence 1 − α
    std::uint64_t seed = 1;
    int threads = 0;
    /// Test-only power check: the mechanism is trained at ε·noiseDivisor while ε is claimed.
    double noiseDivisor = 1.0;

    std::string validate() const;
};

struct OneRunCanary {
    Index feature = 0;      ///< the canary row is e_feature
    double label = 1.0;     ///< as the training labels: ±1, or a class index
    double baseline = -1.0; ///< the slot's label when out (replace-one); the score's comparison class
    bool included = false;  ///< S_i
    double score = 0.0;     ///< margin under the released model minus the references' midpoint
};

struct OneRunAuditResult {
    double claimedEps = 0.0;
    double delta = 0.0;
    Adjacency adjacency = Adjacency::ReplaceOne;
    PrivacyGuarantee guarantee; ///< what the audited fit claims at ε
    int canariesAsked = 0;
    std::vector<OneRunCanary> canaries; ///< m of them
    OneRunBound bound;
    double alpha = 0.05;
    Index trainingRows = 0; ///< rows of the audited fit (D plus slots or included canaries)
    bool stopped = false;   ///< cancelled: no bound (epsLB 0)
    double seconds = 0.0;
    bool violated() const { return !stopped && bound.epsLB > claimedEps; }
};

/// Audits spec.mechanism on data (prepared rows, ‖x‖ ≤ 1) with one private fit. Progress (stage
/// "one-run audit", the reference of D then three fits) and cancel through ctx. Throws
/// std::invalid_argument (bad spec, data the mechanism cannot train on, a non-private mechanism).
OneRunAuditResult runOneRunAudit(const SweepData& data, const OneRunAuditSpec& spec, RunContext* ctx = nullptr);

/// The verdict in plain words, as auditVerdict.
std::string oneRunAuditVerdict(const OneRunAuditResult& result);

} // namespace elab::core
