#include "core/data/libsvm_labels.h"

#include "core/data/load_error.h"

#include <algorithm>
#include <utility>

namespace elab::core::libsvm {

namespace {

[[noreturn]] void fail(const std::string& source, std::size_t line, std::size_t column, std::string message) {
    throw LoadError(source, line, column, std::move(message));
}

std::string className(double label) { return std::to_string(static_cast<long long>(label)); }

} // namespace

Targets targetsOfLabels(const std::vector<double>& labels, std::optional<TaskKind> task, const PublicSchema* schema,
                        const LabelAt& firstReal, const std::string& source) {
    const auto rows = static_cast<Index>(labels.size());
    if (schema) {
        Eigen::VectorXi classIndex(rows);
        for (Index i = 0; i < rows; ++i)
            classIndex[i] = static_cast<int>(labels[static_cast<std::size_t>(i)]);
        return Targets::classification(std::move(classIndex), schema->classes, task == TaskKind::Multiclass);
    }
    const bool integral = firstReal.line == 0;
    if (task == TaskKind::Regression || (!task && !integral))
        return Targets::regression(Eigen::Map<const Eigen::VectorXd>(labels.data(), rows));
    if (!integral)
        fail(source, firstReal.line, firstReal.column,
             "label " + firstReal.token + " is not an integer class, but the task was forced to " + toString(*task));

    std::vector<double> classes = labels;
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    if (classes.size() == 1)
        fail(source, 0, 0,
             "all " + std::to_string(rows) + " rows have label " + className(classes[0]) +
                 ": classification needs at least two classes (force the regression task "
                 "to load it anyway)");
    if (task == TaskKind::Binary && classes.size() > 2)
        fail(source, 0, 0,
             "the task was forced to binary, but the labels have " + std::to_string(classes.size()) + " classes");

    std::vector<std::string> names;
    if (classes.size() == 2 && classes[0] == -1.0 && classes[1] == 1.0)
        names = {"-1", "+1"};
    else
        for (const double c : classes)
            names.push_back(className(c));
    Eigen::VectorXi classIndex(rows);
    for (Index i = 0; i < rows; ++i) {
        const double label = labels[static_cast<std::size_t>(i)];
        classIndex[i] = static_cast<int>(std::lower_bound(classes.begin(), classes.end(), label) - classes.begin());
    }
    // Two classes are binary unless a multiclass task is forced.
    return Targets::classification(std::move(classIndex), std::move(names), task == TaskKind::Multiclass);
}

} // namespace elab::core::libsvm
