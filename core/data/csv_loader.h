#pragma once
// CSV → Dataset. Header row required. Delimiter detected among ',', ';', '\t' and runs of
// spaces; RFC 4180 quoting (embedded delimiters, doubled quotes, newlines); CRLF; UTF-8 BOM.
// Numeric vs categorical columns are inferred; categoricals are one-hot encoded with the
// levels seen in this file (the schema). Missing cells ("", "?", "NA", "NaN") are counted
// per column and handled by the policy. Every malformed input throws LoadError with the
// file, line and column.

#include "core/data/dataset.h"
#include "core/util/run_context.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core {

enum class MissingPolicy {
    DropRows,        ///< default: drop every row with a missing cell (label included)
    ImputeMean,      ///< numeric: column mean; categorical: most frequent level
    ImputeMostFrequent ///< numeric and categorical: most frequent value
};

const char* toString(MissingPolicy policy);

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
Dataset loadCsv(std::string_view text, const std::string& sourceName, const CsvOptions& options,
                RunContext* ctx = nullptr);

} // namespace elab::core
