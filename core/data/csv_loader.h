#pragma once
// CSV → Dataset. Header row required. Delimiter detected among ',', ';', '\t' and runs of
// spaces; RFC 4180 quoting (embedded delimiters, doubled quotes, newlines); CRLF; UTF-8 BOM.
// Numeric vs categorical columns are inferred; categoricals are one-hot encoded with the
// levels of a public schema when one is given, else with the levels seen in this file.
// Missing cells ("", "?", "NA", "NaN") are counted per column and handled by the policy.
// Every malformed input throws LoadError with the file, line and column.
//
// Decisions where RFC 4180 and the issue are silent (each one is tested):
// - LoadError columns are 1-based field numbers, not character offsets; a ragged row gives
//   the line only ("file.csv:4: expected 3 fields, found 2"); errors about the whole file
//   (empty, header only, one class, no rows left, invalid options) give neither.
// - Blank lines are skipped anywhere; LF, CRLF and a lone CR end records.
// - Unquoted fields are trimmed of spaces (and tabs unless the delimiter is a tab); a quote
//   inside an unquoted field is literal (5'10" is accepted); after a closing quote only blanks
//   may come before the delimiter.
// - Header: empty names become "column_N" (N 1-based); duplicate names are an error.
// - Missing markers: "", "?", "NA", and "NaN" in any case ("nan" as numpy writes it), with
//   or without surrounding blanks. "na" and "-nan" are not markers.
// - UTF-8 only (BOM stripped); a UTF-16 byte-order mark is an error saying so.
// - A column is numeric when every non-missing cell is a finite number ("+3", ".5", "1e-400"
//   → 0 and 1e300 are; "inf", "Infinity" and 1e999 are errors); text in a column whose cells
//   are at least 90 % numbers is an error; otherwise the column is categorical.
// - Categorical levels are those of the whole file (rows dropped for missing values
//   included) in numeric-aware order ("2" < "10"); integer labels form one class per value
//   ("1.0" and "1" are class "1"). Imputation statistics come from the rows that are kept.

#include "core/data/dataset.h"
#include "core/data/public_schema.h"
#include "core/util/option_names.h"
#include "core/util/run_context.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core {

enum class MissingPolicy {
    DropRows,          ///< default: drop every row with a missing cell (label included)
    ImputeMean,        ///< numeric: column mean; categorical: most frequent level
    ImputeMostFrequent ///< numeric and categorical: most frequent value
};

const char* toString(MissingPolicy policy); ///< in words: "drop rows", "impute mean", ...
/// "drop", "mean", "most-frequent" (the CLI's and the GUI's --missing, the sessions' "missing").
const OptionNames<MissingPolicy>& missingPolicyNames();

struct CsvOptions {
    /// Label column by header name, or by 0-based index ("0", "3", "-1" = last).
    /// Empty: the last column.
    std::string labelColumn;
    /// 0: detect among ',', ';', '\t' and whitespace runs (' ').
    char delimiter = 0;
    MissingPolicy missing = MissingPolicy::DropRows;
    /// Force the task; otherwise inferred from the label column: text → classification;
    /// integers with at most maxIntegerClasses distinct values → classification;
    /// other numbers → regression. Two classes → Binary.
    std::optional<TaskKind> task;
    int maxIntegerClasses = 50;
    /// Columns (by name) to treat as categorical even if they look numeric.
    std::vector<std::string> categoricalColumns;
    /// Columns (by name) to leave out of the features.
    std::vector<std::string> ignoredColumns;
    /// Store features sparse (CSR) when at most this fraction of entries is non-zero.
    double sparseDensityThreshold = 0.1;

    /// Empty if valid; otherwise what is wrong.
    std::string validate() const;
};

/// Parses CSV text. sourceName is used in error messages and provenance.
/// With a public schema (public_schema.h; nullptr or empty: none), the categorical columns it
/// declares take its levels (another level encodes as an all-zero one-hot), the classes are
/// its classes (a row with another label is dropped) and its label column and task apply when
/// the options give none. The log's "schema" step says what came from the schema and what was
/// read from the file; anything read from the file — levels, classes, an inferred task —
/// makes that step leak (docs/MATH.md §1.6). Throws LoadError when the schema names a column
/// the file lacks, another label column, or contradicts the options' task.
Dataset loadCsv(std::string_view text, const std::string& sourceName, const CsvOptions& options,
                RunContext* ctx = nullptr, const PublicSchema* schema = nullptr);

} // namespace elab::core
