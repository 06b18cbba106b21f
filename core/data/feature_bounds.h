#pragma once
// Public bounds (docs/MATH.md §1.4): per numeric column a range [lo, hi] that the schema, not
// the data, gives. Values are clipped to it and mapped to [0, 1] (or [−1, 1]) before the
// row-norm step, so that no column dominates every row's norm and clipping keeps the rest.
// The step reads nothing private, so it does not leak. Sources: a bounds file (CSV or JSON,
// read by core/data/bounds_file.h), the Data tab, sessions, the ranges a built-in dataset
// documents, or a private estimate (core/data/private_bounds.h) that spends its own ε.

#include "core/data/dataset.h"
#include "core/util/option_names.h"

#include <string>
#include <string_view>
#include <vector>

namespace elab::core {

struct ColumnBound {
    std::string column; ///< CSV column name, or the feature name ("f3" for LIBSVM feature 3)
    double lo = 0.0;
    double hi = 1.0;

    /// Empty if valid; else what is wrong, naming the column (no name, not finite, lo ≥ hi).
    std::string validate() const;
    bool operator==(const ColumnBound&) const = default;
};

enum class BoundsTarget {
    Unit,     ///< [lo, hi] → [0, 1]: keeps zeros of sparse data when lo = 0
    Symmetric ///< [lo, hi] → [−1, 1]
};

/// "unit", "symmetric" (the CLI's --bounds-range, the sessions' "range").
const OptionNames<BoundsTarget>& boundsTargetNames();

struct PublicBounds {
    std::vector<ColumnBound> columns;
    BoundsTarget target = BoundsTarget::Unit;
    /// Where the ranges come from, in words ("adult-bounds.csv", "typed in the Data tab",
    /// "documented ranges of the built-in digits"); shown in the processing log.
    std::string source;
    /// > 0: the ranges were estimated from the training data with this ε (private_bounds.h);
    /// the guarantee of every model trained on the result adds it (basic composition).
    double estimateEpsilon = 0.0;

    bool empty() const { return columns.empty(); }
    /// The bound of column, or nullptr.
    const ColumnBound* find(std::string_view column) const;
    /// Empty if valid; else what is wrong (names the column: lo ≥ hi, non-finite, duplicate).
    std::string validate() const;
    bool operator==(const PublicBounds&) const = default;
};

/// The feature column each bound applies to, in bounds order. Throws std::invalid_argument
/// naming every unknown column and every categorical one (one-hot columns are left as they
/// are; bounds are for numeric columns).
std::vector<Index> boundFeatureColumns(const Dataset& data, const PublicBounds& bounds);

/// The map of one value: clip to [lo, hi], then affinely onto the target range.
double mapToBounds(double value, const ColumnBound& bound, BoundsTarget target);

/// Applies the bounds to train (and test, with the same ranges) and logs the step (values
/// clipped per set, the source, not leaking unless estimated — then its ε). Throws
/// std::invalid_argument (as boundFeatureColumns; sparse data with a map that moves 0).
void applyPublicBounds(Dataset& train, Dataset* test, const PublicBounds& bounds);

/// The numeric columns of data that no bound covers (the hint "public bounds would help").
std::vector<std::string> unboundedNumericColumns(const Dataset& data, const PublicBounds& bounds);

/// The hint shown without bounds (issue 13): "" when every numeric column is bounded or none
/// exceeds 1 in magnitude; else the largest unbounded columns with their largest |value| and
/// why public bounds would help (they dominate every row's norm, clipping flattens the rest).
/// O(stored entries).
std::string boundsHint(const Dataset& data, const PublicBounds& bounds);

} // namespace elab::core
