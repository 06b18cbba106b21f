#include "core/data/public_schema.h"

#include "core/data/csv_cells.h"
#include "core/data/load_error.h"
#include "core/data/source_reader.h"

#include <charconv>
#include <set>
#include <stdexcept>

namespace elab::core {

namespace {

// Past this a LIBSVM width is an error in the loader too (libsvm_loader.cpp).
constexpr Index kMaxWidth = Index{1} << 24;

std::string trimmed(std::string_view s) { return std::string(detail::trimBlanks(s)); }

// One schema line's fields: comma-separated, a field may be double-quoted ("" is a quote).
std::vector<std::string> splitLine(std::string_view line, const std::string& source, std::size_t lineNo) {
    std::vector<std::string> fields;
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        std::string field;
        if (i < line.size() && line[i] == '"') {
            const std::size_t open = i++;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    closed = true;
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                throw LoadError(source, lineNo, open + 1, "unterminated quoted field");
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
            if (i < line.size() && line[i] != ',')
                throw LoadError(source, lineNo, i + 1, "text after a closing quote (expected ',')");
            field = trimmed(field);
        } else {
            const std::size_t comma = line.find(',', i);
            field = trimmed(line.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i));
            i = comma == std::string_view::npos ? line.size() : comma;
        }
        fields.push_back(std::move(field));
        if (i >= line.size())
            break;
        ++i; // the comma
    }
    return fields;
}

std::optional<TaskKind> taskNamed(const std::string& name) {
    if (name == "binary")
        return TaskKind::Binary;
    if (name == "multiclass")
        return TaskKind::Multiclass;
    if (name == "regression")
        return TaskKind::Regression;
    return std::nullopt;
}

bool isNumber(std::string_view s, double& value) {
    return !s.empty() && detail::parseNumber(detail::trimBlanks(s), value) == detail::NumberKind::Finite;
}

std::string quoteField(const std::string& s) {
    if (s.find_first_of("\r\n") != std::string::npos)
        throw std::invalid_argument("'" + s + "' contains a line break, which a schema file cannot hold");
    const bool needs = s.empty() || s.find_first_of(",\"") != std::string::npos || s.front() == '#' ||
                       s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t';
    if (!needs)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

const SchemaColumn* PublicSchema::find(std::string_view column) const {
    for (const SchemaColumn& c : categorical)
        if (c.name == column)
            return &c;
    return nullptr;
}

int PublicSchema::classIndex(std::string_view label) const {
    const std::string_view text = detail::trimBlanks(label);
    for (std::size_t k = 0; k < classes.size(); ++k)
        if (classes[k] == text)
            return static_cast<int>(k);
    double value = 0;
    if (!isNumber(text, value))
        return -1;
    for (std::size_t k = 0; k < classes.size(); ++k)
        if (double c = 0; isNumber(classes[k], c) && c == value)
            return static_cast<int>(k);
    return -1;
}

std::string PublicSchema::validate() const {
    if (task == TaskKind::Regression && !classes.empty())
        return "a regression task has no classes, but " + std::to_string(classes.size()) + " are given";
    if (classes.size() == 1)
        return "one class ('" + classes[0] + "'): classification needs at least two";
    if (task == TaskKind::Binary && !classes.empty() && classes.size() != 2)
        return "a binary task needs 2 classes, not " + std::to_string(classes.size());
    for (std::size_t k = 0; k < classes.size(); ++k) {
        if (classes[k].empty())
            return "an empty class name";
        if (const int first = classIndex(classes[k]); first != static_cast<int>(k))
            return "class '" + classes[k] + "' is the same as class '" + classes[static_cast<std::size_t>(first)] + "'";
    }
    std::set<std::string> names;
    for (const SchemaColumn& c : categorical) {
        if (c.name.empty())
            return "a categorical column without a name";
        if (!names.insert(c.name).second)
            return "column '" + c.name + "' is given twice";
        if (c.levels.empty())
            return "column '" + c.name + "' has no levels";
        if (!labelColumn.empty() && c.name == labelColumn)
            return "column '" + c.name + "' is the label: give its values as classes";
        std::set<std::string> levels;
        for (const std::string& l : c.levels)
            if (!levels.insert(l).second)
                return "column '" + c.name + "': level '" + l + "' is given twice";
    }
    if (width < 0 || width > kMaxWidth)
        return "the width must be between 1 and " + std::to_string(kMaxWidth);
    return {};
}

PublicSchema parseSchema(std::string_view text, const std::string& source) {
    PublicSchema out;
    std::size_t lineNo = 0, start = 0;
    std::size_t labelLine = 0, taskLine = 0, widthLine = 0, firstClassLine = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const std::string_view content = detail::trimBlanks(line);
        if (content.empty() || content.front() == '#')
            continue;
        const std::vector<std::string> f = splitLine(line, source, lineNo);
        const std::string& kind = f[0];
        const auto expect = [&](std::size_t n, const char* shape) {
            if (f.size() != n)
                throw LoadError(source, lineNo, 0,
                                "'" + kind + "' takes " + std::to_string(n - 1) + " field" + (n == 2 ? "" : "s") +
                                    " (" + shape + "), found " + std::to_string(f.size() - 1));
            for (std::size_t k = 1; k < n; ++k)
                if (f[k].empty())
                    throw LoadError(source, lineNo, 0, "'" + kind + "' with an empty field (" + shape + ")");
        };
        if (kind == "class") {
            expect(2, "class,<name>");
            const int same = out.classIndex(f[1]);
            if (same >= 0)
                throw LoadError(source, lineNo, 0,
                                "class '" + f[1] + "' is given twice (as '" +
                                    out.classes[static_cast<std::size_t>(same)] + "')");
            out.classes.push_back(f[1]);
            firstClassLine = firstClassLine ? firstClassLine : lineNo;
        } else if (kind == "level") {
            expect(3, "level,<column>,<level>");
            SchemaColumn* column = nullptr;
            for (SchemaColumn& c : out.categorical)
                if (c.name == f[1])
                    column = &c;
            if (!column)
                column = &out.categorical.emplace_back(SchemaColumn{f[1], {}});
            for (const std::string& l : column->levels)
                if (l == f[2])
                    throw LoadError(source, lineNo, 0, "column '" + f[1] + "': level '" + f[2] + "' is given twice");
            column->levels.push_back(f[2]);
            if (!out.labelColumn.empty() && f[1] == out.labelColumn)
                throw LoadError(source, lineNo, 0,
                                "'" + f[1] + "' is the label column: give its values as 'class' entries");
        } else if (kind == "label") {
            expect(2, "label,<column>");
            if (labelLine)
                throw LoadError(source, lineNo, 0,
                                "a second 'label' entry (the first is on line " + std::to_string(labelLine) + ")");
            if (out.find(f[1]))
                throw LoadError(source, lineNo, 0,
                                "'" + f[1] + "' has 'level' entries: the label's values are 'class' entries");
            out.labelColumn = f[1];
            labelLine = lineNo;
        } else if (kind == "task") {
            expect(2, "task,binary|multiclass|regression");
            if (taskLine)
                throw LoadError(source, lineNo, 0,
                                "a second 'task' entry (the first is on line " + std::to_string(taskLine) + ")");
            out.task = taskNamed(f[1]);
            if (!out.task)
                throw LoadError(source, lineNo, 0, "unknown task '" + f[1] + "' (binary, multiclass or regression)");
            taskLine = lineNo;
        } else if (kind == "width") {
            expect(2, "width,<number of features>");
            if (widthLine)
                throw LoadError(source, lineNo, 0,
                                "a second 'width' entry (the first is on line " + std::to_string(widthLine) + ")");
            long long n = 0;
            const auto r = std::from_chars(f[1].data(), f[1].data() + f[1].size(), n);
            if (r.ec != std::errc() || r.ptr != f[1].data() + f[1].size() || n < 1 || n > kMaxWidth)
                throw LoadError(source, lineNo, 0,
                                "width '" + f[1] + "' is not a whole number of features in 1.." +
                                    std::to_string(kMaxWidth));
            out.width = static_cast<Index>(n);
            widthLine = lineNo;
        } else {
            throw LoadError(source, lineNo, 1,
                            "unknown entry '" + kind + "' (expected label, task, class, level or width)");
        }
    }
    if (out.empty())
        throw LoadError(source, 0, 0, "the schema file declares nothing (no class, level, width or task entry)");
    // Whole-file problems, at the line that makes them one.
    if (out.task == TaskKind::Regression && !out.classes.empty())
        throw LoadError(source, taskLine, 0,
                        "task 'regression' with 'class' entries (line " + std::to_string(firstClassLine) +
                            "): a regression target has no classes");
    if (out.task == TaskKind::Binary && !out.classes.empty() && out.classes.size() != 2)
        throw LoadError(source, taskLine, 0,
                        "task 'binary' needs 2 classes, the file gives " + std::to_string(out.classes.size()));
    if (out.classes.size() == 1)
        throw LoadError(source, firstClassLine, 0,
                        "one class ('" + out.classes[0] + "'): classification needs at least two");
    out.source = source;
    if (const std::string problem = out.validate(); !problem.empty())
        throw LoadError(source, 0, 0, problem);
    return out;
}

PublicSchema loadSchemaFile(const std::string& path) { return parseSchema(readSource(path).text, path); }

std::string schemaFileText(const PublicSchema& schema) {
    std::string out =
        "# EpsilonLab public schema: what the encoding may know without reading the data.\n"
        "# Review it: every level and class below must be public knowledge (a codebook, the\n"
        "# survey's documentation), not something only this data shows. Format: README, \"Public schema\".\n";
    if (!schema.labelColumn.empty())
        out += "label," + quoteField(schema.labelColumn) + "\n";
    if (schema.task)
        out += std::string("task,") + toString(*schema.task) + "\n";
    for (const std::string& c : schema.classes)
        out += "class," + quoteField(c) + "\n";
    for (const SchemaColumn& column : schema.categorical)
        for (const std::string& level : column.levels)
            out += "level," + quoteField(column.name) + "," + quoteField(level) + "\n";
    if (schema.width > 0)
        out += "width," + std::to_string(schema.width) + "\n";
    return out;
}

PublicSchema schemaOfDataset(const Dataset& data) {
    PublicSchema out;
    for (const ColumnInfo& c : data.columns) {
        if (c.kind == ColumnKind::Label)
            out.labelColumn = c.name;
        else if (c.kind == ColumnKind::Categorical)
            out.categorical.push_back({c.name, c.levels});
    }
    out.task = data.targets.kind;
    if (data.targets.isClassification())
        out.classes = data.targets.classNames;
    if (data.columns.empty())
        out.width = data.featureCount();
    out.source = data.provenance.path.empty() ? data.name : data.provenance.path;
    return out;
}

PublicSchema schemaForLabel(const PublicSchema& schema, const std::string& label) {
    if (schema.labelColumn.empty() || schema.labelColumn == label)
        return schema;
    PublicSchema out;
    out.source = schema.source + ", for label '" + label + "'";
    out.width = schema.width;
    for (const SchemaColumn& c : schema.categorical) {
        if (c.name == label)
            out.classes = c.levels;
        else
            out.categorical.push_back(c);
    }
    if (out.classes.size() == 1) // one level is no class list
        out.classes.clear();
    out.labelColumn = out.classes.empty() ? std::string() : label;
    return out;
}

std::string siblingSchemaPath(const std::string& dataPath) { return dataPath + ".schema"; }

} // namespace elab::core
