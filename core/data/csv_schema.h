#pragma once
// Between the two passes of the CSV loader: decide each column's kind from what pass 1 saw,
// then lay out the feature columns (one per numeric column, one per level of a categorical
// one), pick the imputed values and choose dense or sparse storage.

#include "core/data/csv_encode.h"
#include "core/data/csv_loader.h"
#include "core/data/csv_scan.h"

#include <string>
#include <vector>

namespace elab::core::detail {

/// Kinds of the columns. An Infer column is Numeric when every non-missing cell is a number;
/// an error when at least 90 % are (text in a numeric column) or when a number is not finite;
/// Categorical otherwise. mixedText is set when a Categorical column also had numbers, whose
/// text pass 1 did not keep: the caller re-reads the file with that column as Categorical.
std::vector<ColumnKind> inferColumnKinds(const ScanResult& scan, const std::vector<std::string>& names,
                                         const std::string& source, bool& mixedText);

struct CsvLayout {
    EncodePlan plan;
    std::vector<std::string> imputed;      ///< "age: 3 cells ← 38.5 (mean)", for the log
    std::vector<std::string> oneHot;       ///< "workclass (8 levels)", for the log
    std::vector<std::string> dataLevels;   ///< categorical columns whose levels were read from this file
    std::vector<std::string> schemaLevels; ///< categorical columns whose levels a public schema gave
    /// Per schema column with levels outside it: "workclass=Never-worked (3 rows), …"
    std::vector<std::string> unseenLevels;
    std::size_t numericColumns = 0;
    std::size_t categoricalColumns = 0;
    std::size_t indicatorFeatures = 0;
    double density = 0;
};

/// Fills data.columns and data.featureNames and returns the plan of pass 2. Throws LoadError
/// when a column to impute has no value to impute from, or the matrix would be too large.
/// A categorical column the schema declares gets the schema's levels, in its order; a cell
/// with another level is an all-zero one-hot (counted in unseenLevels).
CsvLayout layoutCsvFeatures(ScanResult& scan, const std::vector<std::string>& names,
                            const std::vector<ColumnKind>& kinds, const CsvOptions& options, char delimiter,
                            const std::string& source, Dataset& data, const PublicSchema* schema = nullptr);

} // namespace elab::core::detail
