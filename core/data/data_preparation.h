#pragma once
// Data preparation shared by the CLI and the GUI: an optional held-out split, an optional
// seeded subsample of the training rows, then the preprocessing of docs/MATH.md §1 (statistics
// from the training part only). Every step is logged on the datasets.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

struct DataPreparation {
    double testFraction = 0.0; ///< > 0: split of the training data by per-row coins (ignored with a given test set)
    long long subsample = 0;   ///< > 0: keep this many training rows (seeded, uniform without replacement)
    PreprocessOptions preprocess;

    std::string validate() const;
};

struct PreparedData {
    Dataset train;
    std::optional<Dataset> test;
};

/// k of d's rows (k ≤ rows): those with the k smallest hashes of (seed, their content), ascending
/// (docs/MATH.md §7). Changing, adding or removing one row of d changes the subset by at most one
/// row replaced by another: stable under replace-one adjacency at the fixed size k.
std::vector<Index> contentRowSubset(const Dataset& d, Index k, std::uint64_t seed);

/// Throws std::invalid_argument (bad options, test set of another width, subsample larger
/// than the training set). seed drives the split, the subsample and privately estimated bounds.
PreparedData prepareExperimentData(Dataset train, std::optional<Dataset> test, const DataPreparation& preparation,
                                   std::uint64_t seed);

} // namespace elab::core
