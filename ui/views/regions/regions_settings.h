#pragma once
// Everything the Decision regions view computes and draws from (issue 11), as one plain value:
// the plane (two features or PCA, optional quadratic expansion), the data preparation, the
// mechanism, R noise draws, the grid, the seed, the slider's ε and how the regions are filled.
// The side panel edits it, the controller copies it into its worker, sessions save it. No Qt
// types: it is copied freely across threads.

#include "core/data/dataset.h"
#include "core/regions/decision_regions.h"
#include "core/util/option_names.h"
#include "ui/widgets/training_choice.h"

#include <cstdint>
#include <limits>
#include <string>

namespace elab::ui {

/// What fills the plane: each cell's majority class shaded by the draws' agreement, one draw's
/// regions, or the agreement alone on a sequential scale.
enum class RegionsFill { Majority, Draw, Agreement };
const core::OptionNames<RegionsFill>& regionsFillNames(); ///< "majority", "draw", "agreement"

/// The training choice (TrainingChoice: preprocess, testFraction — the hollow points and the test
/// accuracy, 0.3 by default —, mechanism, seed — split and noise draws) and the picture.
struct RegionsSettings : TrainingChoice {
    RegionsSettings() { testFraction = 0.3; }

    core::PlaneKind plane = core::PlaneKind::Features;
    int featureA = 0; ///< PlaneKind::Features: the two feature columns
    int featureB = 1;
    bool quadratic = false; ///< (x₁, x₂, x₁², x₁x₂, x₂²): conics for linear models
    // The preparation is applied in the plane; the intercept is on: a boundary through the origin
    // teaches nothing.
    int draws = 10;          ///< R noise draws, 1..kMaxDraws
    int gridSize = 256;      ///< G×G cells
    double currentEps = 1.0; ///< the slider's ε; +∞: the non-private model only
    RegionsFill fill = RegionsFill::Majority;
    int fillDraw = 0; ///< RegionsFill::Draw: which draw (0-based, < draws)

    /// Larger datasets are pictured on a seeded subsample of this many rows (stated in the
    /// processing log and the readout): R fits per slider step stay live (issue 15).
    static constexpr long long kPictureRows = 20'000;
    static constexpr int kMaxDraws = 20;
    static constexpr int kMinGrid = 32;
    static constexpr int kMaxGrid = 512;
    static double nonPrivateEps() { return std::numeric_limits<double>::infinity(); }

    /// "" if valid; otherwise the first problem, in words a user can act on.
    std::string validate() const;
    /// The engine's spec: everything but ε and the fill.
    core::RegionsSpec toSpec() const;
    /// Same plane, preparation, mechanism, draws, grid and seed: a prepared problem still holds.
    bool sameProblem(const RegionsSettings& other) const;
    bool operator==(const RegionsSettings&) const = default;
};

/// The teaching defaults for dataset (README, "Decision regions"): the plane, whether it needs
/// the quadratic expansion and whether it is standardised; the other settings are kept.
void adaptRegionsToDataset(RegionsSettings& settings, const core::Dataset& dataset);

} // namespace elab::ui
