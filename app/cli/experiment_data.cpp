#include "app/cli/experiment_data.h"

#include "core/data/dataset_loader.h"
#include "resources/builtin_resources.h"

#include "core/util/random.h"

#include <algorithm>
#include <stdexcept>

namespace elab::app {

void ExperimentDataOptions::addTo(CLI::App& command) {
    data.addTo(command);
    auto* test = command.add_option("--test", testSpec, "Test set (same format options as --data)");
    command.add_option("--split", split, "Hold out this fraction as a stratified test set")
        ->check(CLI::Range(0.0, 1.0))
        ->excludes(test);
    command.add_option("--norm", norm, "Row norms: clip to 1 (private), scale by the max norm (leaks), none (leaks)")
        ->check(CLI::IsMember({"clip", "max", "none"}));
    command.add_flag("--standardise", standardise, "Standardise columns with training statistics (leaks privacy)");
    command.add_flag("--intercept", intercept, "Append a constant feature before the norm step");
    command.add_option("--positive", positive, "Binarise a multiclass label: this class against the rest");
    command.add_option("--subsample", subsample, "Train on a seeded random subset of this many training rows "
                                                 "(after the test split)")
        ->check(CLI::PositiveNumber);
}

ExperimentData ExperimentDataOptions::prepare(std::uint64_t splitSeed) const {
    const core::LoadOptions load = data.toLoadOptions();
    ExperimentData out;
    out.train = core::loadDataset(data.spec, load, resources::builtinBytesProvider());
    if (!testSpec.empty()) {
        out.test = core::loadDataset(testSpec, load, resources::builtinBytesProvider());
        if (out.test->featureCount() != out.train.featureCount())
            throw std::invalid_argument("test set has " + std::to_string(out.test->featureCount()) +
                                        " features, training set " + std::to_string(out.train.featureCount()) +
                                        " (for LIBSVM pass --features)");
    } else if (split > 0.0) {
        core::TrainTestSplit parts = core::splitTrainTest(out.train, split, splitSeed);
        out.train = std::move(parts.train);
        out.test = std::move(parts.test);
    }
    if (subsample > 0) {
        const auto n = static_cast<std::size_t>(out.train.rows());
        if (static_cast<std::size_t>(subsample) > n)
            throw std::invalid_argument("--subsample " + std::to_string(subsample) + " is more than the " +
                                        std::to_string(n) + " training rows");
        std::vector<core::Index> rows(n);
        for (std::size_t i = 0; i < n; ++i)
            rows[i] = static_cast<core::Index>(i);
        core::Rng rng(core::deriveSeed(splitSeed, 0x73756273616D706CULL)); // "subsampl"
        core::shuffleInPlace(rows, rng);
        rows.resize(static_cast<std::size_t>(subsample));
        std::sort(rows.begin(), rows.end());
        out.train = out.train.selectRows(rows);
        out.train.log.push_back({"subsample", "kept " + std::to_string(subsample) + " of " + std::to_string(n) +
                                                  " training rows (seeded, uniform without replacement)",
                                 false});
    }
    core::PreprocessOptions pre;
    pre.standardise = standardise;
    pre.intercept = intercept;
    pre.norm = norm == "max" ? core::NormPolicy::ScaleByMaxNorm
               : norm == "none" ? core::NormPolicy::None
                                : core::NormPolicy::ClipRows;
    if (!positive.empty())
        pre.positiveClass = positive;
    if (std::string e = pre.validate(); !e.empty())
        throw std::invalid_argument(e);
    core::preprocess(out.train, out.test ? &*out.test : nullptr, pre);
    return out;
}

nlohmann::ordered_json dataJson(const ExperimentData& data) {
    auto describe = [](const core::Dataset& d) {
        nlohmann::ordered_json j;
        j["name"] = d.name;
        j["path"] = d.provenance.path;
        j["sha256"] = d.provenance.sha256;
        j["rows"] = d.rows();
        j["features"] = d.featureCount();
        j["task"] = core::toString(d.targets.kind);
        nlohmann::ordered_json log = nlohmann::ordered_json::array();
        for (const auto& step : d.log)
            log.push_back({{"step", step.name}, {"detail", step.detail}, {"leaks_privacy", step.leaksPrivacy}});
        j["processing"] = log;
        return j;
    };
    nlohmann::ordered_json j;
    j["train"] = describe(data.train);
    if (data.test)
        j["test"] = describe(*data.test);
    return j;
}

} // namespace elab::app
