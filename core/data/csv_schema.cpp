#include "core/data/csv_schema.h"

#include "core/data/load_error.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace elab::core::detail {

namespace {

std::string formatNumber(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

[[noreturn]] void nothingToImpute(const std::string& source, const std::string& name) {
    throw LoadError(source, 0, 0,
                    "column '" + name +
                        "' has no value to impute from (every kept "
                        "cell is missing); ignore the column");
}

// Most frequent finite value; ties go to the smallest, so the choice does not depend on order.
double mostFrequentValue(const ColumnScan& col) {
    double best = 0;
    std::size_t bestCount = 0;
    for (const auto& [value, count] : col.valueCounts)
        if (count > bestCount) {
            best = value;
            bestCount = count;
        }
    return best;
}

// Most frequent level in the kept rows; ties go to the first level in sorted order.
int mostFrequentLevel(LevelTable& levels) {
    int best = -1;
    std::size_t bestCount = 0;
    levels.forEach([&](const std::string&, Level& level) {
        if (level.index >= 0 && level.keptCount > 0 &&
            (level.keptCount > bestCount || (level.keptCount == bestCount && level.index < best))) {
            best = level.index;
            bestCount = level.keptCount;
        }
    });
    return best;
}

// Indices of a column's levels from the schema's list; levels outside it get −1 and are
// counted (kept cells) for the log.
void applySchemaLevels(LevelTable& table, const std::vector<std::string>& levels, const std::string& name,
                       CsvLayout& layout) {
    std::unordered_map<std::string_view, int> position;
    for (std::size_t k = 0; k < levels.size(); ++k)
        position.emplace(levels[k], static_cast<int>(k));
    std::vector<std::pair<std::string, std::size_t>> unseen;
    table.forEach([&](const std::string& text, Level& level) {
        const auto it = position.find(text);
        level.index = it == position.end() ? -1 : it->second;
        if (level.index < 0 && level.keptCount > 0)
            unseen.emplace_back(text, level.keptCount);
    });
    if (unseen.empty())
        return;
    std::sort(unseen.begin(), unseen.end(), [](const auto& a, const auto& b) { return naturalLess(a.first, b.first); });
    std::size_t rows = 0;
    std::string list;
    for (std::size_t k = 0; k < unseen.size(); ++k) {
        rows += unseen[k].second;
        if (k < 5)
            list += (k ? ", " : "") + name + "=" + unseen[k].first + " (" + std::to_string(unseen[k].second) + ")";
    }
    if (unseen.size() > 5)
        list += ", ... (" + std::to_string(unseen.size()) + " levels)";
    layout.unseenLevels.push_back(name + ": " + std::to_string(rows) + " row" + (rows == 1 ? "" : "s") + ", " + list);
}

bool before(const CellLocation& a, const CellLocation& b) {
    return a.line < b.line || (a.line == b.line && a.column < b.column);
}

} // namespace

std::vector<ColumnKind> inferColumnKinds(const ScanResult& scan, const std::vector<std::string>& names,
                                         const std::string& source, bool& mixedText) {
    std::vector<ColumnKind> kinds(names.size(), ColumnKind::Numeric);
    mixedText = false;
    for (std::size_t c = 0; c < names.size(); ++c) {
        const ColumnScan& col = scan.columns[c];
        switch (col.role) {
        case ScanRole::Ignored: kinds[c] = ColumnKind::Ignored; continue;
        case ScanRole::Label: kinds[c] = ColumnKind::Label; continue;
        case ScanRole::Categorical: kinds[c] = ColumnKind::Categorical; continue;
        case ScanRole::Infer: break;
        }
        const bool mostlyNumbers = col.numbers * 10 >= col.nonMissing() * 9;
        const bool textError = col.texts > 0 && mostlyNumbers;
        const bool infError = col.firstNonFinite.line != 0 && (col.texts == 0 || mostlyNumbers);
        if (infError && (!textError || before(col.firstNonFinite, col.firstText)))
            throw LoadError(source, col.firstNonFinite.line, col.firstNonFinite.column,
                            "non-finite value " + quoteCell(col.firstNonFinite.text) + " in numeric column '" +
                                names[c] + "' (features must be finite numbers)");
        if (textError)
            throw LoadError(source, col.firstText.line, col.firstText.column,
                            "text " + quoteCell(col.firstText.text) + " in numeric column '" + names[c] + "' (" +
                                std::to_string(col.numbers) + " of " + std::to_string(col.nonMissing()) +
                                " values are numbers)");
        if (col.texts > 0) {
            kinds[c] = ColumnKind::Categorical;
            mixedText = mixedText || col.numbers > 0;
        }
    }
    return kinds;
}

CsvLayout layoutCsvFeatures(ScanResult& scan, const std::vector<std::string>& names,
                            const std::vector<ColumnKind>& kinds, const CsvOptions& options, char delimiter,
                            const std::string& source, Dataset& data, const PublicSchema* schema) {
    CsvLayout layout;
    EncodePlan& plan = layout.plan;
    plan.delimiter = delimiter;
    plan.keep = &scan.keep;
    plan.marks = &scan.marks;
    plan.rows = static_cast<Index>(scan.keptRows);
    plan.columns.resize(names.size());
    const bool mean = options.missing == MissingPolicy::ImputeMean;
    Index feature = 0;
    for (std::size_t c = 0; c < names.size(); ++c) {
        ColumnScan& col = scan.columns[c];
        ColumnInfo info;
        info.name = names[c];
        info.kind = kinds[c];
        info.missing = col.missing;
        EncodedColumn& enc = plan.columns[c];
        if (kinds[c] == ColumnKind::Numeric) {
            enc.kind = EncodedColumn::Kind::Numeric;
            if (col.keptMissing > 0) { // only under an imputation policy
                if (col.keptValues == 0)
                    nothingToImpute(source, names[c]);
                enc.fill = mean ? static_cast<double>(col.keptSum / static_cast<long double>(col.keptValues))
                                : mostFrequentValue(col);
                layout.imputed.push_back(names[c] + ": " + std::to_string(col.keptMissing) + " cells <- " +
                                         formatNumber(enc.fill) + (mean ? " (mean)" : " (most frequent)"));
            }
            plan.nonZeros += col.keptNonZero + (enc.fill != 0.0 ? col.keptMissing : 0);
            data.featureNames.push_back(names[c]);
            ++layout.numericColumns;
        } else if (kinds[c] == ColumnKind::Categorical) {
            enc.kind = EncodedColumn::Kind::Categorical;
            enc.levels = &col.levels;
            if (const SchemaColumn* declared = schema ? schema->find(names[c]) : nullptr) {
                info.levels = declared->levels;
                applySchemaLevels(col.levels, declared->levels, names[c], layout);
                enc.unseenAsZero = true;
                layout.schemaLevels.push_back(names[c]);
            } else {
                // The levels of the whole file, dropped rows included (the encoding does not
                // depend on the missing-value policy): read from the data (docs/MATH.md §1.6).
                info.levels = col.levels.sortLevels(false);
                layout.dataLevels.push_back(names[c]);
            }
            if (col.keptMissing > 0) {
                enc.fillLevel = mostFrequentLevel(col.levels);
                if (enc.fillLevel < 0)
                    nothingToImpute(source, names[c]);
                layout.imputed.push_back(names[c] + ": " + std::to_string(col.keptMissing) + " cells <- '" +
                                         info.levels[static_cast<std::size_t>(enc.fillLevel)] + "' (most frequent)");
            }
            enc.levelCount = static_cast<Index>(info.levels.size());
            for (const std::string& level : info.levels)
                data.featureNames.push_back(names[c] + "=" + level);
            plan.nonZeros += scan.keptRows;
            ++layout.categoricalColumns;
            layout.indicatorFeatures += info.levels.size();
            layout.oneHot.push_back(names[c] + " (" + std::to_string(info.levels.size()) + " levels)");
        }
        if (enc.kind != EncodedColumn::Kind::Skip) {
            info.firstFeature = feature;
            info.featureCount = static_cast<Index>(info.kind == ColumnKind::Numeric ? 1 : info.levels.size());
            enc.firstFeature = feature;
            feature += info.featureCount;
        }
        data.columns.push_back(std::move(info));
    }
    plan.features = feature;
    const double entries = static_cast<double>(plan.rows) * static_cast<double>(plan.features);
    layout.density = entries > 0 ? static_cast<double>(plan.nonZeros) / entries : 0.0;
    plan.sparse = layout.density <= options.sparseDensityThreshold;
    // Eigen's sparse indices are int; a dense matrix past 2^31 entries (16 GiB) is a mistake
    // (an identifier column one-hot encoded, usually) better reported than attempted.
    constexpr double intLimit = static_cast<double>(std::numeric_limits<int>::max());
    if (static_cast<double>(plan.features) > intLimit || static_cast<double>(plan.nonZeros) > intLimit ||
        (!plan.sparse && entries > intLimit))
        throw LoadError(source, 0, 0,
                        "too large: " + std::to_string(plan.rows) + " rows x " + std::to_string(plan.features) +
                            " features; ignore high-cardinality text columns");
    return layout;
}

} // namespace elab::core::detail
