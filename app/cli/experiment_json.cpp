#include "app/cli/experiment_json.h"

#include <cmath>

namespace elab::app {

nlohmann::ordered_json guaranteeJson(const core::PrivacyGuarantee& g) {
    return {{"private", g.isPrivate}, {"notion", g.notion}, {"epsilon", g.epsilon}, {"delta", g.delta},
            {"source", g.source}, {"assumptions", g.assumptions}, {"notes", g.notes}};
}

nlohmann::ordered_json oneVsRestJson(int classes, const std::vector<std::string>& classNames,
                                     const core::MechanismSpec& spec) {
    if (classes < 2)
        return nullptr;
    const std::string K = std::to_string(classes);
    return {{"classes", classes},
            {"class_names", classNames},
            {"models", classes},
            {"epsilon_per_model", "ε/" + K},
            {"delta_per_model", spec.isGaussian() ? nlohmann::ordered_json(spec.delta / classes) : nlohmann::ordered_json()},
            {"composition", "basic sequential (Dwork & Roth 2014, Thm 3.16): every row is used by all " + K +
                                " models, so their budgets add up to the (ε, δ) asked for"}};
}

nlohmann::ordered_json solverJson(const core::SolverSummary& s, const std::vector<std::string>& classNames) {
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const core::SolverRecord& r : s.notConverged) {
        const bool named = r.model >= 0 && static_cast<std::size_t>(r.model) < classNames.size();
        failures.push_back({{"eps", numberOrNull(r.eps)},
                            {"repetition", r.repetition},
                            {"class", named ? nlohmann::ordered_json(classNames[static_cast<std::size_t>(r.model)])
                                            : nlohmann::ordered_json()},
                            {"status", core::toString(r.status)},
                            {"iterations", r.iterations},
                            {"gradient_norm", r.gradientNorm}});
    }
    return {{"fits", s.fits},
            {"converged", s.converged},
            {"max_iterations", s.maxIterations},
            {"worst_gradient_norm", s.worstGradientNorm},
            {"not_converged", failures}};
}

nlohmann::ordered_json numberOrNull(double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json();
}

} // namespace elab::app
