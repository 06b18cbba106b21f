#pragma once
// What the stability view has computed so far, as the GUI thread holds it. Filled in by
// StabilityController from its background job (cells stream in, in any order); read by the
// view, the chart model and exports.

#include "core/data/data_preparation.h"
#include "core/stability/stability_sweep.h"

#include <memory>
#include <optional>
#include <vector>

namespace elab::ui {

struct StabilityState {
    std::shared_ptr<const core::PreparedData> data; ///< split and preprocessed; null before
    core::StabilityModel model = core::StabilityModel::Logistic;
    std::vector<double> rho;
    std::vector<core::StabilityMethod> methods;
    core::RemovalKind removal = core::RemovalKind::Random;
    /// By rhoIndex · methods.size() + methodIndex; filled as cells stream in.
    std::vector<std::optional<core::StabilityCell>> cells;
    std::vector<core::MethodBaseline> baselines; ///< per method, at the end (also on cancel)
    std::vector<core::ModelStability> stability; ///< per method; empty if skipped or cancelled
    bool cancelled = false;
    bool complete = false;
    int fits = 0;
    double seconds = 0.0; ///< baseline + sweep + stability

    const core::StabilityCell* cell(std::size_t rhoIndex, std::size_t methodIndex) const {
        const std::size_t k = rhoIndex * methods.size() + methodIndex;
        return k < cells.size() && cells[k] ? &*cells[k] : nullptr;
    }
    std::size_t totalCells() const { return cells.size(); }
    std::size_t completedCells() const {
        std::size_t n = 0;
        for (const auto& c : cells)
            n += c.has_value();
        return n;
    }
    /// The baseline of method, if the run got that far.
    const core::MethodBaseline* baseline(core::StabilityMethod method) const {
        for (const auto& b : baselines)
            if (b.method == method)
                return &b;
        return nullptr;
    }
};

} // namespace elab::ui
