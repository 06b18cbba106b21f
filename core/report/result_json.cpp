#include "core/report/result_json.h"

#include "core/privacy/plain_language.h"

#include <algorithm>
#include <cmath>

namespace elab::core {

namespace {

nlohmann::ordered_json parametersJson(const PrivacyGuarantee& g) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const MechanismParameter& p : g.parameters)
        j[p.name] = numberOrNull(p.value);
    return j;
}

nlohmann::ordered_json branchJson(const PrivacyGuarantee& g) {
    return g.branch.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(g.branch);
}

} // namespace

nlohmann::ordered_json processingLogJson(const std::vector<ProcessingStep>& steps) {
    nlohmann::ordered_json log = nlohmann::ordered_json::array();
    for (const ProcessingStep& step : steps)
        log.push_back({{"step", step.name}, {"detail", step.detail}, {"leaks_privacy", step.leaksPrivacy}});
    return log;
}

nlohmann::ordered_json processingLogJson(const Dataset& d) { return processingLogJson(d.log); }

nlohmann::ordered_json datasetJson(const Dataset& d) {
    return {{"name", d.name},
            {"path", d.provenance.path},
            {"sha256", d.provenance.sha256},
            {"rows", d.rows()},
            {"features", d.featureCount()},
            {"task", toString(d.targets.kind)},
            {"preparation_epsilon", d.preparationEpsilon},
            {"processing", processingLogJson(d)}};
}

nlohmann::ordered_json preparedDataJson(const Dataset& train, const Dataset* test) {
    nlohmann::ordered_json j;
    j["train"] = datasetJson(train);
    if (test)
        j["test"] = datasetJson(*test);
    return j;
}

nlohmann::ordered_json guaranteeJson(const PrivacyGuarantee& g) {
    return {{"private", g.isPrivate},
            {"notion", g.notion},
            {"epsilon", numberOrNull(g.epsilon)},
            {"delta", numberOrNull(g.delta)},
            {"adjacency", toString(g.adjacency)},
            {"source", g.source},
            {"assumptions", g.assumptions},
            {"assumptions_not_met", g.assumptionsNotMet},
            {"conditions", g.conditions},
            {"notes", g.notes},
            {"branch", branchJson(g)},
            {"parameters", parametersJson(g)},
            {"explanation", plainLanguage(g, 0)}};
}

nlohmann::ordered_json privacyByEpsJson(const std::vector<double>& grid,
                                        const std::vector<PrivacyGuarantee>& guarantees, int models) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t g = 0; g < grid.size() && g < guarantees.size(); ++g)
        list.push_back({{"eps", grid[g]},
                        {"model_eps", grid[g] / std::max(1, models)},
                        {"branch", branchJson(guarantees[g])},
                        {"parameters", parametersJson(guarantees[g])}});
    return list;
}

nlohmann::ordered_json monotonicityJson(const MonotonicityCheck& check, bool higherIsBetter) {
    nlohmann::ordered_json violations = nlohmann::ordered_json::array();
    for (const MonotonicityViolation& v : check.violations)
        violations.push_back({{"eps_better", v.epsBetter},
                              {"eps_worse", v.epsWorse},
                              {"mean_better", v.meanBetter},
                              {"mean_worse", v.meanWorse},
                              {"standard_error", v.standardError},
                              {"z_score", numberOrNull(v.zScore())},
                              {"note", v.note.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(v.note)}});
    const std::string message = check.message(higherIsBetter);
    return {{"checked", check.checked},
            {"reason", check.reason.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(check.reason)},
            {"z", check.z},
            {"ok", check.ok()},
            {"warning", message.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(message)},
            {"violations", violations}};
}

nlohmann::ordered_json oneVsRestJson(int classes, int models, const std::vector<std::string>& classNames,
                                     const MechanismSpec& spec) {
    if (classes < 2 || models < 2)
        return nullptr;
    const std::string K = std::to_string(classes);
    return {{"classes", classes},
            {"class_names", classNames},
            {"models", classes},
            {"epsilon_per_model", "ε/" + K},
            {"delta_per_model",
             spec.usesDelta() ? nlohmann::ordered_json(spec.privacy.delta / classes) : nlohmann::ordered_json()},
            {"composition", "basic sequential (Dwork & Roth 2014, Thm 3.16): every row is used by all " + K +
                                " models, so their budgets add up to the (ε, δ) asked for"}};
}

nlohmann::ordered_json solverJson(const SolverSummary& s, const std::vector<std::string>& classNames) {
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const SolverRecord& r : s.notConverged) {
        const bool named = r.model >= 0 && static_cast<std::size_t>(r.model) < classNames.size();
        failures.push_back({{"eps", numberOrNull(r.eps)},
                            {"repetition", r.repetition},
                            {"class", named ? nlohmann::ordered_json(classNames[static_cast<std::size_t>(r.model)])
                                            : nlohmann::ordered_json()},
                            {"status", toString(r.status)},
                            {"iterations", r.iterations},
                            {"gradient_norm", r.gradientNorm}});
    }
    return {{"privacy", "not private: the iteration counts and gradient norms are computed from the private data and "
                        "released without noise; they are diagnostics, not part of the private release"},
            {"fits", s.fits},
            {"converged", s.converged},
            {"max_iterations", s.maxIterations},
            {"worst_gradient_norm", s.worstGradientNorm},
            {"not_converged", failures}};
}

nlohmann::ordered_json numberOrNull(double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json();
}

} // namespace elab::core
