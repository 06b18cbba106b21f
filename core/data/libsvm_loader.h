#pragma once
// LIBSVM / SVMlight → Dataset with sparse row-major features.
// Line: <label> <index>:<value> ... [# comment]. Labels +1/-1/0/1 (binary), integers
// (multiclass) or reals (regression). Indices 1-based and strictly ascending; "qid:" ignored;
// blank and comment lines skipped. Errors (index 0, decreasing or repeated indices, bad
// numbers, inf/NaN, empty input, a single class) throw LoadError with line and column.

#include "core/data/dataset.h"
#include "core/data/public_schema.h"
#include "core/util/run_context.h"

#include <optional>
#include <string>
#include <string_view>

namespace elab::core {

struct LibsvmOptions {
    /// Number of features; 0 = the largest index seen. An index above a given count is an error.
    Index featureCount = 0;
    /// Force the task; otherwise {−1,+1} or {0,1} → Binary, other integers → Multiclass,
    /// any non-integer label → Regression.
    std::optional<TaskKind> task;

    std::string validate() const;
};

/// With a public schema (public_schema.h; nullptr or empty: none): its width is the number of
/// features (a value beyond it is ignored and counted, as for a test file, where a width given
/// by the options is an error), its classes are the classes in its order (a line whose label is
/// not one of them is dropped, counted) and its task applies when the options give none. The
/// log's "schema" step leaks when the width, the classes or the task were read from the rows
/// (docs/MATH.md §1.6). Throws LoadError for a schema with CSV levels or contradicting the task.
Dataset loadLibsvm(std::string_view text, const std::string& sourceName, const LibsvmOptions& options,
                   RunContext* ctx = nullptr, const PublicSchema* schema = nullptr);

} // namespace elab::core
