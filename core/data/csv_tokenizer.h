#pragma once
// Splits CSV text into records of fields without copying: unquoted fields and quoted fields
// without doubled quotes are views into the input; only fields with "" are unescaped into a
// scratch buffer owned by the tokenizer. Views stay valid until the next call to next().
//
// Rules (RFC 4180 plus what real files need):
// - records end at "\n", "\r\n" or a lone "\r" outside quotes; the last newline is optional;
//   blank (or whitespace-only) lines are skipped anywhere, as pandas does;
// - a field is quoted if its first non-blank character is '"'; inside, "" is a quote and
//   delimiters and newlines are literal; only blanks may follow the closing quote;
// - a quote inside an unquoted field is an ordinary character (5'10" stays as written), as
//   in Python's csv module: rejecting it would refuse many hand-written files for no gain;
// - unquoted fields are trimmed of spaces (and tabs unless the delimiter is a tab);
// - delimiter ' ' means runs of spaces and tabs; leading and trailing blanks are not fields.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace elab::core::detail {

struct CsvField {
    std::string_view text;
    std::size_t line = 0; ///< 1-based line where the field starts (differs inside multi-line records)
    bool quoted = false;
};

class CsvTokenizer {
public:
    /// source names the input in errors (LoadError thrown by next()); firstLine is the line
    /// number of text's first character (text may start at a record of a larger file).
    CsvTokenizer(std::string_view text, char delimiter, std::string source, std::size_t firstLine = 1);

    /// Reads the next record into fields (cleared first); false at the end of the input.
    bool next(std::vector<CsvField>& fields);
    /// 1-based line where the record last returned by next() starts.
    std::size_t recordLine() const { return m_recordLine; }
    /// Bytes consumed so far (for progress).
    std::size_t position() const { return m_pos; }
    /// Line of position() (1-based).
    std::size_t line() const { return m_line; }
    std::size_t size() const { return m_text.size(); }

private:
    bool isBlank(char c) const { return c == ' ' || (c == '\t' && m_delimiter != '\t'); }
    bool atRecordEnd() const;
    void skipBlankLines();
    void consumeNewline();
    void readQuoted(std::vector<CsvField>& fields, std::size_t fieldIndex);

    std::string_view m_text;
    char m_delimiter;
    std::array<bool, 256> m_stops{}; ///< characters that end an unquoted field
    std::string m_source;
    std::size_t m_pos = 0;
    std::size_t m_line = 1;
    std::size_t m_recordLine = 0;
    std::string m_scratch;
    /// Fields unescaped into m_scratch: (field index, offset, length); their views are set
    /// once the record is complete because m_scratch may reallocate while it grows.
    struct Pending {
        std::size_t field;
        std::size_t offset;
        std::size_t length;
    };
    std::vector<Pending> m_pending;
};

/// Picks the delimiter among ',', '\t', ';' and whitespace runs (' ') from the first records:
/// the candidate giving a header of at least 2 fields that most of the sampled records match,
/// ties going in that order. ',' when nothing splits the header (a one-column file).
char detectDelimiter(std::string_view text);

/// Human-readable name of a delimiter for logs and errors ("','", "tab", "whitespace").
std::string delimiterName(char delimiter);

} // namespace elab::core::detail
