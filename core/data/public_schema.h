#pragma once
// A public schema (docs/MATH.md §1.6): what the encoding of a file may know without reading
// its rows — the one-hot levels of categorical CSV columns, the classes of the label and a
// LIBSVM file's width. Read from the data, these are private: replacing the only row with a
// level or class changes the encoding's dimension, the number of classes and every model's
// ε per class, so no finite ε holds. Given by a schema, they are fixed before the data is
// read; a private row outside the schema is handled row by row (an unknown level encodes as
// an all-zero one-hot, a label outside the classes drops its row, a LIBSVM feature beyond the
// width is ignored), which leaks nothing.
//
// Sources: a schema file (--schema FILE, or "<data file>.schema" beside the data), a built-in
// dataset's documented schema (builtin_catalog.h), or the user's declaration in the Data tab
// (which writes the sibling file).
//
// File format: one entry per line, comma-separated, '#' starts a comment line, blank lines
// skipped, a field may be double-quoted ("a,b", doubled "" for a quote); blanks around fields
// are trimmed. Entries, in any order:
//   label,<column>            the CSV label column the classes are for (optional)
//   task,binary|multiclass|regression   (optional; classes imply classification)
//   class,<name>              one per class, in order (binary: the first is −1, the second +1)
//   level,<column>,<level>    one per level of a categorical CSV column, in feature order
//   width,<n>                 a LIBSVM file's number of features
// Levels are matched as text; classes as text or, when both are numbers, by value ("1.0" is
// class "1", "+1" is "1").

#include "core/data/dataset.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core {

struct SchemaColumn {
    std::string name;
    std::vector<std::string> levels;

    bool operator==(const SchemaColumn&) const = default;
};

struct PublicSchema {
    std::string labelColumn;          ///< empty: the loader's label column
    std::optional<TaskKind> task;     ///< unset: classification when classes are given
    std::vector<std::string> classes; ///< empty: the classes are not declared
    std::vector<SchemaColumn> categorical;
    Index width = 0; ///< LIBSVM features; 0: not declared
    /// Where it comes from, in words ("adult.csv.schema", "documented schema of builtin:iris").
    std::string source;

    bool empty() const { return classes.empty() && categorical.empty() && width == 0 && !task; }
    /// The declared categorical column, or nullptr.
    const SchemaColumn* find(std::string_view column) const;
    /// Index of label among the classes (text, else numeric value), −1 when outside.
    int classIndex(std::string_view label) const;
    /// Empty if valid; else what is wrong (one class, duplicates, regression with classes, ...).
    std::string validate() const;
    bool operator==(const PublicSchema&) const = default;
};

/// Parses a schema file's text. Throws LoadError "sourceName:line: what is wrong" (unknown
/// entry, wrong field count, duplicate class or level, bad width or task, one class, ...).
PublicSchema parseSchema(std::string_view text, const std::string& sourceName);

/// Reads and parses a schema file. Throws LoadError (unreadable file, or as parseSchema).
PublicSchema loadSchemaFile(const std::string& path);

/// The schema as the file format parseSchema reads, with a comment header saying what it is.
/// Throws std::invalid_argument for a level or class with a line break (not representable).
std::string schemaFileText(const PublicSchema& schema);

/// The schema a loaded dataset's encoding used: its categorical columns' levels, its label
/// column, task and classes, and for LIBSVM its width. For `info --write-schema` and the Data
/// tab's declaration — a draft the user reviews: its levels were read from the data.
PublicSchema schemaOfDataset(const Dataset& data);

/// The schema for another label column than schema.labelColumn: a declared categorical column
/// chosen as the label gives its levels as the classes; the old label's classes and the task
/// no longer apply (the old label becomes a feature column like any undeclared one). Unchanged
/// when label is schema.labelColumn or the schema names no label column.
PublicSchema schemaForLabel(const PublicSchema& schema, const std::string& label);

/// "<data path>.schema": where a schema beside a data file is looked for and written.
std::string siblingSchemaPath(const std::string& dataPath);

} // namespace elab::core
