#include "core/data/libsvm_loader.h"

#include "core/data/libsvm_labels.h"
#include "core/data/libsvm_tokens.h"
#include "core/data/load_error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

namespace elab::core {

namespace {

using libsvm::numberProblem;
using libsvm::parseReal;
using libsvm::quoted;
using StorageIndex = SparseMatrix::StorageIndex;

// A stray huge index must not make the loader allocate gigabytes (feature names and every
// weight vector are O(p)); 2^24 still covers the large LIBSVM sets (news20 1.4 M features,
// url 3.2 M, webspam trigrams 16.6 M).
constexpr Index kMaxFeatures = Index{1} << 24;
// Eigen's sparse indices are int: that bounds rows and stored entries.
constexpr std::size_t kMaxEntries = static_cast<std::size_t>(std::numeric_limits<StorageIndex>::max());
constexpr std::size_t kCheckEvery = 4096; // lines between stop checks / progress reports
// Integral labels are exact in a double up to 2^53; beyond that they are reals, not classes.
constexpr double kMaxClassLabel = 9007199254740992.0;
constexpr const char* kStage = "reading LIBSVM";

std::string shortNumber(double v) {
    char buf[32];
    return {buf, static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "%.4g", v))};
}

class Parser {
public:
    Parser(std::string_view text, const std::string& source, const LibsvmOptions& options, RunContext* ctx,
           const PublicSchema* schema)
        : m_text(text), m_source(source), m_options(options), m_ctx(ctx),
          m_classes(schema && !schema->classes.empty() ? schema : nullptr),
          m_width(options.featureCount > 0 ? options.featureCount
                  : schema                 ? schema->width
                                           : 0),
          m_widthIgnores(options.featureCount == 0 && schema && schema->width > 0),
          m_schemaSource(schema ? schema->source : std::string()) {}
    void run();
    Dataset finish();

private:
    [[noreturn]] void fail(std::size_t line, std::size_t column, std::string message) const {
        throw LoadError(m_source, line, column, std::move(message));
    }
    void parseLine(std::string_view line);
    void parseLabel(std::string_view token, std::size_t column);
    void parseFeature(std::string_view token, std::size_t column);
    std::string describe(const Targets& targets, Index cols) const;
    ProcessingStep schemaStep(const Targets& targets, Index cols) const;

    std::string_view m_text;
    const std::string& m_source;
    const LibsvmOptions& m_options;
    RunContext* m_ctx;
    const PublicSchema* m_classes; // a public schema's classes (labels outside drop their line), or nullptr
    const Index m_width;           // a given width (option or schema), 0: the largest index
    const bool m_widthIgnores;     // the schema's width: features beyond it are ignored, not an error
    const std::string m_schemaSource;
    std::size_t m_line = 0;
    bool m_lineOutside = false; // the current line's label is not one of the schema's classes
    std::size_t m_outsideRows = 0;
    std::size_t m_beyondWidth = 0; // non-zero values beyond the schema's width, ignored

    // The CSR arrays are written in place, in file order (rows and, within a row, ascending
    // indices are exactly CSR order), into a matrix sized by upper bounds and trimmed at the
    // end: no triplets, no per-element insert.
    SparseMatrix m_x;
    std::size_t m_capacity = 0; // entries allocated in m_x
    std::size_t m_nnz = 0;
    std::vector<double> m_labels;
    Index m_maxIndex = 0;
    Index m_lastIndex = 0; // previous index on the current line
    std::size_t m_skippedLines = 0;
    std::size_t m_explicitZeros = 0;

    // The first non-integral label (line 0: none), which makes the task regression, or an
    // error when a classification task was forced.
    libsvm::LabelAt m_firstReal;
};

void Parser::run() {
    std::string_view text = m_text;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") // a UTF-8 BOM from Windows editors
        text.remove_prefix(3);
    // Upper bounds: one row per line, one stored entry per ':' (a fast vectorised count).
    const auto count = [&](char c) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), c)); };
    const std::size_t lines = std::min(count('\n') + 1, kMaxEntries);
    m_capacity = std::min(count(':'), kMaxEntries);
    m_labels.reserve(lines);
    m_x = SparseMatrix(static_cast<Index>(lines), 1); // outer index zeroed; width set at the end
    m_x.resizeNonZeros(static_cast<Index>(m_capacity));

    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto* nl = static_cast<const char*>(std::memchr(text.data() + pos, '\n', text.size() - pos));
        const std::size_t end = nl ? static_cast<std::size_t>(nl - text.data()) : text.size();
        ++m_line;
        parseLine(text.substr(pos, end - pos));
        pos = end + 1;
        if (m_ctx && m_line % kCheckEvery == 0) {
            m_ctx->throwIfStopped();
            m_ctx->progress(static_cast<double>(std::min(pos, text.size())) / static_cast<double>(text.size()), kStage);
        }
    }
}

void Parser::parseLine(std::string_view line) {
    libsvm::LineTokens tokens(line);
    std::string_view token;
    std::size_t column = tokens.next(token);
    if (column == 0) { // blank or comment line
        ++m_skippedLines;
        return;
    }
    const std::size_t rowStart = m_nnz, beyondStart = m_beyondWidth;
    parseLabel(token, column);
    m_lastIndex = 0;
    while ((column = tokens.next(token)) != 0)
        parseFeature(token, column);
    if (m_lineOutside) { // checked like every line, then dropped as a whole
        m_lineOutside = false;
        m_labels.pop_back();
        m_nnz = rowStart;
        m_beyondWidth = beyondStart;
        ++m_outsideRows;
    }
    m_x.outerIndexPtr()[m_labels.size()] = static_cast<StorageIndex>(m_nnz);
}

void Parser::parseLabel(std::string_view token, std::size_t column) {
    if (token.find(':') != std::string_view::npos)
        fail(m_line, column, "expected a label before the features, found " + quoted(token));
    if (m_labels.size() >= kMaxEntries)
        fail(m_line, column, "too many rows for one matrix");
    double label = 0.0;
    if (const char* problem = numberProblem(parseReal(token, label)))
        fail(m_line, column, "label " + quoted(token) + problem);
    if (m_classes) { // the class's index among the schema's classes is stored as the label
        const int k = m_classes->classIndex(token);
        m_lineOutside = k < 0;
        m_labels.push_back(static_cast<double>(k));
        return;
    }
    m_labels.push_back(label);
    if (m_firstReal.line == 0 && (std::trunc(label) != label || std::fabs(label) > kMaxClassLabel))
        m_firstReal = {m_line, column, quoted(token)};
}

void Parser::parseFeature(std::string_view token, std::size_t column) {
    const std::size_t colon = token.find(':');
    if (colon == std::string_view::npos)
        fail(m_line, column, "expected <index>:<value>, found " + quoted(token));
    const std::string_view key = token.substr(0, colon);
    const std::string_view valueText = token.substr(colon + 1);
    if (key == "qid") { // SVMlight query id: ranking data, meaningless here
        long long qid = 0;
        const auto r = std::from_chars(valueText.data(), valueText.data() + valueText.size(), qid);
        if (valueText.empty() || r.ec != std::errc() || r.ptr != valueText.data() + valueText.size())
            fail(m_line, column + colon + 1, "bad qid " + quoted(valueText) + ": expected an integer");
        return;
    }
    if (key.empty())
        fail(m_line, column, "missing feature index before ':'");
    std::uint64_t index = 0;
    const auto r = std::from_chars(key.data(), key.data() + key.size(), index);
    if (r.ptr != key.data() + key.size() || r.ec == std::errc::invalid_argument)
        fail(m_line, column, "bad feature index " + quoted(key) + ": expected a positive integer");
    if (r.ec == std::errc::result_out_of_range || index > static_cast<std::uint64_t>(kMaxFeatures))
        fail(m_line, column,
             "feature index " + quoted(key) + " exceeds the supported maximum of " + std::to_string(kMaxFeatures) +
                 " features");
    if (index == 0)
        fail(m_line, column, "feature index 0: indices start at 1");
    const auto idx = static_cast<Index>(index);
    if (m_width > 0 && idx > m_width && !m_widthIgnores)
        fail(m_line, column,
             "feature index " + std::to_string(idx) + " exceeds the feature count " + std::to_string(m_width));
    if (idx <= m_lastIndex)
        fail(m_line, column,
             "feature index " + std::to_string(idx) +
                 (idx == m_lastIndex ? " repeated" : " after " + std::to_string(m_lastIndex)) +
                 ": indices must be strictly ascending");
    const std::size_t valueColumn = column + colon + 1;
    if (valueText.empty())
        fail(m_line, valueColumn, "missing value for feature " + std::to_string(idx));
    double value = 0.0;
    if (const char* problem = numberProblem(parseReal(valueText, value)))
        fail(m_line, valueColumn, "value " + quoted(valueText) + " for feature " + std::to_string(idx) + problem);
    m_lastIndex = idx;
    m_maxIndex = std::max(m_maxIndex, idx);
    // Explicit zeros still count towards the feature count (writers append "123:0" to fix
    // the dimension), but storing them would only slow the sparse kernels down.
    if (value == 0.0) {
        ++m_explicitZeros;
        return;
    }
    if (m_widthIgnores && idx > m_width) { // beyond the public width: ignored, as for a test file
        ++m_beyondWidth;
        return;
    }
    if (m_nnz == m_capacity) // only when the ':' count was capped at Eigen's int limit
        fail(m_line, column, "too many non-zeros for one matrix");
    m_x.innerIndexPtr()[m_nnz] = static_cast<StorageIndex>(idx - 1);
    m_x.valuePtr()[m_nnz++] = value;
}

std::string Parser::describe(const Targets& targets, Index cols) const {
    const double cells = static_cast<double>(m_labels.size()) * static_cast<double>(cols);
    std::string s = "LIBSVM: " + std::to_string(m_labels.size()) + " rows, " + std::to_string(cols) + " features, " +
                    std::to_string(m_nnz) + " non-zeros (" + shortNumber(100.0 * static_cast<double>(m_nnz) / cells) +
                    " %); " + toString(targets.kind) + (m_options.task ? " (forced)" : "") + " labels";
    if (targets.isClassification()) {
        const std::vector<Index> counts = targets.classCounts();
        for (std::size_t k = 0; k < counts.size(); ++k)
            s += (k == 0 ? " (" : ", ") + targets.classNames[k] + ": " + std::to_string(counts[k]);
        s += ")";
    } else {
        s += " in [" + shortNumber(targets.values->minCoeff()) + ", " + shortNumber(targets.values->maxCoeff()) + "]";
    }
    if (m_explicitZeros > 0)
        s += "; " + std::to_string(m_explicitZeros) + " explicit zeros not stored";
    if (m_outsideRows > 0)
        s += "; " + std::to_string(m_outsideRows) +
             " rows whose label is not one of the public schema's classes dropped";
    if (m_beyondWidth > 0)
        s += "; " + std::to_string(m_beyondWidth) + " non-zero values beyond the public width ignored";
    if (m_skippedLines > 0)
        s += "; " + std::to_string(m_skippedLines) + " blank or comment lines skipped";
    return s;
}

ProcessingStep Parser::schemaStep(const Targets& targets, Index cols) const {
    std::vector<std::string> read, declared;
    (m_width > 0 ? declared : read)
        .push_back("the width (" + std::to_string(cols) +
                   (m_width > 0 ? (m_widthIgnores ? " features)" : " features, --features)")
                                : " features: the largest index)"));
    if (targets.isClassification())
        (m_classes ? declared : read).push_back("the classes (" + std::to_string(targets.classCount()) + ")");
    else
        (m_options.task ? declared : read)
            .push_back(m_options.task ? "a regression target" : "the task (regression: a label is not an integer)");
    const auto joined = [](const std::vector<std::string>& items) {
        std::string out;
        for (const std::string& item : items)
            out += (out.empty() ? "" : "; ") + item;
        return out;
    };
    if (!read.empty())
        return {"schema",
                "read from this file's rows, which are private: " + joined(read) +
                    ". Replacing one row can change them and so the encoding's dimension or the number of models: no "
                    "finite ε holds for it. Declare them public (a schema file with width and class entries, "
                    "--schema FILE) to encode without reading the rows" +
                    (declared.empty() ? std::string() : " (given: " + joined(declared) + ")"),
                true};
    return {"schema",
            (m_schemaSource.empty() ? std::string("given") : "public schema (" + m_schemaSource + ")") + ": " +
                joined(declared),
            false};
}

Dataset Parser::finish() {
    if (m_labels.empty())
        fail(0, 0,
             m_text.empty()      ? "empty file"
             : m_outsideRows > 0 ? "no rows left: no label is one of the public schema's classes"
                                 : "no data: only blank lines and comments");
    const Index cols = m_width > 0 ? m_width : m_maxIndex;
    if (cols == 0)
        fail(0, 0, "no features: no line has an <index>:<value> pair");
    Dataset data;
    data.targets = libsvm::targetsOfLabels(m_labels, m_options.task, m_classes, m_firstReal, m_source);
    data.log.push_back({"loaded", describe(data.targets, cols), false});
    data.log.push_back(schemaStep(data.targets, cols));

    // Trim to the real size: both dimensions only shrink the outer index or grow the inner
    // size, which conservativeResize does without touching the entries.
    m_x.resizeNonZeros(static_cast<Index>(m_nnz));
    m_x.conservativeResize(static_cast<Index>(m_labels.size()), cols);
    // Eigen 3.4's SparseMatrix cannot move (a "move" copies), so buffers change hands by
    // swap; copy-and-swap returns a large unused reservation (qid:, zeros, ':' in comments).
    if (m_capacity - m_nnz > m_nnz / 4 + 4096)
        SparseMatrix(m_x).swap(m_x);               // the copy allocates exactly nnz
    data.features = FeatureMatrix(std::move(m_x)); // takes the buffers (swap)
    // Feature names stay implicit ("f1".."fp", Dataset::featureName).
    data.name = std::filesystem::path(m_source).filename().string();
    data.provenance.path = m_source;
    data.provenance.format = "libsvm";
    if (m_ctx)
        m_ctx->progress(1.0, kStage);
    return data;
}

} // namespace

std::string LibsvmOptions::validate() const {
    if (featureCount < 0)
        return "feature count must be 0 (from the data) or positive, got " + std::to_string(featureCount);
    if (featureCount > kMaxFeatures)
        return "feature count " + std::to_string(featureCount) + " exceeds the supported maximum of " +
               std::to_string(kMaxFeatures);
    if (task && (*task < TaskKind::Binary || *task > TaskKind::Regression))
        return "unknown task kind";
    return {};
}

Dataset loadLibsvm(std::string_view text, const std::string& sourceName, const LibsvmOptions& givenOptions,
                   RunContext* ctx, const PublicSchema* schema) {
    if (const std::string problem = givenOptions.validate(); !problem.empty())
        throw LoadError(sourceName, 0, 0, "invalid options: " + problem);
    LibsvmOptions options = givenOptions;
    if (schema && schema->empty())
        schema = nullptr;
    if (schema) {
        if (const std::string problem = schema->validate(); !problem.empty())
            throw LoadError(schema->source, 0, 0, problem);
        if (!schema->categorical.empty())
            throw LoadError(sourceName, 0, 0,
                            "the public schema (" + schema->source + ") gives levels of CSV column '" +
                                schema->categorical.front().name + "': a LIBSVM file has no named columns");
        const auto isRegression = [](std::optional<TaskKind> t) { return t == TaskKind::Regression; };
        if (schema->task && options.task && isRegression(schema->task) != isRegression(options.task))
            throw LoadError(sourceName, 0, 0,
                            std::string("the task is ") + toString(*options.task) + ", but the public schema (" +
                                schema->source + ") says " + toString(*schema->task));
        if (!options.task)
            options.task = schema->task;
        if (!schema->classes.empty() && options.task == TaskKind::Regression)
            throw LoadError(sourceName, 0, 0,
                            "the task is regression, but the public schema (" + schema->source + ") gives classes");
        if (!schema->classes.empty() && options.task == TaskKind::Binary && schema->classes.size() != 2)
            throw LoadError(sourceName, 0, 0,
                            "binary task requested, but the public schema (" + schema->source + ") gives " +
                                std::to_string(schema->classes.size()) + " classes");
    }
    Parser parser(text, sourceName, options, ctx, schema);
    parser.run();
    return parser.finish();
}

} // namespace elab::core
