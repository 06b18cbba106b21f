#pragma once
// The JSON pieces every result writer shares — the CLI's reports and the GUI's export sidecars —
// so that a field means the same everywhere (stable names, documented in README "CLI"):
// the privacy guarantee with the constants behind it, the guarantee per grid ε, the one-vs-rest
// budget split, the solver summary and the monotonicity self-check.

#include "core/data/dataset.h"
#include "core/learner/mechanism.h"
#include "core/learner/solver_summary.h"
#include "core/sweeps/monotonicity.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace elab::core {

/// v, or null when v is NaN or infinite (JSON has neither).
nlohmann::ordered_json numberOrNull(double v);

/// [{step, detail, leaks_privacy}]: what was done to d, in order (docs/MATH.md §1).
nlohmann::ordered_json processingLogJson(const Dataset& d);
/// The same for a log of steps (e.g. a decision-regions plane's).
nlohmann::ordered_json processingLogJson(const std::vector<ProcessingStep>& steps);

/// {name, path, sha256, rows, features, task, processing}: the provenance of d.
nlohmann::ordered_json datasetJson(const Dataset& d);

/// {train: datasetJson, test: datasetJson (absent without a test set)}.
nlohmann::ordered_json preparedDataJson(const Dataset& train, const Dataset* test);

/// {private, notion, epsilon (null: ∞), delta (null: not established), adjacency, source,
///  assumptions, assumptions_not_met (pipeline steps that turned the guarantee off), conditions
///  (on the release: seed mode, composite outputs), notes, branch (null if none),
///  parameters: {name: value}, explanation (plain language)}.
nlohmann::ordered_json guaranteeJson(const PrivacyGuarantee& g);

/// Per grid ε: [{eps, model_eps (ε/K), branch (null if none), parameters: {name: value}}], the
/// constants each grid point's fits used (one-vs-rest: each model's, at ε/K).
nlohmann::ordered_json privacyByEpsJson(const std::vector<double>& grid,
                                        const std::vector<PrivacyGuarantee>& guarantees, int models);

/// null for a binary classifier or a natively multiclass one (models < 2: no budget split); else
/// {classes, class_names, models, epsilon_per_model ("ε/K"), delta_per_model (δ/K, null for pure
/// ε-DP), composition}.
nlohmann::ordered_json oneVsRestJson(int classes, int models, const std::vector<std::string>& classNames,
                                     const MechanismSpec& spec);

/// {privacy (a sentence: released without noise), fits, converged, max_iterations, worst_gradient_norm, not_converged:
/// [{eps (null: the non-private reference), repetition, class (name, null for a binary model), status, iterations,
/// gradient_norm}]}.
nlohmann::ordered_json solverJson(const SolverSummary& s, const std::vector<std::string>& classNames);

/// {checked, reason (null when checked), z, ok, warning (null when ok), violations: [{eps_better,
/// eps_worse, mean_better, mean_worse, standard_error, z_score}]}.
nlohmann::ordered_json monotonicityJson(const MonotonicityCheck& check, bool higherIsBetter);

} // namespace elab::core
