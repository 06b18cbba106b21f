#include "core/data/dataset_loader.h"

#include "core/data/builtin_catalog.h"
#include "core/data/generators.h"
#include "core/data/load_error.h"
#include "core/data/source_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <stdexcept>

namespace elab::core {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "<label> <int>:<value>" or "<label>" followed by "qid:" — the shape of a LIBSVM line.
bool looksLikeLibsvmLine(std::string_view line) {
    std::size_t pos = line.find_first_of(" \t");
    if (pos == std::string_view::npos)
        return false;
    const std::string_view rest = line.substr(pos);
    const std::size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos)
        return false;
    const std::string_view token = rest.substr(start, rest.find_first_of(" \t", start) - start);
    const std::size_t colon = token.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    if (token.substr(0, colon) == "qid")
        return true;
    return std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(colon),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string knownBuiltins() {
    std::string names;
    for (const auto& info : builtinCatalog())
        names += (names.empty() ? "" : ", ") + info.name;
    return names;
}

// "moons?rows=500&noise=0.2&seed=3" → generator options (classes: blobs only; features and
// active: sparse only).
GeneratorOptions parseGeneratorQuery(const std::string& spec, const std::string& name, const std::string& query) {
    GeneratorOptions options;
    const bool sparse = name == "sparse";
    if (sparse)
        options.rows = 20'000; // 400 rows over 1,000 features teach nothing
    std::size_t pos = 0;
    while (pos < query.size()) {
        const std::size_t amp = std::min(query.find('&', pos), query.size());
        const std::string item = query.substr(pos, amp - pos);
        pos = amp + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw LoadError(spec, 0, 0, "expected key=value in '" + item + "'");
        const std::string key = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        const char* first = value.data();
        const char* last = value.data() + value.size();
        std::from_chars_result r{};
        if (key == "rows") {
            r = std::from_chars(first, last, options.rows);
            if (r.ec == std::errc() && (options.rows < 2 || options.rows > 100'000'000))
                r.ec = std::errc::result_out_of_range;
        } else if (key == "noise") {
            r = std::from_chars(first, last, options.noise);
            if (r.ec == std::errc() && !(options.noise >= 0.0 && options.noise <= 10.0))
                r.ec = std::errc::result_out_of_range;
        } else if (key == "classes" && name == "blobs") {
            r = std::from_chars(first, last, options.classes);
            if (r.ec == std::errc() && (options.classes < 2 || options.classes > 20))
                r.ec = std::errc::result_out_of_range;
        } else if (key == "features" && sparse) {
            r = std::from_chars(first, last, options.features);
            if (r.ec == std::errc() && (options.features < 2 || options.features > 10'000'000))
                r.ec = std::errc::result_out_of_range;
        } else if (key == "active" && sparse) {
            r = std::from_chars(first, last, options.active);
            if (r.ec == std::errc() && (options.active < 1 || options.active > 1000))
                r.ec = std::errc::result_out_of_range;
        } else if (key == "seed") {
            r = std::from_chars(first, last, options.seed);
        } else {
            throw LoadError(spec, 0, 0,
                            "unknown option '" + key + "' for builtin:" + name + " (" +
                                (sparse            ? "rows, features, active, noise, seed"
                                 : name == "blobs" ? "rows, noise, classes, seed"
                                                   : "rows, noise, seed") +
                                ")");
        }
        if (r.ec != std::errc() || r.ptr != last)
            throw LoadError(spec, 0, 0, "bad value '" + value + "' for " + key);
    }
    if (sparse && options.active > options.features)
        throw LoadError(spec, 0, 0,
                        "active (" + std::to_string(options.active) + ") must not exceed features (" +
                            std::to_string(options.features) + ")");
    if (options.rows * (sparse ? options.active : 2) > 1'000'000'000)
        throw LoadError(spec, 0, 0,
                        "rows × " + std::string(sparse ? "active" : "2") +
                            " is over 10⁹ stored values; ask for fewer rows");
    return options;
}

Dataset loadBuiltin(const std::string& spec, const LoadOptions& options, const BuiltinBytes& builtinBytes,
                    RunContext* ctx) {
    std::string name = spec.substr(std::string("builtin:").size());
    std::string query;
    if (const std::size_t q = name.find('?'); q != std::string::npos) {
        query = name.substr(q + 1);
        name = name.substr(0, q);
    }
    const BuiltinInfo* info = findBuiltin(name);
    if (!info)
        throw LoadError(spec, 0, 0, "unknown built-in dataset '" + name + "' (known: " + knownBuiltins() + ")");
    if (isGeneratorName(name)) {
        Dataset data = generateDataset(name, parseGeneratorQuery(spec, name, query), ctx);
        data.provenance.path = spec;
        data.provenance.format = "generated";
        return data;
    }
    if (!query.empty())
        throw LoadError(spec, 0, 0, "options after '?' are only for generated datasets");
    std::optional<std::string> bytes = builtinBytes ? builtinBytes(info->fileName) : std::nullopt;
    if (!bytes)
        throw LoadError(spec, 0, 0, "built-in file '" + info->fileName + "' is not embedded in this build");
    RawSource raw = sourceFromBytes(std::move(*bytes), spec, ctx);
    CsvOptions csv = options.csv;
    if (csv.labelColumn.empty())
        csv.labelColumn = info->labelColumn;
    const PublicSchema schema = schemaFor(spec, options);
    Dataset data = loadCsv(raw.text, spec, csv, ctx, &schema);
    if (!info->classNames.empty() && data.targets.isClassification() &&
        data.targets.classCount() == static_cast<int>(info->classNames.size()) &&
        csv.labelColumn == info->labelColumn) {
        data.log.push_back(
            {"class names",
             "codes 0.." + std::to_string(info->classNames.size() - 1) + " named from the dataset's documentation",
             false});
        data.targets.classNames = info->classNames;
    }
    data.name = name;
    data.provenance = {spec, "csv", raw.gzipped, raw.sha256, raw.storedBytes};
    return data;
}

} // namespace

PublicSchema schemaFor(const std::string& spec, const LoadOptions& options) {
    if (!options.schema.empty())
        return options.schema;
    if (!options.findSchema)
        return {};
    if (spec.rfind("builtin:", 0) == 0) {
        const std::string name =
            spec.substr(8, spec.find('?') == std::string::npos ? std::string::npos : spec.find('?') - 8);
        return documentedSchema(name, options.csv.labelColumn, options.csv.task);
    }
    const std::string sibling = siblingSchemaPath(spec);
    std::error_code ec;
    if (std::filesystem::is_regular_file(sibling, ec))
        return loadSchemaFile(sibling);
    return {};
}

FileFormat detectFormat(const std::string& path, std::string_view text) {
    std::string name = lower(std::filesystem::path(path).filename().string());
    if (endsWith(name, ".gz"))
        name.resize(name.size() - 3);
    if (endsWith(name, ".csv") || endsWith(name, ".tsv"))
        return FileFormat::Csv;
    if (endsWith(name, ".libsvm") || endsWith(name, ".svm") || endsWith(name, ".svmlight"))
        return FileFormat::Libsvm;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        return looksLikeLibsvmLine(line) ? FileFormat::Libsvm : FileFormat::Csv;
    }
    return FileFormat::Csv;
}

namespace {

Dataset loadFileSource(const std::string& spec, const RawSource& raw, const LoadOptions& options, RunContext* ctx) {
    const FileFormat format = options.format == FileFormat::Auto ? detectFormat(spec, raw.text) : options.format;
    const PublicSchema schema = schemaFor(spec, options);
    Dataset data = format == FileFormat::Libsvm ? loadLibsvm(raw.text, spec, options.libsvm, ctx, &schema)
                                                : loadCsv(raw.text, spec, options.csv, ctx, &schema);
    data.name = std::filesystem::path(spec).filename().string();
    data.provenance = {spec, format == FileFormat::Libsvm ? "libsvm" : "csv", raw.gzipped, raw.sha256, raw.storedBytes};
    return data;
}

} // namespace

Dataset loadDataset(const std::string& spec, const LoadOptions& options, const BuiltinBytes& builtinBytes,
                    RunContext* ctx) {
    if (spec.rfind("builtin:", 0) == 0)
        return loadBuiltin(spec, options, builtinBytes, ctx);
    return loadFileSource(spec, readSource(spec, ctx), options, ctx);
}

std::string datasetText(const std::string& spec, const BuiltinBytes& builtinBytes, RunContext* ctx) {
    if (spec.rfind("builtin:", 0) != 0)
        return readSource(spec, ctx).text;
    std::string name = spec.substr(std::string("builtin:").size());
    const BuiltinInfo* info = findBuiltin(name.substr(0, name.find('?')));
    if (!info)
        throw LoadError(spec, 0, 0, "unknown built-in dataset '" + name + "' (known: " + knownBuiltins() + ")");
    if (isGeneratorName(info->name))
        throw LoadError(spec, 0, 0, "a generated dataset, not read from a file: it has no rows as text");
    std::optional<std::string> bytes = builtinBytes ? builtinBytes(info->fileName) : std::nullopt;
    if (!bytes)
        throw LoadError(spec, 0, 0, "built-in file '" + info->fileName + "' is not embedded in this build");
    return sourceFromBytes(std::move(*bytes), spec, ctx).text;
}

Dataset loadDatasetText(const std::string& spec, std::string text, const LoadOptions& options, RunContext* ctx) {
    if (spec.rfind("builtin:", 0) == 0)
        return loadBuiltin(
            spec, options, [&](const std::string&) { return std::optional<std::string>(text); }, ctx);
    return loadFileSource(spec, sourceFromBytes(std::move(text), spec, ctx), options, ctx);
}

} // namespace elab::core
