#pragma once
// JSON pieces shared by `utility` and `choose-eps`: the privacy guarantee, the one-vs-rest
// budget split and the solver summary (stable field names, documented in README "CLI").

#include "core/experiment/solver_summary.h"
#include "core/privacy/mechanism.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace elab::app {

/// {private, notion, epsilon, delta, source, assumptions, notes}.
nlohmann::ordered_json guaranteeJson(const core::PrivacyGuarantee& g);

/// null for a binary classifier; else {classes, class_names, models, epsilon_per_model
/// ("ε/K"), delta_per_model (δ/K, null for pure ε-DP), composition}.
nlohmann::ordered_json oneVsRestJson(int classes, const std::vector<std::string>& classNames,
                                     const core::MechanismSpec& spec);

/// {fits, converged, max_iterations, worst_gradient_norm, not_converged: [{eps (null: the
/// non-private reference), repetition, class (name, null for a binary model), status,
/// iterations, gradient_norm}]}.
nlohmann::ordered_json solverJson(const core::SolverSummary& s, const std::vector<std::string>& classNames);

/// v, or null when v is NaN or infinite (JSON has neither).
nlohmann::ordered_json numberOrNull(double v);

} // namespace elab::app
