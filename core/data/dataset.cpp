#include "core/data/dataset.h"

#include <cmath>
#include <utility>

namespace elab::core {

const char* toString(TaskKind kind) {
    switch (kind) {
    case TaskKind::Binary: return "binary";
    case TaskKind::Multiclass: return "multiclass";
    case TaskKind::Regression: return "regression";
    }
    return "?";
}

const char* toString(ColumnKind kind) {
    switch (kind) {
    case ColumnKind::Numeric: return "numeric";
    case ColumnKind::Categorical: return "categorical";
    case ColumnKind::Label: return "label";
    case ColumnKind::Ignored: return "ignored";
    }
    return "?";
}

std::vector<Index> Targets::classCounts() const {
    std::vector<Index> counts(classNames.size(), 0);
    for (Index i = 0; i < classIndex.size(); ++i)
        ++counts[static_cast<std::size_t>(classIndex[i])];
    return counts;
}

Targets Targets::selectRows(const std::vector<Index>& rows) const {
    Targets out;
    out.kind = kind;
    out.classNames = classNames;
    const auto n = static_cast<Index>(rows.size());
    if (kind != TaskKind::Multiclass) {
        Eigen::VectorXd selected(n);
        for (Index k = 0; k < n; ++k)
            selected[k] = values[rows[static_cast<std::size_t>(k)]];
        out.values = std::move(selected);
    }
    if (isClassification()) {
        Eigen::VectorXi classes(n);
        for (Index k = 0; k < n; ++k)
            classes[k] = classIndex[rows[static_cast<std::size_t>(k)]];
        out.classIndex = std::move(classes);
    }
    return out;
}

Targets Targets::classification(Eigen::VectorXi classIndex, std::vector<std::string> names, bool asMulticlass) {
    Targets t;
    t.kind = names.size() == 2 && !asMulticlass ? TaskKind::Binary : TaskKind::Multiclass;
    if (t.kind == TaskKind::Binary)
        t.values = (classIndex.array() * 2 - 1).cast<double>();
    t.classIndex = std::move(classIndex);
    t.classNames = std::move(names);
    return t;
}

Targets Targets::regression(Eigen::VectorXd values) {
    Targets t;
    t.kind = TaskKind::Regression;
    t.values = std::move(values);
    return t;
}

std::string Dataset::validate() const {
    if (targets.size() != rows())
        return "targets have " + std::to_string(targets.size()) + " rows, features " + std::to_string(rows());
    if (!featureNames.empty() && static_cast<Index>(featureNames.size()) != featureCount())
        return "feature names: " + std::to_string(featureNames.size()) + " for " + std::to_string(featureCount()) +
               " features";
    if (targets.isClassification()) {
        if (targets.classIndex.size() != rows())
            return "class indices missing";
        for (Index i = 0; i < targets.classIndex.size(); ++i)
            if (targets.classIndex[i] < 0 || targets.classIndex[i] >= targets.classCount())
                return "class index out of range at row " + std::to_string(i + 1);
    }
    if (targets.kind == TaskKind::Multiclass && targets.values.size() != 0)
        return "a multiclass target holds its labels as class indices only";
    for (Index i = 0; i < targets.values.size(); ++i)
        if (!std::isfinite(targets.values[i]))
            return "non-finite target at row " + std::to_string(i + 1);
    return {};
}

std::string Dataset::featureName(Index j) const {
    if (j >= 0 && j < static_cast<Index>(featureNames.size()))
        return featureNames[static_cast<std::size_t>(j)];
    return "f" + std::to_string(j + 1);
}

Dataset Dataset::selectRows(const std::vector<Index>& rowList) const {
    Dataset out;
    out.name = name;
    out.features = features.selectRows(rowList);
    out.targets = targets.selectRows(rowList);
    out.featureNames = featureNames;
    out.columns = columns;
    out.provenance = provenance;
    out.log = log;
    out.preparationEpsilon = preparationEpsilon;
    return out;
}

} // namespace elab::core
