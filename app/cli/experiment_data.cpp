#include "app/cli/experiment_data.h"

#include "core/data/dataset_loader.h"
#include "resources/builtin_resources.h"

#include "core/experiment/experiment_data.h"
#include "core/report/result_json.h"

namespace elab::app {

void ExperimentDataOptions::addTo(CLI::App& command) {
    data.addTo(command);
    auto* test = command.add_option("--test", testSpec, "Test set (same format options as --data)");
    command.add_option("--split", split, "Hold out this fraction as a stratified test set")
        ->check(CLI::Range(0.0, 1.0))
        ->excludes(test);
    command.add_option("--norm", norm, "Row norms: clip to 1 (private), scale by the max norm (leaks), none (leaks)")
        ->check(CLI::IsMember(core::optionNameList(core::normPolicyNames())));
    command.add_flag("--standardise", standardise, "Standardise columns with training statistics (leaks privacy)");
    command.add_flag("--intercept", intercept, "Append a constant feature before the norm step");
    command.add_option("--positive", positive, "Binarise a multiclass label: this class against the rest "
                                                "(without it: one-vs-rest over all classes, budget split)");
    command.add_option("--subsample", subsample, "Train on a seeded random subset of this many training rows "
                                                 "(after the test split)")
        ->check(CLI::PositiveNumber);
}

ExperimentData ExperimentDataOptions::load() const {
    const core::LoadOptions options = data.toLoadOptions();
    ExperimentData loaded{core::loadDataset(data.spec, options, resources::builtinBytesProvider()), std::nullopt};
    if (!testSpec.empty())
        loaded.test = core::loadDataset(testSpec, options, resources::builtinBytesProvider());
    return loaded;
}

core::DataPreparation ExperimentDataOptions::preparation() const {
    core::DataPreparation preparation;
    preparation.testFraction = testSpec.empty() ? split : 0.0;
    preparation.subsample = subsample;
    preparation.preprocess.standardise = standardise;
    preparation.preprocess.intercept = intercept;
    preparation.preprocess.norm = core::fromOptionName(core::normPolicyNames(), norm).value_or(core::NormPolicy::ClipRows);
    if (!positive.empty())
        preparation.preprocess.positiveClass = positive;
    return preparation;
}

ExperimentData ExperimentDataOptions::prepare(std::uint64_t splitSeed) const {
    ExperimentData loaded = load();
    core::PreparedData prepared =
        core::prepareExperimentData(std::move(loaded.train), std::move(loaded.test), preparation(), splitSeed);
    return ExperimentData{std::move(prepared.train), std::move(prepared.test)};
}

nlohmann::ordered_json dataJson(const ExperimentData& data) {
    return core::preparedDataJson(data.train, data.test ? &*data.test : nullptr);
}

} // namespace elab::app
