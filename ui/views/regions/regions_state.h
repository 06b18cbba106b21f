#pragma once
// What the Decision regions view has computed, as the GUI thread holds it: the prepared plane
// (once per dataset and settings) and the regions at the last ε evaluated. Filled in by
// RegionsController from its background jobs; read by the view, the chart model and exports.

#include "ui/views/regions/regions_settings.h"

#include "core/regions/decision_regions.h"

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

    /// The regions shown are on the drag grid (a preview while the slider moves).
    bool preview() const { return result && resultProblem && resultProblem != problem; }
    /// The grid of the regions shown (0: none).
    int shownGrid() const { return resultProblem ? resultProblem->spec().gridSize : 0; }
};

} // namespace elab::ui
