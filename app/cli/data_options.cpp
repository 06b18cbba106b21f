#include "app/cli/data_options.h"

namespace elab::app {

namespace {
std::optional<core::TaskKind> parseTask(const std::string& task) {
    if (task == "binary")
        return core::TaskKind::Binary;
    if (task == "multiclass")
        return core::TaskKind::Multiclass;
    if (task == "regression")
        return core::TaskKind::Regression;
    return std::nullopt;
}
} // namespace

void DataOptions::addTo(CLI::App& command) {
    command.add_option("--data", spec, "Dataset: a CSV or LIBSVM file (optionally .gz), or builtin:NAME")->required();
    command.add_option("--label", label, "Label column of a CSV: header name or 0-based index (-1 = last)");
    command.add_option("--format", format, "File format")->check(CLI::IsMember({"auto", "csv", "libsvm"}));
    command.add_option("--missing", missing, "Missing values: drop rows, impute the mean, or the most frequent value")
        ->check(CLI::IsMember(core::optionNameList(core::missingPolicyNames())));
    command.add_option("--task", task, "Force the task instead of inferring it from the labels")
        ->check(CLI::IsMember({"binary", "multiclass", "regression"}));
    command.add_option("--categorical", categorical, "CSV columns to one-hot encode even if numeric")->delimiter(',');
    command.add_option("--ignore", ignore, "CSV columns to leave out")->delimiter(',');
    command.add_option("--features", featureCount, "LIBSVM: number of features (default: largest index)")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--schema", schema,
                       "Public schema: a file of the categorical columns' levels, the classes and a LIBSVM width "
                       "(README, \"Public schema\"), so that the encoding is not read from the private rows. "
                       "Default: FILE.schema beside the data if it exists, a built-in's documented schema; "
                       "'none': read them from the rows (leaks)");
}

core::LoadOptions DataOptions::toLoadOptions() const {
    core::LoadOptions options;
    options.format = format == "csv"      ? core::FileFormat::Csv
                     : format == "libsvm" ? core::FileFormat::Libsvm
                                          : core::FileFormat::Auto;
    options.csv.labelColumn = label;
    options.csv.missing =
        core::fromOptionName(core::missingPolicyNames(), missing).value_or(core::MissingPolicy::DropRows);
    options.csv.task = parseTask(task);
    options.csv.categoricalColumns = categorical;
    options.csv.ignoredColumns = ignore;
    options.libsvm.task = parseTask(task);
    options.libsvm.featureCount = static_cast<core::Index>(featureCount);
    if (schema == "none")
        options.findSchema = false;
    else if (!schema.empty())
        options.schema = core::loadSchemaFile(schema);
    return options;
}

} // namespace elab::app
