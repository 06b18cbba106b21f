#include "core/data/data_preparation.h"

#include "core/data/schema_align.h"
#include "core/util/random.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace elab::core {

std::string DataPreparation::validate() const {
    if (!(testFraction >= 0.0 && testFraction < 1.0))
        return "the test fraction must be in [0, 1)";
    if (subsample < 0)
        return "the subsample size must be ≥ 0";
    return preprocess.validate();
}

std::vector<Index> contentRowSubset(const Dataset& d, Index k, std::uint64_t seed) {
    const std::vector<std::uint64_t> hash = rowContentHashes(d, deriveSeed(seed, 0x73756273616D706CULL));
    std::vector<Index> rows(hash.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<Index>(i);
    const auto keep = static_cast<std::size_t>(std::clamp<Index>(k, 0, d.rows()));
    // The k smallest (hash, row) pairs; ties between identical rows broken by position.
    std::nth_element(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(keep), rows.end(), [&](Index a, Index b) {
        const auto ha = hash[static_cast<std::size_t>(a)], hb = hash[static_cast<std::size_t>(b)];
        return ha != hb ? ha < hb : a < b;
    });
    rows.resize(keep);
    std::sort(rows.begin(), rows.end());
    return rows;
}

PreparedData prepareExperimentData(Dataset train, std::optional<Dataset> test, const DataPreparation& preparation,
                                   std::uint64_t seed) {
    if (std::string e = preparation.validate(); !e.empty())
        throw std::invalid_argument(e);
    PreparedData out{std::move(train), std::move(test)};
    if (out.test) {
        alignToTrainingSchema(out.train, *out.test);
    } else if (preparation.testFraction > 0.0) {
        TrainTestSplit parts = splitTrainTest(out.train, preparation.testFraction, seed);
        out.train = std::move(parts.train);
        out.test = std::move(parts.test);
    }
    if (preparation.subsample > 0) {
        const auto n = static_cast<std::size_t>(out.train.rows());
        if (static_cast<std::size_t>(preparation.subsample) > n)
            throw std::invalid_argument("subsample of " + std::to_string(preparation.subsample) + " is more than the " +
                                        std::to_string(n) + " training rows");
        out.train = out.train.selectRows(contentRowSubset(out.train, preparation.subsample, seed));
        ProcessingStep step{"subsample",
                            "kept " + std::to_string(preparation.subsample) + " of " + std::to_string(n) +
                                " training rows: those with the smallest seeded hashes of their content (one row "
                                "changed, added or removed in the file replaces at most one kept row)",
                            false};
        step.replaceOneOnly = true;
        out.train.log.push_back(std::move(step));
    }
    PreprocessOptions preprocessOptions = preparation.preprocess;
    if (preprocessOptions.privateBounds) // the estimate's noise comes from the run's seed, like the split
        preprocessOptions.privateBounds->seed = deriveSeed(seed, 0x626F756E6473ULL); // "bounds"
    preprocess(out.train, out.test ? &*out.test : nullptr, preprocessOptions);
    return out;
}

} // namespace elab::core
