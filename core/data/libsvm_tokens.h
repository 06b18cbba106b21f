#pragma once
// Internal to core/data's LIBSVM loader (libsvm_loader.cpp): the tokenizer — a line's
// blank-separated tokens with their columns, numbers as LIBSVM writes them, and a token as an
// error message shows it. The loader gives the tokens their meaning (label, index:value, qid).

#include <cstddef>
#include <string>
#include <string_view>

namespace elab::core::libsvm {

/// The separators between a line's tokens.
inline bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// The blank-separated tokens of one line, without its '\r' ending and its '#' comment.
class LineTokens {
public:
    explicit LineTokens(std::string_view line) : m_line(line) {
        if (!m_line.empty() && m_line.back() == '\r')
            m_line.remove_suffix(1);
        if (const std::size_t hash = m_line.find('#'); hash != std::string_view::npos)
            m_line = m_line.substr(0, hash);
    }
    /// The next token into token; returns its 1-based column, or 0 at the end of the line.
    std::size_t next(std::string_view& token) {
        while (m_pos < m_line.size() && isBlank(m_line[m_pos]))
            ++m_pos;
        if (m_pos == m_line.size())
            return 0;
        const std::size_t start = m_pos;
        while (m_pos < m_line.size() && !isBlank(m_line[m_pos]))
            ++m_pos;
        token = m_line.substr(start, m_pos - start);
        return start + 1;
    }

private:
    std::string_view m_line;
    std::size_t m_pos = 0;
};

/// A token as shown in a message: quoted, printable and short (at most 40 characters, bytes
/// outside printable ASCII as \xNN), even for binary garbage.
std::string quoted(std::string_view token);

enum class NumberStatus { Ok, Bad, NotFinite, Overflow };

/// A decimal real, as from_chars reads it plus the leading '+' that LIBSVM labels use ("+1").
/// Underflow gives a signed zero, as strtod would; a value too large is Overflow, inf/NaN
/// NotFinite, anything else that is not a whole number Bad.
NumberStatus parseReal(std::string_view token, double& value);

/// The tail of the message for a number that did not parse (" is not a number", …); nullptr
/// for Ok.
const char* numberProblem(NumberStatus status);

} // namespace elab::core::libsvm
