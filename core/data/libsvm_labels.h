#pragma once
// Internal to core/data's LIBSVM loader (libsvm_loader.cpp): what the labels of a file mean —
// {−1, +1} or {0, 1} binary, other integers multiclass, any other real regression, or the
// classes of a public schema.

#include "core/data/dataset.h"
#include "core/data/public_schema.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace elab::core::libsvm {

/// Where a label stands in the file (line 0: nowhere) and its token as a message quotes it.
struct LabelAt {
    std::size_t line = 0, column = 0;
    std::string token;
};

/// The targets of the labels in file order. With schema (its classes non-empty), each label is
/// already the index of its class among the schema's classes. Otherwise the task is task, or
/// regression when firstReal names a non-integral label, else classification with the
/// distinct labels as classes in ascending order ("-1", "+1" for ±1); two classes are binary
/// unless a multiclass task is forced. Throws LoadError naming source: a non-integral label
/// (at firstReal) for a forced classification task, a single class, or more than two classes
/// for a forced binary task.
Targets targetsOfLabels(const std::vector<double>& labels, std::optional<TaskKind> task, const PublicSchema* schema,
                        const LabelAt& firstReal, const std::string& source);

} // namespace elab::core::libsvm
