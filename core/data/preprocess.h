#pragma once
// Preprocessing of docs/MATH.md §1. Each step appends a ProcessingStep to Dataset::log saying
// what it did and whether it leaks privacy (uses the private data itself).

#include "core/data/dataset.h"
#include "core/data/feature_bounds.h"
#include "core/data/private_bounds.h"
#include "core/util/option_names.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

enum class NormPolicy {
    ClipRows,       ///< x ← x / max(1, ‖x‖₂): data-independent, the default
    ScaleByMaxNorm, ///< x ← x / max_i ‖x_i‖₂: leaks (uses the private max)
    None            ///< leave norms as they are: privacy guarantees do not hold
};

/// "clip", "max", "none" (the CLI's --norm and the sessions' "norm").
const OptionNames<NormPolicy>& normPolicyNames();

struct PreprocessOptions {
    /// Public ranges of numeric columns (feature_bounds.h): clip and map before everything else.
    PublicBounds bounds;
    /// Set: the numeric columns without a public bound get privately estimated ones
    /// (private_bounds.h), whose ε every guarantee adds.
    std::optional<PrivateBoundsOptions> privateBounds;
    bool standardise = false; ///< columns to mean 0, sd 1 with training statistics: leaks
    bool intercept = false;   ///< append a constant 1 feature before the norm step
    NormPolicy norm = NormPolicy::ClipRows;
    /// Binarise a multiclass target: this class → +1, all others → −1 (label mapping).
    std::optional<std::string> positiveClass;

    std::string validate() const;
};

/// The same steps a view's form sets (standardise, intercept, norm, positive class); the bounds
/// come with the loaded dataset and are not compared.
bool sameFormSteps(const PreprocessOptions& a, const PreprocessOptions& b);

/// The steps options will log as leaking (the same names as preprocess logs), as "name: why",
/// before any data is prepared: the guarantee box while the settings are edited.
std::vector<std::string> plannedLeaks(const PreprocessOptions& options);

/// Applies the steps in the order binarise → bounds (public, then private) → standardise →
/// intercept → norm. Statistics (means,
/// sds, max norm) come from `train`; `test`, if given, gets the same transformation.
void preprocess(Dataset& train, Dataset* test, const PreprocessOptions& options);

struct TrainTestSplit {
    Dataset train;
    Dataset test;
};

/// Seeded split by per-row coins (docs/MATH.md §7): each row goes to the test set with
/// probability testFraction by a coin drawn from (seed, its own features and label), so changing,
/// adding or removing one row moves no other row. 0 < testFraction < 1; throws
/// std::invalid_argument when a side ends up empty.
TrainTestSplit splitTrainTest(const Dataset& data, double testFraction, std::uint64_t seed);

/// Each row's coin of splitTrainTest: a hash of (seed, the row's features, its label — a class by
/// its name). Rows with the same content have the same hash.
std::vector<std::uint64_t> rowContentHashes(const Dataset& data, std::uint64_t seed);

} // namespace elab::core
