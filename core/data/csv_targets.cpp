#include "core/data/csv_targets.h"

#include "core/data/load_error.h"

#include <cmath>
#include <map>

namespace elab::core::detail {

namespace {

std::string integerName(double v) { return std::to_string(static_cast<long long>(v)); }

// Integer labels: one class per value, so "1" and "1.0" are the same class, named "1".
std::vector<std::string> classesByValue(LevelTable& levels) {
    std::map<double, int> values;
    levels.forEach([&](const std::string& text, Level& level) {
        double v = 0;
        if (level.keptCount > 0 && parseNumber(text, v) == NumberKind::Finite)
            values.emplace(v, 0);
    });
    std::vector<std::string> names;
    for (auto& [value, index] : values) {
        index = static_cast<int>(names.size());
        names.push_back(integerName(value));
    }
    levels.forEach([&](const std::string& text, Level& level) {
        double v = 0;
        level.index = level.keptCount > 0 && parseNumber(text, v) == NumberKind::Finite ? values.at(v) : -1;
    });
    return names;
}

std::size_t distinctKeptValues(LevelTable& levels) {
    std::map<double, int> values;
    levels.forEach([&](const std::string& text, Level& level) {
        double v = 0;
        if (level.keptCount > 0 && parseNumber(text, v) == NumberKind::Finite)
            values.emplace(v, 0);
    });
    return values.size();
}

} // namespace

Targets buildCsvTargets(ScanResult& scan, std::size_t label, const std::string& labelName, const CsvOptions& options,
                        const std::string& source, std::string& summary, const PublicSchema* schema) {
    ColumnScan& col = scan.columns[label];
    const auto rows = static_cast<Index>(scan.labelValue.size());
    if (schema && !schema->classes.empty()) {
        Eigen::VectorXi classIndex(rows);
        for (Index k = 0; k < rows; ++k)
            classIndex[k] = scan.labelLevel[static_cast<std::size_t>(k)]->schemaClass;
        Targets targets =
            Targets::classification(std::move(classIndex), schema->classes, options.task == TaskKind::Multiclass);
        summary = targets.kind == TaskKind::Binary
                      ? "binary: '" + targets.classNames[0] + "' = -1, '" + targets.classNames[1] + "' = +1"
                      : "multiclass, " + std::to_string(targets.classCount()) + " classes";
        summary += ", from the public schema";
        return targets;
    }
    const bool forcedRegression = options.task == TaskKind::Regression;
    const bool forcedClassification = options.task && !forcedRegression;
    const bool numeric = col.texts == 0;
    if (!numeric && !forcedClassification && col.numbers * 10 >= col.nonMissing() * 9)
        throw LoadError(source, col.firstText.line, col.firstText.column,
                        "text " + quoteCell(col.firstText.text) + " in numeric label column '" + labelName + "' (" +
                            std::to_string(col.numbers) + " of " + std::to_string(col.nonMissing()) +
                            " labels are numbers)");
    if (numeric && col.firstNonFinite.line != 0)
        throw LoadError(source, col.firstNonFinite.line, col.firstNonFinite.column,
                        "non-finite label " + quoteCell(col.firstNonFinite.text) + " in column '" + labelName + "'");
    if (forcedRegression && !numeric)
        throw LoadError(source, col.firstText.line, col.firstText.column,
                        "label column '" + labelName + "' has text (" + quoteCell(col.firstText.text) +
                            "): it cannot be a regression target");

    bool regression = forcedRegression;
    if (!options.task && numeric)
        regression =
            col.nonIntegral || distinctKeptValues(col.levels) > static_cast<std::size_t>(options.maxIntegerClasses);
    if (regression) {
        summary = "regression";
        return Targets::regression(Eigen::Map<const Eigen::VectorXd>(scan.labelValue.data(), rows));
    }

    std::vector<std::string> names =
        numeric && !col.nonIntegral ? classesByValue(col.levels) : col.levels.sortLevels(true);
    if (names.size() < 2)
        throw LoadError(source, 0, 0,
                        "only one class ('" + (names.empty() ? "" : names[0]) + "') in label column '" + labelName +
                            "'");
    if (options.task == TaskKind::Binary && names.size() != 2)
        throw LoadError(source, 0, 0,
                        "binary task requested, but label column '" + labelName + "' has " +
                            std::to_string(names.size()) + " classes");
    Eigen::VectorXi classIndex(rows);
    for (Index k = 0; k < rows; ++k)
        classIndex[k] = scan.labelLevel[static_cast<std::size_t>(k)]->index;
    Targets targets =
        Targets::classification(std::move(classIndex), std::move(names), options.task == TaskKind::Multiclass);
    if (targets.kind == TaskKind::Binary)
        summary = "binary: '" + targets.classNames[0] + "' = -1, '" + targets.classNames[1] + "' = +1";
    else
        summary = "multiclass, " + std::to_string(targets.classCount()) + " classes";
    return targets;
}

} // namespace elab::core::detail
