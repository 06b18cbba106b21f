#include "core/data/csv_loader.h"

#include "core/data/csv_encode.h"
#include "core/data/csv_scan.h"
#include "core/data/csv_schema.h"
#include "core/data/csv_targets.h"
#include "core/data/csv_tokenizer.h"
#include "core/data/load_error.h"
#include "core/util/join.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <unordered_map>

namespace elab::core {

const char* toString(MissingPolicy policy) {
    switch (policy) {
    case MissingPolicy::DropRows: return "drop rows";
    case MissingPolicy::ImputeMean: return "impute mean";
    case MissingPolicy::ImputeMostFrequent: return "impute most frequent";
    }
    return "?";
}

const OptionNames<MissingPolicy>& missingPolicyNames() {
    static const OptionNames<MissingPolicy> names{{MissingPolicy::DropRows, "drop"},
                                                  {MissingPolicy::ImputeMean, "mean"},
                                                  {MissingPolicy::ImputeMostFrequent, "most-frequent"}};
    return names;
}

std::string CsvOptions::validate() const {
    if (delimiter != 0 && delimiter != ',' && delimiter != ';' && delimiter != '\t' && delimiter != ' ')
        return "the delimiter must be ',', ';', a tab, ' ' (runs of blanks) or 0 (detect)";
    if (missing != MissingPolicy::DropRows && missing != MissingPolicy::ImputeMean &&
        missing != MissingPolicy::ImputeMostFrequent)
        return "unknown missing-value policy";
    if (task && *task != TaskKind::Binary && *task != TaskKind::Multiclass && *task != TaskKind::Regression)
        return "unknown task";
    if (maxIntegerClasses < 2)
        return "maxIntegerClasses must be at least 2, not " + std::to_string(maxIntegerClasses);
    if (!(sparseDensityThreshold >= 0.0 && sparseDensityThreshold <= 1.0))
        return "sparseDensityThreshold must be in [0, 1]";
    for (const std::string& name : categoricalColumns) {
        if (name.empty())
            return "empty name in categoricalColumns";
        if (std::find(ignoredColumns.begin(), ignoredColumns.end(), name) != ignoredColumns.end())
            return "column '" + name + "' is both categorical and ignored";
    }
    for (const std::string& name : ignoredColumns) {
        if (name.empty())
            return "empty name in ignoredColumns";
        if (name == labelColumn)
            return "the label column '" + name + "' cannot be ignored";
    }
    return {};
}

namespace {

using namespace detail;

std::string listColumns(const std::vector<std::string>& names) {
    std::string list;
    const std::size_t shown = std::min<std::size_t>(names.size(), 30);
    for (std::size_t i = 0; i < shown; ++i)
        list += (i ? ", " : "") + names[i];
    if (shown < names.size())
        list += ", ... (" + std::to_string(names.size()) + " in all)";
    return list;
}

// Empty names get "column_N" (the index column pandas writes has none); duplicates are an
// error because columns are chosen by name (label, categorical, ignored) and features must be
// told apart.
std::vector<std::string> headerNames(std::string_view text, char delimiter, const std::string& source,
                                     std::size_t& headerLine) {
    std::vector<std::string> names = readHeaderFields(text, delimiter, source, headerLine);
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty())
            names[i] = "column_" + std::to_string(i + 1);
        const auto [it, inserted] = seen.emplace(names[i], i);
        if (!inserted)
            throw LoadError(source, headerLine, i + 1,
                            "duplicate column name '" + names[i] + "' (also column " + std::to_string(it->second + 1) +
                                ")");
    }
    return names;
}

// By exact name first (a header may be called "0"), then as a 0-based index, negative from
// the end. Empty: the last column.
std::size_t resolveLabel(const std::string& spec, const std::vector<std::string>& names, const std::string& source,
                         std::size_t headerLine) {
    const auto n = static_cast<long long>(names.size());
    if (spec.empty())
        return names.size() - 1;
    if (const auto it = std::find(names.begin(), names.end(), spec); it != names.end())
        return static_cast<std::size_t>(it - names.begin());
    long long index = 0;
    const auto r = std::from_chars(spec.data(), spec.data() + spec.size(), index);
    if (r.ec == std::errc() && r.ptr == spec.data() + spec.size()) {
        const long long resolved = index < 0 ? n + index : index;
        if (resolved < 0 || resolved >= n)
            throw LoadError(source, headerLine, 0,
                            "label column index " + spec + " is out of range: " + std::to_string(n) + " columns (" +
                                listColumns(names) + ")");
        return static_cast<std::size_t>(resolved);
    }
    throw LoadError(source, headerLine, 0, "label column '" + spec + "' not found; columns: " + listColumns(names));
}

void assignRoles(ScanResult& scan, const std::vector<std::string>& names, std::size_t label, const CsvOptions& options,
                 const std::string& source, std::size_t headerLine, const PublicSchema* schema) {
    scan.columns = std::vector<ColumnScan>(names.size());
    scan.columns[label].role = ScanRole::Label;
    const auto find = [&](const std::string& name, const char* what) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end())
            throw LoadError(source, headerLine, 0,
                            std::string(what) + " column '" + name + "' not found; columns: " + listColumns(names));
        return static_cast<std::size_t>(it - names.begin());
    };
    for (const std::string& name : options.categoricalColumns)
        if (const std::size_t c = find(name, "categorical"); c != label)
            scan.columns[c].role = ScanRole::Categorical;
    for (const std::string& name : options.ignoredColumns) {
        const std::size_t c = find(name, "ignored");
        if (c == label)
            throw LoadError(source, headerLine, c + 1, "the label column '" + name + "' cannot be ignored");
        scan.columns[c].role = ScanRole::Ignored;
    }
    // A column the public schema declares is categorical (its levels are the schema's) even
    // if its cells look numeric.
    static const std::vector<SchemaColumn> none;
    for (const SchemaColumn& declared : schema ? schema->categorical : none) {
        const auto it = std::find(names.begin(), names.end(), declared.name);
        if (it == names.end())
            throw LoadError(source, headerLine, 0,
                            "column '" + declared.name + "' of the public schema (" + schema->source +
                                ") is not in this file; columns: " + listColumns(names));
        const auto c = static_cast<std::size_t>(it - names.begin());
        if (c == label)
            throw LoadError(source, headerLine, c + 1,
                            "the public schema (" + schema->source + ") gives levels for '" + declared.name +
                                "', the label column: give its values as classes");
        if (scan.columns[c].role != ScanRole::Ignored)
            scan.columns[c].role = ScanRole::Categorical;
    }
    if (std::none_of(scan.columns.begin(), scan.columns.end(), [](const ColumnScan& col) {
            return col.role == ScanRole::Infer || col.role == ScanRole::Categorical;
        }))
        throw LoadError(source, headerLine, 0, "no feature columns: every column but the label is ignored");
}

[[noreturn]] void noRowsLeft(const ScanResult& scan, const std::vector<std::string>& names, std::size_t label,
                             const std::string& source) {
    if (scan.missingLabelRows == scan.records)
        throw LoadError(source, 0, 0, "no rows left: the label '" + names[label] + "' is missing in every row");
    if (scan.outsideLabelRows + scan.missingLabelRows == scan.records)
        throw LoadError(source, 0, 0,
                        "no rows left: no row's label '" + names[label] + "' is one of the public schema's classes");
    std::size_t worst = label;
    for (std::size_t c = 0; c < names.size(); ++c)
        if (scan.columns[c].role != ScanRole::Ignored && c != label &&
            scan.columns[c].missing > scan.columns[worst].missing)
            worst = c;
    throw LoadError(source, 0, 0,
                    "no rows left: every row has a missing value (column '" + names[worst] + "' is missing in " +
                        std::to_string(scan.columns[worst].missing) + " of " + std::to_string(scan.records) +
                        " rows); impute or ignore such columns");
}

// The "schema" step: where the levels, the classes and the task came from. Anything read from
// the rows makes the encoding a function of the private data (docs/MATH.md §1.6): it leaks.
ProcessingStep schemaStep(const Dataset& data, const CsvLayout& layout, const std::string& labelName,
                          const CsvOptions& options, const PublicSchema* schema) {
    std::vector<std::string> read, declared;
    if (!layout.dataLevels.empty())
        read.push_back("the levels of " + joined(layout.dataLevels));
    if (!layout.schemaLevels.empty())
        declared.push_back("the levels of " + joined(layout.schemaLevels));
    const bool schemaClasses = schema && !schema->classes.empty();
    if (data.targets.isClassification()) {
        std::string classes = "the classes of '" + labelName + "' (" + std::to_string(data.targets.classCount()) + ")";
        (schemaClasses ? declared : read).push_back(classes);
    } else if (options.task) {
        declared.push_back("a regression target");
    } else {
        read.push_back("the task (regression: the labels of '" + labelName + "' are not a few integers)");
    }
    if (!read.empty())
        return {"schema",
                "read from this file's rows, which are private: " + joined(read, "; ") +
                    ". Replacing one row can add or remove a level or a class and so change the encoding's "
                    "dimension and the number of models: no finite ε holds for it. Declare them public (a schema "
                    "file, --schema FILE, or the Data tab) to encode without reading the rows" +
                    (declared.empty()
                         ? std::string()
                         : " (" + (schema ? "from the public schema (" + schema->source + ")" : std::string("given")) +
                               ": " + joined(declared, "; ") + ")"),
                true};
    std::string detail = schema
                             ? "public schema (" + schema->source + "): " + joined(declared, "; ")
                             : "nothing read from the rows: numeric columns" +
                                   (declared.empty() ? std::string() : ", " + joined(declared, "; ") + " (task given)");
    for (const std::string& unseen : layout.unseenLevels)
        detail += "; outside the schema, encoded as an all-zero one-hot: " + unseen;
    return {"schema", detail, false};
}

void logLoad(Dataset& data, const ScanResult& scan, const CsvLayout& layout, const std::vector<std::string>& names,
             std::size_t label, char delimiter, const std::string& targetSummary, const CsvOptions& options,
             const PublicSchema* schema) {
    const MissingPolicy policy = options.missing;
    std::size_t ignored = 0;
    for (const ColumnInfo& info : data.columns)
        ignored += info.kind == ColumnKind::Ignored ? 1 : 0;
    char density[32];
    std::snprintf(density, sizeof density, "%.3g", layout.density);
    data.log.push_back({"loaded",
                        std::to_string(scan.records) + " data rows x " + std::to_string(names.size()) + " columns, " +
                            delimiterName(delimiter) + "-delimited; " + std::to_string(layout.numericColumns) +
                            " numeric, " + std::to_string(layout.categoricalColumns) + " categorical" +
                            (ignored ? ", " + std::to_string(ignored) + " ignored" : std::string()) + "; label '" +
                            names[label] + "' (" + targetSummary + "); " + std::to_string(layout.plan.rows) +
                            " rows x " + std::to_string(layout.plan.features) + " features, " +
                            (layout.plan.sparse ? "sparse" : "dense") + " (density " + density + ")",
                        false});
    if (!layout.oneHot.empty()) {
        std::string detail;
        for (const std::string& s : layout.oneHot)
            detail += (detail.empty() ? "" : ", ") + s;
        const std::string levels = layout.dataLevels.empty() ? "levels from the public schema"
                                   : layout.schemaLevels.empty()
                                       ? "levels read from this file, sorted"
                                       : "levels from the public schema or read from this file";
        data.log.push_back(
            {"one-hot encode",
             detail + " -> " + std::to_string(layout.indicatorFeatures) + " indicator features; " + levels, false});
    }
    data.log.push_back(schemaStep(data, layout, names[label], options, schema));
    const std::size_t incomplete = scan.records - scan.keptRows - scan.missingLabelRows - scan.outsideLabelRows;
    if (scan.missingLabelRows > 0)
        data.log.push_back(
            {"drop rows", "dropped " + std::to_string(scan.missingLabelRows) + " rows whose label is missing", false});
    if (scan.outsideLabelRows > 0)
        data.log.push_back({"drop rows",
                            "dropped " + std::to_string(scan.outsideLabelRows) +
                                " rows whose label is not one of the public schema's classes (row by row: "
                                "no other row is affected)",
                            false});
    if (incomplete > 0) {
        std::string detail = "dropped " + std::to_string(incomplete) + " of " + std::to_string(scan.records) +
                             " rows with a missing value (" + toString(policy) + "); missing cells:";
        for (std::size_t c = 0; c < names.size(); ++c)
            if (scan.columns[c].missing > 0 && scan.columns[c].role != ScanRole::Ignored)
                detail += " " + names[c] + " " + std::to_string(scan.columns[c].missing) + ";";
        detail.pop_back();
        data.log.push_back({"drop rows", detail, false});
    }
    if (!layout.imputed.empty()) {
        std::string detail;
        for (const std::string& s : layout.imputed)
            detail += (detail.empty() ? "" : "; ") + s;
        data.log.push_back(
            {std::string("impute (") + (policy == MissingPolicy::ImputeMean ? "mean" : "most frequent") + ")",
             detail + " (statistics of this data: leaks)", true});
    }
}

} // namespace

namespace {

// The options with the schema's task where the options give none. Throws LoadError when they
// contradict each other.
CsvOptions withSchema(const CsvOptions& given, const PublicSchema& schema, const std::string& source) {
    CsvOptions options = given;
    const auto isRegression = [](std::optional<TaskKind> t) { return t == TaskKind::Regression; };
    if (schema.task && options.task && isRegression(schema.task) != isRegression(options.task))
        throw LoadError(source, 0, 0,
                        std::string("the task is ") + toString(*options.task) + ", but the public schema (" +
                            schema.source + ") says " + toString(*schema.task));
    if (!options.task)
        options.task = schema.task;
    if (!schema.classes.empty()) {
        if (options.task == TaskKind::Regression)
            throw LoadError(source, 0, 0,
                            "the task is regression, but the public schema (" + schema.source + ") gives classes");
        if (options.task == TaskKind::Binary && schema.classes.size() != 2)
            throw LoadError(source, 0, 0,
                            "binary task requested, but the public schema (" + schema.source + ") gives " +
                                std::to_string(schema.classes.size()) + " classes");
    }
    return options;
}

} // namespace

Dataset loadCsv(std::string_view text, const std::string& sourceName, const CsvOptions& givenOptions, RunContext* ctx,
                const PublicSchema* schema) {
    const std::string& source = sourceName;
    if (const std::string problem = givenOptions.validate(); !problem.empty())
        throw LoadError(source, 0, 0, "invalid CSV options: " + problem);
    if (schema && schema->empty())
        schema = nullptr;
    if (schema)
        if (const std::string problem = schema->validate(); !problem.empty())
            throw LoadError(schema->source, 0, 0, problem);
    CsvOptions options = givenOptions;
    if (schema && options.labelColumn.empty())
        options.labelColumn = schema->labelColumn;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") // Excel's "Unicode text"
        throw LoadError(source, 1, 0, "the file is UTF-16 text; save it as UTF-8 (CSV UTF-8)");
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw LoadError(source, 0, 0, "empty file");
    const char delimiter = options.delimiter ? options.delimiter : detectDelimiter(text);
    std::size_t headerLine = 0;
    const std::vector<std::string> names = headerNames(text, delimiter, source, headerLine);
    if (names.size() < 2)
        throw LoadError(source, headerLine, 0,
                        "the header has one column ('" + names[0] +
                            "'): need at least one feature and a label (separated by , ; tab or blanks)");
    const std::size_t label = resolveLabel(options.labelColumn, names, source, headerLine);
    // Another label than the schema's: its classes become that column's levels (and a declared
    // column chosen as the label gives its levels as the classes).
    PublicSchema relabelled;
    if (schema && !schema->labelColumn.empty() && names[label] != schema->labelColumn) {
        relabelled = schemaForLabel(*schema, names[label]);
        schema = relabelled.empty() ? nullptr : &relabelled;
    }
    if (schema)
        options = withSchema(options, *schema, source);

    ScanPlan plan{delimiter, label, options.missing == MissingPolicy::DropRows,
                  schema && !schema->classes.empty() ? schema : nullptr};
    ScanResult scan;
    assignRoles(scan, names, label, options, source, headerLine, schema);
    scanCsv(text, source, plan, scan, ctx, 0.0, 0.5);
    if (scan.records == 0)
        throw LoadError(source, 0, 0, "no data rows: the file has only a header");
    bool mixedText = false;
    std::vector<ColumnKind> kinds = inferColumnKinds(scan, names, source, mixedText);
    // Rare second reading: text of mixed columns and value counts were not kept by pass 1.
    bool needModes = false;
    for (std::size_t c = 0; c < names.size(); ++c)
        needModes = needModes || (options.missing == MissingPolicy::ImputeMostFrequent &&
                                  kinds[c] == ColumnKind::Numeric && scan.columns[c].keptMissing > 0);
    if (mixedText || needModes) {
        std::vector<ColumnScan> columns(names.size());
        for (std::size_t c = 0; c < names.size(); ++c) {
            columns[c].role = kinds[c] == ColumnKind::Categorical ? ScanRole::Categorical : scan.columns[c].role;
            columns[c].countValues = needModes && kinds[c] == ColumnKind::Numeric;
        }
        scan = ScanResult{};
        scan.columns = std::move(columns);
        scanCsv(text, source, plan, scan, ctx, 0.0, 0.5);
        kinds = inferColumnKinds(scan, names, source, mixedText);
    }
    if (scan.keptRows == 0)
        noRowsLeft(scan, names, label, source);

    Dataset data;
    std::string targetSummary;
    data.targets = buildCsvTargets(scan, label, names[label], options, source, targetSummary, schema);
    const CsvLayout layout = layoutCsvFeatures(scan, names, kinds, options, delimiter, source, data, schema);
    data.features = encodeCsv(text, source, layout.plan, ctx, 0.5, 0.5);
    logLoad(data, scan, layout, names, label, delimiter, targetSummary, options, schema);
    data.provenance.format = "csv";
    if (ctx)
        ctx->progress(1.0, "parsing");
    return data;
}

} // namespace elab::core
