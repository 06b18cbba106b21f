#include "core/data/csv_tokenizer.h"

#include "core/data/load_error.h"

#include <algorithm>
#include <array>

namespace elab::core::detail {

namespace {

bool isNewline(char c) { return c == '\n' || c == '\r'; }

std::string printable(char c) {
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + c + "'";
    static const char* hex = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

} // namespace

CsvTokenizer::CsvTokenizer(std::string_view text, char delimiter, std::string source, std::size_t firstLine)
    : m_text(text), m_delimiter(delimiter), m_source(std::move(source)), m_line(firstLine) {
    m_stops.fill(false);
    m_stops['\n'] = m_stops['\r'] = true;
    m_stops[static_cast<unsigned char>(delimiter)] = true;
    if (delimiter == ' ')
        m_stops['\t'] = true;
}

bool CsvTokenizer::atRecordEnd() const { return m_pos >= m_text.size() || isNewline(m_text[m_pos]); }

void CsvTokenizer::consumeNewline() {
    if (m_text[m_pos] == '\r' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\n')
        ++m_pos;
    ++m_pos;
    ++m_line;
}

void CsvTokenizer::skipBlankLines() {
    for (;;) {
        std::size_t p = m_pos;
        while (p < m_text.size() && (m_text[p] == ' ' || m_text[p] == '\t'))
            ++p;
        if (p >= m_text.size()) {
            m_pos = p;
            return;
        }
        if (!isNewline(m_text[p]))
            return; // leading blanks belong to the first field (trimmed or not by its rules)
        m_pos = p;
        consumeNewline();
    }
}

bool CsvTokenizer::next(std::vector<CsvField>& fields) {
    fields.clear();
    m_scratch.clear();
    m_pending.clear();
    skipBlankLines();
    if (m_pos >= m_text.size())
        return false;
    m_recordLine = m_line;
    const bool whitespace = m_delimiter == ' ';
    for (;;) {
        std::size_t p = m_pos;
        while (p < m_text.size() && isBlank(m_text[p]))
            ++p;
        m_pos = p;
        if (p < m_text.size() && m_text[p] == '"') {
            readQuoted(fields, fields.size());
        } else { // unquoted, the hot path: scan to a stop character, trim trailing blanks
            const char* data = m_text.data();
            while (p < m_text.size() && !m_stops[static_cast<unsigned char>(data[p])])
                ++p;
            std::size_t e = p;
            while (e > m_pos && isBlank(data[e - 1]))
                --e;
            fields.push_back({m_text.substr(m_pos, e - m_pos), m_line, false});
            m_pos = p;
        }
        if (m_pos >= m_text.size())
            break;
        if (isNewline(m_text[m_pos])) {
            consumeNewline();
            break;
        }
        if (whitespace) {
            while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t'))
                ++m_pos;
            if (atRecordEnd()) { // trailing blanks are not a field
                if (m_pos < m_text.size())
                    consumeNewline();
                break;
            }
        } else {
            ++m_pos; // the delimiter; a field always follows, even at the end of the input
        }
    }
    for (const Pending& p : m_pending)
        fields[p.field].text = std::string_view(m_scratch).substr(p.offset, p.length);
    return true;
}

void CsvTokenizer::readQuoted(std::vector<CsvField>& fields, std::size_t fieldIndex) {
    const std::size_t startLine = m_line;
    std::size_t p = m_pos + 1; // past the opening quote
    const std::size_t contentStart = p;
    bool escaped = false; // content went to m_scratch because of a doubled quote
    std::size_t scratchStart = m_scratch.size();
    for (;;) {
        const std::size_t q = m_text.find('"', p);
        if (q == std::string_view::npos)
            throw LoadError(m_source, startLine, fieldIndex + 1,
                            "unterminated quoted field (the quote opened here is never closed)");
        for (std::size_t i = p; i < q; ++i) // newlines inside the field still count as lines
            if (m_text[i] == '\n' || (m_text[i] == '\r' && (i + 1 >= q || m_text[i + 1] != '\n')))
                ++m_line;
        if (q + 1 < m_text.size() && m_text[q + 1] == '"') {
            if (!escaped) {
                escaped = true;
                scratchStart = m_scratch.size();
                m_scratch.append(m_text.substr(contentStart, q + 1 - contentStart));
            } else {
                m_scratch.append(m_text.substr(p, q + 1 - p));
            }
            p = q + 2;
            continue;
        }
        if (escaped)
            m_scratch.append(m_text.substr(p, q - p));
        else
            fields.push_back({m_text.substr(contentStart, q - contentStart), startLine, true});
        p = q + 1;
        break;
    }
    if (escaped) {
        m_pending.push_back({fieldIndex, scratchStart, m_scratch.size() - scratchStart});
        fields.push_back({{}, startLine, true});
    }
    const char* what = " after the closing quote (a quote inside a quoted field must be doubled)";
    if (m_delimiter == ' ') { // the blank run after the quote is the separator: leave it
        m_pos = p;
        if (p < m_text.size() && !isNewline(m_text[p]) && !isBlank(m_text[p]))
            throw LoadError(m_source, m_line, fieldIndex + 1, "unexpected " + printable(m_text[p]) + what);
        return;
    }
    while (p < m_text.size() && isBlank(m_text[p]))
        ++p;
    m_pos = p;
    if (p < m_text.size() && !isNewline(m_text[p]) && m_text[p] != m_delimiter)
        throw LoadError(m_source, m_line, fieldIndex + 1, "unexpected " + printable(m_text[p]) + what);
}

char detectDelimiter(std::string_view text) {
    constexpr std::array<char, 4> candidates = {',', '\t', ';', ' '};
    constexpr int sampleRecords = 50;
    char best = ',';
    long bestScore = -1;
    std::vector<CsvField> fields;
    for (const char d : candidates) {
        CsvTokenizer tokenizer(text, d, {});
        std::size_t headerFields = 0;
        long matches = 0;
        try {
            if (!tokenizer.next(fields))
                continue;
            headerFields = fields.size();
            for (int r = 0; r < sampleRecords && tokenizer.next(fields); ++r)
                matches += fields.size() == headerFields ? 1 : 0;
        } catch (const LoadError&) {
            // a quoting error in the sample counts against nobody: score what was read
        }
        if (headerFields >= 2 && matches > bestScore) {
            best = d;
            bestScore = matches;
        }
    }
    return best;
}

std::string delimiterName(char delimiter) {
    switch (delimiter) {
    case ',': return "comma";
    case ';': return "semicolon";
    case '\t': return "tab";
    case ' ': return "whitespace";
    }
    return std::string("'") + delimiter + "'";
}

} // namespace elab::core::detail
