#pragma once
// Exact text of a cell's result: the payload of a checkpoint line and of the MPI messages
// (docs/scale-out.md). Doubles are written as the 16 hex digits of their IEEE-754 bits, so
// every value (−0, NaN, subnormals) comes back bit for bit and the output assembled from
// stored cells is byte-identical to one computed in place. Tokens are separated by one
// space; a payload never holds a newline.

#include <cstdint>
#include <string>
#include <string_view>

namespace elab::core {

class CellWriter {
public:
    CellWriter& real(double value);
    CellWriter& integer(std::int64_t value);
    const std::string& text() const { return m_text; }

private:
    void separate();
    std::string m_text;
};

/// Reads the tokens of a CellWriter's text in the order written. Throws std::runtime_error
/// ("malformed cell") on a missing or bad token.
class CellReader {
public:
    explicit CellReader(std::string_view text) : m_text(text) {}
    double real();
    std::int64_t integer();
    bool atEnd() const;

private:
    std::string_view token();
    std::string_view m_text;
    std::size_t m_at = 0;
};

} // namespace elab::core
