#pragma once
// The one error type of the data layer: every malformed input names its source, line and
// (where it applies) column, formatted like a compiler: "file.csv:4:2: expected 3 fields,
// found 2". Line and column are 1-based; 0 means "not applicable".

#include <cstddef>
#include <stdexcept>
#include <string>

namespace elab::core {

class LoadError : public std::runtime_error {
public:
    LoadError(std::string source, std::size_t line, std::size_t column, std::string message)
        : std::runtime_error(format(source, line, column, message)), m_source(std::move(source)), m_line(line),
          m_column(column), m_message(std::move(message)) {}

    const std::string& source() const { return m_source; }
    std::size_t line() const { return m_line; }
    std::size_t column() const { return m_column; }
    /// The message without the "source:line:column: " prefix.
    const std::string& message() const { return m_message; }

    static std::string format(const std::string& source, std::size_t line, std::size_t column,
                              const std::string& message) {
        std::string s = source;
        if (line > 0) {
            s += ':' + std::to_string(line);
            if (column > 0)
                s += ':' + std::to_string(column);
        }
        return s + ": " + message;
    }

private:
    std::string m_source;
    std::size_t m_line;
    std::size_t m_column;
    std::string m_message;
};

} // namespace elab::core
