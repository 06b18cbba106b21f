#pragma once
// Everything the utility explorer computes from, as one plain value: the training choice (data
// preparation, held-out fraction, mechanism, seed), the sweep, measuring points, estimators, the
// current ε and a target. The mechanism panel edits it (other views hand it their training
// choice), the controller copies it into its workers, sessions save it. No Qt types: it is
// copied freely across threads.

#include "ui/widgets/training_choice.h"

#include "core/learner/utility_metric.h"
#include "core/learners/linear_erm/taylor.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace elab::ui {

/// The training choice (TrainingChoice: preprocess, testFraction — needed by test metrics —,
/// mechanism, seed) and the measurement.
struct UtilitySettings : TrainingChoice {
    /// Test accuracy on held-out rows by default: the number a decision is made on, bounded in
    /// [0, 1] so that tiny ε cannot squash the axis (training loss, with the Taylor estimates, is
    /// one click away in the measurement box).
    core::UtilityMetric metric = core::UtilityMetric::TestAccuracy;
    UtilitySettings() { testFraction = 0.3; }
    int repeats = 10;
    /// Private release (docs/MATH.md §7: seeds): seed was drawn from the operating system's
    /// entropy and is written nowhere (sessions and exports hold null); false: a reproducible
    /// run with a public seed, whose guarantee holds for a release with secret randomness.
    bool secretSeed = false;

    // The sweep grid: gridPoints log-spaced ε from epsMin to epsMax.
    double epsMin = 1e-3;
    double epsMax = 1e2;
    int gridPoints = 21;

    // Taylor estimation (objpert-gauss with a loss metric only).
    std::vector<double> measureAt{1.0};
    std::vector<core::Estimator> estimators{core::Estimator::InverseEps};

    /// The slider's ε; +∞ is the "non-private" stop.
    double currentEps = 1.0;
    /// Required utility (a loss: lower is better; an accuracy: higher is better).
    std::optional<double> target;
    /// Other mechanisms swept on the same grid with the same seeds and drawn beside this one, in
    /// catalog order; each is `mechanism` switched to its kind (comparedSpec). Empty: none.
    std::vector<core::MechanismKind> compareWith;

    static constexpr double kSliderMin = 1e-3;
    static constexpr double kSliderMax = 1e2;
    static double nonPrivateEps() { return std::numeric_limits<double>::infinity(); }

    bool currentIsNonPrivate() const { return currentEps == nonPrivateEps(); }
    /// Taylor estimates apply (objpert-gauss and a loss metric).
    bool estimatesApply() const;
    /// The spec of a compared mechanism: mechanism switched to kind (core::selectMechanism), its
    /// other settings (Λ, δ, its own block) shared.
    core::MechanismSpec comparedSpec(core::MechanismKind kind) const;
    /// The log-spaced grid (ascending).
    std::vector<double> grid() const;
    /// "" if valid; otherwise the first problem, in words a user can act on
    /// (e.g. "Output perturbation needs Λ > 0").
    std::string validate() const;
    /// Every field (the training choice as TrainingChoice compares it).
    bool operator==(const UtilitySettings&) const = default;
};

} // namespace elab::ui
