#pragma once
// Everything the stability view computes from (issue 5, Jain et al. §5), as one plain value:
// the model, the methods, the dropout rate, the removal kind, the ρ grid, repetitions, seed
// and the held-out fraction. The view edits it, the controller copies it into its worker,
// sessions save it. No Qt types: it is copied freely across threads. The data preparation
// follows the CLI's defaults (app/cli/stability_command.cpp, --norm auto): logistic →
// rows clipped to norm 1; linear → columns standardised, norms left, intercept fitted.

#include "core/data/data_preparation.h"
#include "core/data/dataset.h"
#include "core/stability/stability_sweep.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elab::ui {

enum class StabilityModelChoice {
    FromTask, ///< regression target → linear, binary (or binarised) label → logistic
    Logistic,
    Linear
};

struct StabilitySettings {
    StabilityModelChoice model = StabilityModelChoice::FromTask;
    std::vector<core::StabilityMethod> methods{core::StabilityMethod::None, core::StabilityMethod::L2,
                                               core::StabilityMethod::Dropout,
                                               core::StabilityMethod::DeterministicDropout};
    double dropoutRate = 0.5; ///< 1 − q, q the keep probability; in [0, 0.99]
    core::RemovalKind removal = core::RemovalKind::Random;
    double rhoMin = 0.0; ///< the ρ grid: rhoPoints linearly spaced fractions
    double rhoMax = 0.9;
    int rhoPoints = 10;
    int repeats = 20;          ///< R, repetitions per ρ (the paper: 20)
    std::uint64_t seed = 1;    ///< split, removal, masks, CV folds
    double testFraction = 0.5; ///< held-out fraction (the paper: a 50/50 split)
    /// A multiclass label is binarised: this class → +1, the others → −1 (logistic only).
    std::optional<std::string> positiveClass;
    int stabilitySamples = 10; ///< rows i of ‖θ(D) − θ(D∖{i})‖ (0: skip)

    bool operator==(const StabilitySettings&) const = default;

    /// The ascending ρ grid (one point: rhoMin).
    std::vector<double> rhoGrid() const;
    /// "" if valid; otherwise the first problem in words a user can act on.
    std::string validate() const;

    /// The model for a dataset whose (unprocessed) target is task: FromTask picks linear for
    /// regression and logistic otherwise.
    core::StabilityModel resolvedModel(core::TaskKind task) const;
    /// "" if the model can be fitted on a target of this task; otherwise why not.
    std::string checkTask(core::TaskKind task) const;
    /// Split, positive class and the model's default preprocessing.
    core::DataPreparation toPreparation(core::StabilityModel model, bool sparseFeatures) const;
    /// The core spec; sparseFeatures: no intercept (centring would densify the data).
    core::StabilitySpec toSpec(core::StabilityModel model, bool sparseFeatures) const;
};

/// "none" → "unregularised", "l2" → "L2 (λ by CV)", … for legends and tables.
std::string methodTitle(core::StabilityMethod method);

} // namespace elab::ui
