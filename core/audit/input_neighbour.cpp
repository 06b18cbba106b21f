#include "core/audit/input_neighbour.h"

#include "core/data/csv_cells.h"
#include "core/data/csv_tokenizer.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

namespace elab::core {

const OptionNames<InputNeighbourKind>& inputNeighbourNames() {
    static const OptionNames<InputNeighbourKind> names{{InputNeighbourKind::Label, "input-label"},
                                                       {InputNeighbourKind::Level, "input-level"},
                                                       {InputNeighbourKind::Add, "input-add"}};
    return names;
}

const char* toString(InputNeighbourKind kind) { return optionName(inputNeighbourNames(), kind); }

namespace {

struct Record {
    std::size_t begin = 0, end = 0; ///< bytes of the text, its line break included
    std::size_t line = 0;
    std::vector<std::string> fields;
    std::vector<char> quoted;
};

struct Table {
    char delimiter = ',';
    Record header;
    std::vector<Record> rows;
};

Table readTable(const std::string& text, char delimiter) {
    Table t;
    t.delimiter = delimiter ? delimiter : detail::detectDelimiter(text);
    detail::CsvTokenizer tokenizer(text, t.delimiter, "the audited file");
    std::vector<detail::CsvField> fields;
    bool first = true;
    for (;;) {
        Record r;
        r.begin = tokenizer.position();
        if (!tokenizer.next(fields))
            break;
        r.end = tokenizer.position();
        r.line = tokenizer.recordLine();
        for (const detail::CsvField& f : fields) {
            r.fields.emplace_back(detail::trimBlanks(f.text));
            r.quoted.push_back(f.quoted ? 1 : 0);
        }
        if (first)
            t.header = std::move(r);
        else
            t.rows.push_back(std::move(r));
        first = false;
    }
    return t;
}

std::string quoteIfNeeded(const std::string& value, bool wasQuoted, char delimiter) {
    const bool needs = wasQuoted || value.find_first_of(std::string("\"\r\n") + delimiter) != std::string::npos ||
                       (delimiter == ' ' && value.find('\t') != std::string::npos);
    if (!needs)
        return value;
    std::string out = "\"";
    for (char c : value) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string recordText(const Record& r, char delimiter) {
    std::string out;
    for (std::size_t i = 0; i < r.fields.size(); ++i) {
        if (i)
            out += delimiter;
        out += quoteIfNeeded(r.fields[i], r.quoted[i] != 0, delimiter);
    }
    return out;
}

// The text with row r's record replaced by replacement (a record without its line break), or
// removed when replacement is nullopt. The bytes before the record (blank lines) are kept.
std::string withRecord(const std::string& text, const Table& t, std::size_t r,
                       const std::optional<std::string>& replacement) {
    const Record& rec = t.rows[r];
    // The record's own text starts after any blank lines the tokenizer skipped before it.
    std::size_t begin = rec.begin;
    while (begin < rec.end && (text[begin] == '\n' || text[begin] == '\r'))
        ++begin;
    std::string out = text.substr(0, begin);
    if (replacement) {
        out += *replacement;
        // Keep the record's line break (if it had one).
        std::size_t tail = rec.end;
        while (tail > begin && (text[tail - 1] == '\n' || text[tail - 1] == '\r'))
            --tail;
        out += text.substr(tail, rec.end - tail);
    }
    out += text.substr(rec.end);
    return out;
}

bool complete(const Record& r, const std::vector<ColumnInfo>& columns) {
    for (std::size_t c = 0; c < columns.size() && c < r.fields.size(); ++c)
        if (columns[c].kind != ColumnKind::Ignored && detail::isMissingCell(r.fields[c]))
            return false;
    return r.fields.size() == columns.size();
}

// The values of column c over the rows (missing cells left out) and how often each occurs.
std::map<std::string, long long> valueCounts(const Table& t, std::size_t c) {
    std::map<std::string, long long> counts;
    for (const Record& r : t.rows)
        if (c < r.fields.size() && !detail::isMissingCell(r.fields[c]))
            ++counts[r.fields[c]];
    return counts;
}

// The most frequent value of counts other than `except` (ties: the first in order), or "".
std::string mostFrequentOther(const std::map<std::string, long long>& counts, const std::string& except) {
    std::string best;
    long long bestCount = 0;
    for (const auto& [value, count] : counts)
        if (value != except && count > bestCount) {
            best = value;
            bestCount = count;
        }
    return best;
}

struct RareLevel {
    std::size_t row = 0, column = 0;
    long long count = 0;
};

// The first complete row that alone has a level of a categorical column; else the rarest
// level's first complete row. nullopt without a categorical column.
std::optional<RareLevel> rareLevelRow(const Table& t, const std::vector<ColumnInfo>& columns) {
    std::vector<std::map<std::string, long long>> counts(columns.size());
    bool any = false;
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].kind == ColumnKind::Categorical) {
            counts[c] = valueCounts(t, c);
            any = true;
        }
    if (!any)
        return std::nullopt;
    std::optional<RareLevel> best;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (!complete(t.rows[r], columns))
            continue;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (columns[c].kind != ColumnKind::Categorical)
                continue;
            const long long n = counts[c].at(t.rows[r].fields[c]);
            if (!best || n < best->count)
                best = RareLevel{r, c, n};
            if (n == 1)
                return best;
        }
    }
    return best;
}

std::optional<std::size_t> firstCompleteRow(const Table& t, const std::vector<ColumnInfo>& columns) {
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (complete(t.rows[r], columns))
            return r;
    return std::nullopt;
}

std::string quotedValue(const std::string& v) { return "'" + v + "'"; }

} // namespace

InputNeighbour makeInputNeighbour(const std::string& text, const Dataset& loaded, char delimiter,
                                  InputNeighbourKind kind, std::optional<long long> row) {
    if (loaded.provenance.format != "csv")
        throw std::invalid_argument("the audit at the input changes one row of a CSV file; " + loaded.provenance.path +
                                    " is read as " + loaded.provenance.format);
    const Table t = readTable(text, delimiter);
    const std::vector<ColumnInfo>& columns = loaded.columns;
    if (t.header.fields.size() != columns.size())
        throw std::invalid_argument("the audited file's header has " + std::to_string(t.header.fields.size()) +
                                    " fields but the loader read " + std::to_string(columns.size()) + " columns");
    if (t.rows.size() < 2)
        throw std::invalid_argument("the audit at the input needs a file of at least two rows");
    std::size_t label = columns.size();
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].kind == ColumnKind::Label)
            label = c;

    InputNeighbour out;
    out.kind = kind;
    std::optional<RareLevel> rare = rareLevelRow(t, columns);
    std::size_t r = 0;
    std::string why;
    if (row) {
        if (*row < 0 || *row >= static_cast<long long>(t.rows.size()))
            throw std::invalid_argument("row " + std::to_string(*row) + " is not a data row of the file (0.." +
                                        std::to_string(t.rows.size() - 1) + ")");
        r = static_cast<std::size_t>(*row);
    } else if (rare) {
        r = rare->row;
        why = rare->count == 1
                  ? "the only row with " + columns[rare->column].name + " = " +
                        quotedValue(t.rows[r].fields[rare->column])
                  : "a row with the rarest level, " + columns[rare->column].name + " = " +
                        quotedValue(t.rows[r].fields[rare->column]) + " (" + std::to_string(rare->count) + " rows)";
    } else if (const auto first = firstCompleteRow(t, columns)) {
        r = *first;
        why = "the first row without a missing cell";
    } else {
        throw std::invalid_argument("every row of the file has a missing cell: name the row to change (--row)");
    }
    out.row = static_cast<long long>(r);
    const Record& rec = t.rows[r];
    if (rec.fields.size() != columns.size())
        throw std::invalid_argument("row " + std::to_string(r) + " (line " + std::to_string(rec.line) + ") has " +
                                    std::to_string(rec.fields.size()) + " fields, the header " +
                                    std::to_string(columns.size()));
    const std::string where =
        "row " + std::to_string(r) + " (line " + std::to_string(rec.line) + (why.empty() ? "" : "; " + why) + ")";
    out.textD = text;
    std::size_t changedColumn = columns.size();
    switch (kind) {
    case InputNeighbourKind::Label: {
        if (label == columns.size() || !loaded.targets.isClassification())
            throw std::invalid_argument("input-label flips a class label; this file's target is not a class");
        const std::string& value = rec.fields[label];
        if (detail::isMissingCell(value))
            throw std::invalid_argument(where + " has no label to flip");
        changedColumn = label;
        out.column = columns[label].name;
        out.from = value;
        out.to = mostFrequentOther(valueCounts(t, label), value);
        if (out.to.empty())
            throw std::invalid_argument("the label column '" + out.column + "' has one value only");
        break;
    }
    case InputNeighbourKind::Level: {
        std::size_t c = columns.size();
        if (!row && rare) {
            c = rare->column;
        } else {
            // The row's rarest level among the categorical columns.
            long long least = 0;
            for (std::size_t k = 0; k < columns.size(); ++k) {
                if (columns[k].kind != ColumnKind::Categorical || detail::isMissingCell(rec.fields[k]))
                    continue;
                const long long n = valueCounts(t, k).at(rec.fields[k]);
                if (c == columns.size() || n < least) {
                    c = k;
                    least = n;
                }
            }
        }
        if (c == columns.size())
            throw std::invalid_argument(
                rare ? where + " has no categorical level to replace"
                     : std::string("input-level replaces a categorical level, and this file has no categorical column "
                                   "(input-label or input-add instead)"));
        changedColumn = c;
        out.column = columns[c].name;
        out.from = rec.fields[c];
        out.to = mostFrequentOther(valueCounts(t, c), out.from);
        if (out.to.empty())
            throw std::invalid_argument("the column '" + out.column + "' has one level only");
        break;
    }
    case InputNeighbourKind::Add: break;
    }
    if (kind == InputNeighbourKind::Add) {
        out.textD = withRecord(text, t, r, std::nullopt);
        out.textDPrime = text;
        out.description = "D′ = the file, D = the file without " + where;
    } else {
        Record changed = rec;
        changed.fields[changedColumn] = out.to;
        out.textDPrime = withRecord(text, t, r, recordText(changed, t.delimiter));
        out.description =
            where + ": " + out.column + " " + quotedValue(out.from) + " in D, " + quotedValue(out.to) + " in D′";
    }
    return out;
}

} // namespace elab::core
