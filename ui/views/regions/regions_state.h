#pragma once
// What the Decision regions view has computed, as the GUI thread holds it: the prepared plane
// (once per dataset and settings) and the regions at the last ε evaluated. Filled in by
// RegionsController from its background jobs; read by the view, the chart model and exports.

#include "ui/views/regions/regions_settings.h"

#include "core/regions/decision_regions.h"

#include <algorithm>
#include <memory>

namespace elab::ui {

struct RegionsState {
    /// The plane prepared at the settings' grid; null before (or after a failure).
    std::shared_ptr<const core::RegionsProblem> problem;
    RegionsSettings problemSettings; ///< what problem was prepared for
    /// The same plane on the coarser drag grid, prepared when a step at the full grid was too
    /// slow to follow the slider (null until then).
    std::shared_ptr<const core::RegionsProblem> dragProblem;
    /// The regions shown, and the problem (full or drag grid) they were computed on.
    std::shared_ptr<const core::RegionsResult> result;
    std::shared_ptr<const core::RegionsProblem> resultProblem;
    double evaluationMs = 0.0; ///< wall time of the last evaluation at the full grid
    /// The most boundary chains one model has had since the plane was prepared: the chart keeps
    /// room for them, so that its series (and the Qt chart) stay the same while the slider
    /// moves instead of being rebuilt whenever a draw's boundary splits or joins.
    std::size_t chainsSeen = 0;

    /// Sets result (computed on resultProblem) and widens chainsSeen to it.
    void show(std::shared_ptr<const core::RegionsResult> next, std::shared_ptr<const core::RegionsProblem> on) {
        result = std::move(next);
        resultProblem = std::move(on);
        if (!result)
            return;
        for (const core::RegionsModel& m : result->draws)
            chainsSeen = std::max(chainsSeen, m.boundaries.size());
        chainsSeen = std::max(chainsSeen, result->nonPrivate.boundaries.size());
    }

    /// The regions shown are on the drag grid (a preview while the slider moves).
    bool preview() const { return result && resultProblem && resultProblem != problem; }
    /// The grid of the regions shown (0: none).
    int shownGrid() const { return resultProblem ? resultProblem->spec().gridSize : 0; }
};

} // namespace elab::ui
