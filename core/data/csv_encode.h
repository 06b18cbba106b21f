#pragma once
// Pass 2 of the CSV loader: reads the records again and writes the kept rows straight into
// the final matrix (dense column-major or CSR), one-hot encoding categorical cells and
// filling missing cells with the imputed values. No intermediate per-cell storage, so peak
// memory is the matrix plus pass 1's few bytes per row.

#include "core/data/csv_cells.h"
#include "core/data/csv_scan.h"
#include "core/data/feature_matrix.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core::detail {

struct EncodedColumn {
    enum class Kind { Skip, Numeric, Categorical };
    Kind kind = Kind::Skip;
    Index firstFeature = -1;
    LevelTable* levels = nullptr; ///< categorical: indices set by sortLevels (or a public schema)
    Index levelCount = 0; ///< categorical: its one-hot features (the schema's levels may differ from the table's)
    double fill = 0;      ///< numeric: value for a missing cell
    int fillLevel = -1;   ///< categorical: level for a missing cell
    /// categorical: a level without an index (outside a public schema) is an all-zero one-hot
    bool unseenAsZero = false;
};

struct EncodePlan {
    char delimiter = ',';
    std::vector<EncodedColumn> columns;              ///< one per source column
    const std::vector<std::uint8_t>* keep = nullptr; ///< per data record, from pass 1
    /// Record starts from pass 1 (or nullptr): a dense matrix is then filled by several threads,
    /// each from a mark on, each row written by one of them — the same matrix as one thread's.
    const std::vector<RecordMark>* marks = nullptr;
    Index rows = 0;
    Index features = 0;
    bool sparse = false;
    std::size_t nonZeros = 0; ///< reservation for the sparse matrix
};

/// Pass 2. Pass 1 must have accepted the same text with the same delimiter. Progress is reported
/// on the calling thread only.
FeatureMatrix encodeCsv(std::string_view text, const std::string& source, const EncodePlan& plan, RunContext* ctx,
                        double progressBase, double progressSpan);

} // namespace elab::core::detail
