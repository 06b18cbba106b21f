#include "ui/views/stability/stability_settings.h"

#include "core/stability/stability_defaults.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace elab::ui {

std::vector<double> StabilitySettings::rhoGrid() const {
    if (rhoPoints <= 1)
        return {rhoMin};
    std::vector<double> grid(static_cast<std::size_t>(rhoPoints));
    for (int k = 0; k < rhoPoints; ++k)
        grid[static_cast<std::size_t>(k)] = rhoMin + (rhoMax - rhoMin) * k / (rhoPoints - 1);
    grid.back() = rhoMax; // exactly the end the user typed
    return grid;
}

std::string StabilitySettings::validate() const {
    if (methods.empty())
        return "Choose at least one method.";
    for (std::size_t a = 0; a < methods.size(); ++a)
        for (std::size_t b = a + 1; b < methods.size(); ++b)
            if (methods[a] == methods[b])
                return "A method is listed twice.";
    if (!(dropoutRate >= 0.0 && dropoutRate <= 0.99))
        return "The dropout rate must be between 0 and 0.99 (keep probability q = 1 − rate > 0).";
    if (!(rhoMin >= 0.0 && rhoMax < 1.0))
        return "The removed fractions ρ must lie in [0, 1).";
    if (rhoPoints < 1 || rhoPoints > 200)
        return "The ρ grid needs between 1 and 200 points.";
    if (rhoPoints > 1 && !(rhoMax > rhoMin))
        return "The largest ρ must be above the smallest (or use one point).";
    if (repeats < 1 || repeats > 1000)
        return "Repetitions must be between 1 and 1000.";
    if (!(testFraction > 0.0 && testFraction < 1.0))
        return "The stability study needs a held-out test fraction between 0 and 1.";
    if (stabilitySamples < 0)
        return "Model-stability samples must be ≥ 0.";
    return {};
}

core::StabilityModel StabilitySettings::resolvedModel(core::TaskKind task) const {
    switch (model) {
    case StabilityModelChoice::Logistic: return core::StabilityModel::Logistic;
    case StabilityModelChoice::Linear: return core::StabilityModel::Linear;
    case StabilityModelChoice::FromTask: break;
    }
    return core::defaultStabilityModel(task);
}

std::string StabilitySettings::checkTask(core::TaskKind task) const {
    std::string problem = core::stabilityTaskProblem(resolvedModel(task), task, positiveClass.has_value());
    if (!problem.empty()) { // a sentence for the status bar and the view
        problem[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(problem[0])));
        problem += '.';
    }
    return problem;
}

core::DataPreparation StabilitySettings::toPreparation(core::StabilityModel m, bool sparseFeatures) const {
    core::DataPreparation p;
    p.testFraction = testFraction;
    p.preprocess = core::defaultStabilityPreprocess(m, sparseFeatures);
    if (m == core::StabilityModel::Logistic)
        p.preprocess.positiveClass = positiveClass;
    return p;
}

core::StabilitySpec StabilitySettings::toSpec(core::StabilityModel m, bool sparseFeatures) const {
    core::StabilitySpec spec;
    spec.learner.model = m;
    spec.learner.keep = 1.0 - dropoutRate;
    spec.learner.fitIntercept = core::stabilityFitsIntercept(m, sparseFeatures);
    spec.methods = methods;
    spec.removal = removal;
    spec.rho = rhoGrid();
    spec.repeats = repeats;
    spec.stabilitySamples = stabilitySamples;
    spec.seed = seed;
    return spec;
}

std::string methodTitle(core::StabilityMethod method) {
    switch (method) {
    case core::StabilityMethod::None: return "unregularised";
    case core::StabilityMethod::L2: return "L2 (λ by CV)";
    case core::StabilityMethod::Dropout: return "dropout GD";
    case core::StabilityMethod::DeterministicDropout: return "deterministic dropout";
    }
    return {};
}

} // namespace elab::ui
