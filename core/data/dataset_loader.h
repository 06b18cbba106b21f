#pragma once
// Loading a dataset from a spec: a file path (CSV or LIBSVM, optionally gzipped; format by
// extension, else sniffed) or "builtin:NAME" (embedded CSVs, or the 2-D generators).
// The embedded bytes come from outside the core through a BuiltinBytes callback, so the
// core stays free of Qt resources.

#include "core/data/csv_loader.h"
#include "core/data/dataset.h"
#include "core/data/libsvm_loader.h"
#include "core/data/public_schema.h"
#include "core/util/run_context.h"

#include <functional>
#include <optional>
#include <string>

namespace elab::core {

enum class FileFormat { Auto, Csv, Libsvm };

struct LoadOptions {
    FileFormat format = FileFormat::Auto;
    CsvOptions csv;
    LibsvmOptions libsvm;
    /// The public schema of the file (public_schema.h: levels, classes, width). Empty: the
    /// file's sibling "<file>.schema" when it exists, or a built-in dataset's documented
    /// schema (neither when findSchema is false), else none: the encoding is read from the
    /// rows and leaks.
    PublicSchema schema;
    bool findSchema = true;
};

/// Returns the embedded bytes of a built-in file (e.g. "iris.csv"), or nullopt.
using BuiltinBytes = std::function<std::optional<std::string>(const std::string& fileName)>;

/// Format from the file name (".csv", ".tsv", ".libsvm", ".svm", ".svmlight", ignoring
/// ".gz"), else from the content (a first data line "<label> <int>:<num>" is LIBSVM).
FileFormat detectFormat(const std::string& path, std::string_view text);

/// The schema loadDataset uses for spec: options.schema, else the sibling file, else a
/// built-in's documented schema; empty when there is none. Throws LoadError (a malformed file).
PublicSchema schemaFor(const std::string& spec, const LoadOptions& options);

/// Loads a spec. Built-in CSVs use the catalog's label column unless options name one.
/// Throws LoadError (bad input, unknown built-in) or Cancelled.
Dataset loadDataset(const std::string& spec, const LoadOptions& options, const BuiltinBytes& builtinBytes,
                    RunContext* ctx = nullptr);

/// The text a spec's rows are read from (decompressed; a built-in CSV's embedded file). Throws
/// LoadError (unreadable file, unknown or generated built-in).
std::string datasetText(const std::string& spec, const BuiltinBytes& builtinBytes, RunContext* ctx = nullptr);

/// loadDataset of spec with text in place of its file's content (the privacy audit's neighbours
/// of a file: core/audit/pipeline_audit.h). Throws as loadDataset.
Dataset loadDatasetText(const std::string& spec, std::string text, const LoadOptions& options,
                        RunContext* ctx = nullptr);

} // namespace elab::core
