#pragma once
// Data preparation shared by the experiment commands: training data (DataOptions), a test
// set (--test FILE or --split FRACTION), preprocessing (MATH.md §1; default: clip rows)
// and the optional binarisation (--positive); without it a multiclass label is trained
// one-vs-rest with the budget split (core/learners/linear_erm/one_vs_rest.h).

#include "app/cli/data_options.h"
#include "core/data/data_preparation.h"
#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/learner/mechanism.h"
#include "core/learner/sweep_data.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace elab::app {

struct ExperimentData {
    core::Dataset train;
    std::optional<core::Dataset> test;
};

struct ExperimentDataOptions {
    DataOptions data;
    std::string testSpec;
    double split = 0.0;
    std::string norm = "clip";
    bool standardise = false;
    bool intercept = false; ///< the private commands default to true (a privacy-safe step)
    std::string positive;
    long long subsample = 0;
    std::string bounds; ///< a bounds file, or "builtin" (the built-in dataset's documented ranges)
    std::string boundsRange = "unit";
    double privateBounds = 0.0; ///< > 0: estimate the unbounded numeric columns' ranges with this ε
    double privateBoundsDomain = 1.0e6;

    /// The defaults of the private commands: the intercept on (a data-independent step).
    static ExperimentDataOptions withIntercept() {
        ExperimentDataOptions o;
        o.intercept = true;
        return o;
    }

    void addTo(CLI::App& command);
    /// Loads, splits (with splitSeed) and preprocesses. Throws LoadError / invalid_argument.
    ExperimentData prepare(std::uint64_t splitSeed) const;
    /// The same for datasets already loaded (by load()).
    ExperimentData prepare(ExperimentData loaded, std::uint64_t splitSeed) const;
    /// The datasets as loaded (--data, --test if given), nothing else done. Throws LoadError.
    ExperimentData load() const;
    /// The split, subsample and preprocessing the options ask for (reads the bounds file;
    /// throws LoadError naming it).
    core::DataPreparation preparation() const;
};

/// Provenance and processing log of the prepared data, for JSON outputs.
nlohmann::ordered_json dataJson(const ExperimentData& data);

/// Margin losses take a binary label, or a multiclass one (one-vs-rest, budget split); the squared
/// loss a regression target. Throws std::invalid_argument naming the mismatch.
void requireLabelKind(const core::MechanismSpec& spec, const ExperimentData& prepared);
/// The prepared rows as the sweeps take them (the test rows when there are any).
core::SweepData sweepDataOf(const ExperimentData& prepared);
/// Class names for the JSON: those of the one-vs-rest models, none for a binary model.
std::vector<std::string> modelNames(const ExperimentData& prepared, int classes);
/// The training rows' class count, or null for a regression target.
nlohmann::ordered_json classCount(const ExperimentData& prepared);

} // namespace elab::app
