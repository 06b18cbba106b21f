#pragma once
// LIBSVM / SVMlight → Dataset with sparse row-major features.
// Line: <label> <index>:<value> ... [# comment]. Labels +1/-1/0/1 (binary), integers
// (multiclass) or reals (regression). Indices 1-based and strictly ascending; "qid:" ignored;
// blank and comment lines skipped. Errors (index 0, decreasing or repeated indices, bad
// numbers, inf/NaN, empty input, a single class) throw LoadError with line and column.

#include "core/data/dataset.h"
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

Dataset loadLibsvm(std::string_view text, const std::string& sourceName,
                   const LibsvmOptions& options, RunContext* ctx = nullptr);

} // namespace elab::core
