#pragma once
// Pass 1 of the CSV loader: one streaming read of the data records that checks their shape,
// counts missing cells, classifies every cell (number, non-finite, text), collects the
// distinct text values and the statistics needed for imputation, and decides which rows
// are kept. Nothing is stored per cell, so memory stays at a few bytes per row.

#include "core/data/csv_cells.h"
#include "core/data/public_schema.h"
#include "core/util/run_context.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core::detail {

/// How pass 1 treats a column.
enum class ScanRole {
    Infer,       ///< parse numbers; intern only text cells (kind decided afterwards)
    Categorical, ///< intern every cell as text
    Label,       ///< intern every cell and parse it as a number as well
    Ignored      ///< count missing cells only
};

struct CellLocation {
    std::size_t line = 0;   ///< 0: no such cell
    std::size_t column = 0; ///< 1-based field index
    std::string text;
};

struct ColumnScan {
    ScanRole role = ScanRole::Infer;
    // Over the whole file:
    std::size_t missing = 0;
    std::size_t numbers = 0;  ///< cells that parse as numbers, finite or not
    std::size_t texts = 0;    ///< non-missing cells that do not
    bool nonIntegral = false; ///< some finite number is not an integer below 2^53
    CellLocation firstText;
    CellLocation firstNonFinite;
    LevelTable levels;
    // Over the kept rows only (what the encoder and imputation see):
    std::size_t keptMissing = 0;
    std::size_t keptValues = 0; ///< finite numbers
    std::size_t keptNonZero = 0;
    long double keptSum = 0;  ///< wide exponent: the sum of huge finite values must not overflow
    bool countValues = false; ///< fill valueCounts (for most-frequent imputation)
    std::map<double, std::size_t> valueCounts;

    std::size_t nonMissing() const { return numbers + texts; }
};

struct ScanPlan {
    char delimiter = ',';
    std::size_t label = 0;
    /// DropRows: rows with a missing cell in a used column are dropped. Rows with a missing
    /// label are dropped under every policy.
    bool dropIncomplete = true;
    /// Classes of a public schema (public_schema.h), or nullptr: a row whose label is not one
    /// of them is dropped (counted in outsideLabelRows), one row at a time.
    const PublicSchema* schema = nullptr;
};

/// Where a data record starts (pass 2 starts reading there to split the text over threads).
struct RecordMark {
    std::size_t record = 0; ///< 0-based data record
    std::size_t offset = 0; ///< byte offset into the text
    std::size_t line = 0;   ///< line at that offset
};

/// A mark every kRecordMarkSpacing records.
constexpr std::size_t kRecordMarkSpacing = 8192;

struct ScanResult {
    std::vector<ColumnScan> columns;
    std::vector<RecordMark> marks;  ///< records 0, kRecordMarkSpacing, 2·kRecordMarkSpacing, …
    std::vector<std::uint8_t> keep; ///< per data record: 1 if kept
    std::size_t records = 0;
    std::size_t keptRows = 0;
    std::size_t missingLabelRows = 0; ///< dropped because the label is missing
    std::size_t outsideLabelRows = 0; ///< dropped: a label outside the schema's classes
    std::vector<Level*> labelLevel;   ///< per kept row, into columns[label].levels
    std::vector<double> labelValue;   ///< per kept row; NaN when the label is not a number
};

/// Reads the header record of text (which must not be blank) and returns its raw fields.
std::vector<std::string> readHeaderFields(std::string_view text, char delimiter, const std::string& source,
                                          std::size_t& recordLine);

/// Pass 1. columns must have one entry per header field, with role and countValues set.
/// Throws LoadError on ragged rows and quoting errors, Cancelled when stopped. Progress is
/// reported as progressBase + progressSpan · (bytes read / bytes).
void scanCsv(std::string_view text, const std::string& source, const ScanPlan& plan, ScanResult& result,
             RunContext* ctx, double progressBase, double progressSpan);

} // namespace elab::core::detail
