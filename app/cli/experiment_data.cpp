#include "app/cli/experiment_data.h"

#include "core/data/builtin_catalog.h"
#include "core/data/dataset_loader.h"
#include "resources/builtin_resources.h"

#include "core/data/data_preparation.h"
#include "core/report/result_json.h"

#include <future>
#include <iostream>

namespace elab::app {

void ExperimentDataOptions::addTo(CLI::App& command) {
    data.addTo(command);
    auto* test = command.add_option("--test", testSpec, "Test set (same format options as --data)");
    command
        .add_option("--split", split,
                    "Hold out about this fraction as a test set (each row by its own seeded coin, so one row changes "
                    "nothing else)")
        ->check(CLI::Range(0.0, 1.0))
        ->excludes(test);
    command.add_option("--norm", norm, "Row norms: clip to 1 (private), scale by the max norm (leaks), none (leaks)")
        ->check(CLI::IsMember(core::optionNameList(core::normPolicyNames())));
    command.add_flag("--standardise", standardise, "Standardise columns with training statistics (leaks privacy)");
    command.add_flag("--intercept,!--no-intercept", intercept,
                     "Append a constant feature 1 before the norm step (data-independent, so privacy-safe)");
    command.add_option("--positive", positive,
                       "Binarise a multiclass label: this class against the rest "
                       "(without it: one-vs-rest over all classes, budget split)");
    command.add_option("--bounds", bounds,
                       "Public ranges of numeric columns: a CSV (column,lo,hi) or JSON file, or 'builtin' for a "
                       "built-in dataset's documented ranges; values are clipped and mapped to [0, 1] before the "
                       "norm step (privacy-safe: the ranges are not read from the data)");
    command.add_option("--bounds-range", boundsRange, "Map bounded columns to [0, 1] (unit) or [-1, 1] (symmetric)")
        ->check(CLI::IsMember(core::optionNameList(core::boundsTargetNames())));
    command
        .add_option(
            "--private-bounds", privateBounds,
            "Estimate the ranges of numeric columns without a public bound from the training data with "
            "this ε (the tightest round values holding 99 % of the rows, by the sparse vector technique); every "
            "guarantee adds it")
        ->check(CLI::PositiveNumber);
    command
        .add_option("--private-bounds-domain", privateBoundsDomain,
                    "Private bounds: the candidate bounds span [-D, D] (public)")
        ->check(CLI::PositiveNumber);
    command
        .add_option("--subsample", subsample,
                    "Train on a seeded random subset of this many training rows "
                    "(after the test split)")
        ->check(CLI::PositiveNumber);
}

ExperimentData ExperimentDataOptions::load() const {
    const core::LoadOptions options = data.toLoadOptions();
    std::future<core::Dataset> test;
    if (!testSpec.empty()) {
        // The test file is encoded with the training schema afterwards (core/data/schema_align.h):
        // its LIBSVM width is read as it is, features beyond the training width are ignored. Read
        // beside the training file (each load's reading and first pass are one thread's work); a
        // training file that fails is reported first, as when they were read one after the other.
        core::LoadOptions testOptions = options;
        testOptions.libsvm.featureCount = 0;
        test = std::async(std::launch::async, [testOptions, spec = testSpec] {
            return core::loadDataset(spec, testOptions, resources::builtinBytesProvider());
        });
    }
    ExperimentData loaded{core::loadDataset(data.spec, options, resources::builtinBytesProvider()), std::nullopt};
    if (test.valid())
        loaded.test = test.get();
    return loaded;
}

core::DataPreparation ExperimentDataOptions::preparation() const {
    core::DataPreparation preparation;
    preparation.testFraction = testSpec.empty() ? split : 0.0;
    preparation.subsample = subsample;
    preparation.preprocess.standardise = standardise;
    preparation.preprocess.intercept = intercept;
    preparation.preprocess.norm =
        core::fromOptionName(core::normPolicyNames(), norm).value_or(core::NormPolicy::ClipRows);
    if (!positive.empty())
        preparation.preprocess.positiveClass = positive;
    if (!bounds.empty())
        preparation.preprocess.bounds = core::boundsFromOption(bounds, data.spec);
    preparation.preprocess.bounds.target =
        core::fromOptionName(core::boundsTargetNames(), boundsRange).value_or(core::BoundsTarget::Unit);
    if (privateBounds > 0.0) {
        core::PrivateBoundsOptions p;
        p.epsilon = privateBounds;
        p.domain = privateBoundsDomain;
        preparation.preprocess.privateBounds = p;
    }
    return preparation;
}

ExperimentData ExperimentDataOptions::prepare(std::uint64_t splitSeed) const { return prepare(load(), splitSeed); }

ExperimentData ExperimentDataOptions::prepare(ExperimentData loaded, std::uint64_t splitSeed) const {
    const core::DataPreparation steps = preparation(); // reads the bounds file once
    if (privateBounds <= 0.0 && norm == "clip")
        if (const std::string hint = core::boundsHint(loaded.train, steps.preprocess.bounds); !hint.empty())
            std::cerr << "note: " << hint << " (--bounds FILE)\n";
    core::PreparedData prepared =
        core::prepareExperimentData(std::move(loaded.train), std::move(loaded.test), steps, splitSeed);
    return ExperimentData{std::move(prepared.train), std::move(prepared.test)};
}

nlohmann::ordered_json dataJson(const ExperimentData& data) {
    return core::preparedDataJson(data.train, data.test ? &*data.test : nullptr);
}

void requireLabelKind(const core::MechanismSpec& spec, const ExperimentData& prepared) {
    const core::TaskKind task = prepared.train.targets.kind;
    if (spec.model.loss.isMargin() && task == core::TaskKind::Regression)
        throw std::invalid_argument(std::string("the ") + core::toString(spec.model.loss.kind()) +
                                    " loss needs a class label, the data has a regression target (the squared loss "
                                    "fits it, non-private only)");
    if (!spec.model.loss.isMargin() && task != core::TaskKind::Regression)
        throw std::invalid_argument("squared loss needs a regression target");
}

core::SweepData sweepDataOf(const ExperimentData& prepared) {
    return core::sweepDataOf(prepared.train, prepared.test ? &*prepared.test : nullptr);
}

std::vector<std::string> modelNames(const ExperimentData& prepared, int classes) {
    return classes >= 2 ? prepared.train.targets.classNames : std::vector<std::string>{};
}

nlohmann::ordered_json classCount(const ExperimentData& prepared) {
    return prepared.train.targets.isClassification() ? nlohmann::ordered_json(prepared.train.targets.classCount())
                                                     : nlohmann::ordered_json();
}

} // namespace elab::app
