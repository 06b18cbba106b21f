#pragma once
// Targets of a CSV file from the label column seen by pass 1: the task is inferred (text →
// classification; integers with few distinct values → classification; other numbers →
// regression) or forced by the options, and class names get the numeric-aware order.

#include "core/data/csv_loader.h"
#include "core/data/csv_scan.h"

#include <string>

namespace elab::core::detail {

/// Throws LoadError for text in a numeric label column, non-finite labels, text labels with
/// forced regression, a single class, or a forced binary task with other than 2 classes.
/// summary receives a short description for the log ("binary: 'no' = −1, 'yes' = +1").
/// With a schema that declares classes, those are the classes, in its order (pass 1 kept
/// only rows whose label is one of them); the task is Binary for two unless options say
/// Multiclass, and nothing about the classes is read from the data.
Targets buildCsvTargets(ScanResult& scan, std::size_t label, const std::string& labelName, const CsvOptions& options,
                        const std::string& source, std::string& summary, const PublicSchema* schema = nullptr);

} // namespace elab::core::detail
