#include "core/data/libsvm_loader.h"

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

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// A token as shown in a message: printable and short, even for binary garbage.
std::string quoted(std::string_view token) {
    std::string s = "'";
    const std::size_t n = std::min<std::size_t>(token.size(), 40);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        if (c >= 0x20 && c < 0x7f)
            s += static_cast<char>(c);
        else
            s += {'\\', 'x', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
    }
    return s + (token.size() > n ? "...'" : "'");
}

// For a well-formed number that from_chars found out of range: true if it is too small
// (rounds to zero) rather than too large, from its decimal magnitude.
bool isUnderflow(std::string_view t) {
    std::size_t i = t.empty() || (t[0] != '-' && t[0] != '+') ? 0 : 1;
    long long intDigits = 0, zerosAfterPoint = 0;
    bool nonzero = false, afterPoint = false;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
        if (t[i] == '.')
            afterPoint = true;
        else if (nonzero || t[i] != '0') {
            nonzero = true;
            intDigits += afterPoint ? 0 : 1;
        } else if (afterPoint)
            ++zerosAfterPoint;
    }
    long long exponent = 0;
    bool negative = false; // the exponent's sign
    if (i < t.size() && ++i < t.size() && (t[i] == '-' || t[i] == '+'))
        negative = t[i++] == '-';
    for (; i < t.size(); ++i)
        exponent = std::min(exponent * 10 + (t[i] - '0'), 1'000'000'000LL);
    return (intDigits > 0 ? intDigits : -zerosAfterPoint) + (negative ? -exponent : exponent) <= 0;
}

enum class NumberStatus { Ok, Bad, NotFinite, Overflow };

// A decimal real; from_chars plus the leading '+' that LIBSVM labels use ("+1"). Underflow
// gives a signed zero, as strtod would.
NumberStatus parseReal(std::string_view token, double& value) {
    const std::string_view digits = token.substr(!token.empty() && token[0] == '+' ? 1 : 0);
    if (digits.empty() || (digits.size() < token.size() && (digits[0] == '-' || digits[0] == '+')))
        return NumberStatus::Bad;
    const char* last = digits.data() + digits.size();
    // Unsigned integers (binary features, counts, labels) skip the slower floating-point
    // parse; up to 2^53 the conversion is exact, so the value is the one from_chars gives.
    std::uint64_t n = 0;
    if (const auto ri = std::from_chars(digits.data(), last, n);
        ri.ptr == last && ri.ec == std::errc() && n <= (std::uint64_t{1} << 53)) {
        value = static_cast<double>(n);
        return NumberStatus::Ok;
    }
    const auto r = std::from_chars(digits.data(), last, value);
    if (r.ptr != last || r.ec == std::errc::invalid_argument)
        return NumberStatus::Bad;
    if (r.ec == std::errc::result_out_of_range) {
        if (!isUnderflow(digits))
            return NumberStatus::Overflow;
        value = digits.front() == '-' ? -0.0 : 0.0;
    }
    return std::isfinite(value) ? NumberStatus::Ok : NumberStatus::NotFinite;
}

// Message tail for a number that did not parse; nullptr when it did.
const char* numberProblem(NumberStatus status) {
    switch (status) {
    case NumberStatus::Ok: return nullptr;
    case NumberStatus::NotFinite: return " is not finite (inf/NaN)";
    case NumberStatus::Overflow: return " is out of range for a double";
    default: return " is not a number";
    }
}

std::string className(double label) { return std::to_string(static_cast<long long>(label)); }

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
    Targets buildTargets() const;
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
    struct {
        std::size_t line = 0, column = 0;
        std::string token;
    } m_firstReal;
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
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
        line = line.substr(0, hash);
    std::size_t pos = 0;
    std::string_view token;
    // Next blank-separated token and its 1-based column, or 0 at the end of the line.
    auto next = [&]() -> std::size_t {
        while (pos < line.size() && isBlank(line[pos]))
            ++pos;
        if (pos == line.size())
            return 0;
        const std::size_t start = pos;
        while (pos < line.size() && !isBlank(line[pos]))
            ++pos;
        token = line.substr(start, pos - start);
        return start + 1;
    };
    std::size_t column = next();
    if (column == 0) { // blank or comment line
        ++m_skippedLines;
        return;
    }
    const std::size_t rowStart = m_nnz, beyondStart = m_beyondWidth;
    parseLabel(token, column);
    m_lastIndex = 0;
    while ((column = next()) != 0)
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

Targets Parser::buildTargets() const {
    const std::optional<TaskKind> task = m_options.task;
    const auto rows = static_cast<Index>(m_labels.size());
    if (m_classes) {
        Eigen::VectorXi classIndex(rows);
        for (Index i = 0; i < rows; ++i)
            classIndex[i] = static_cast<int>(m_labels[static_cast<std::size_t>(i)]);
        return Targets::classification(std::move(classIndex), m_classes->classes, task == TaskKind::Multiclass);
    }
    const bool integral = m_firstReal.line == 0;
    if (task == TaskKind::Regression || (!task && !integral))
        return Targets::regression(Eigen::Map<const Eigen::VectorXd>(m_labels.data(), rows));
    if (!integral)
        fail(m_firstReal.line, m_firstReal.column,
             "label " + m_firstReal.token + " is not an integer class, but the task was forced to " + toString(*task));

    std::vector<double> classes = m_labels;
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    if (classes.size() == 1)
        fail(0, 0,
             "all " + std::to_string(rows) + " rows have label " + className(classes[0]) +
                 ": classification needs at least two classes (force the regression task "
                 "to load it anyway)");
    if (task == TaskKind::Binary && classes.size() > 2)
        fail(0, 0, "the task was forced to binary, but the labels have " + std::to_string(classes.size()) + " classes");

    std::vector<std::string> names;
    if (classes.size() == 2 && classes[0] == -1.0 && classes[1] == 1.0)
        names = {"-1", "+1"};
    else
        for (const double c : classes)
            names.push_back(className(c));
    Eigen::VectorXi classIndex(rows);
    for (Index i = 0; i < rows; ++i) {
        const double label = m_labels[static_cast<std::size_t>(i)];
        classIndex[i] = static_cast<int>(std::lower_bound(classes.begin(), classes.end(), label) - classes.begin());
    }
    // Two classes are binary unless a multiclass task is forced.
    return Targets::classification(std::move(classIndex), std::move(names), task == TaskKind::Multiclass);
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
    data.targets = buildTargets();
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
