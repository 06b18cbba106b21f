#include "core/scale/cell_text.h"

#include <bit>
#include <charconv>
#include <stdexcept>

namespace elab::core {

void CellWriter::separate() {
    if (!m_text.empty())
        m_text += ' ';
}

CellWriter& CellWriter::real(double value) {
    separate();
    char digits[17];
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (int k = 0; k < 16; ++k)
        digits[k] = "0123456789abcdef"[(bits >> (60 - 4 * k)) & 0xFU];
    m_text.append(digits, 16);
    return *this;
}

CellWriter& CellWriter::integer(std::int64_t value) {
    separate();
    m_text += std::to_string(value);
    return *this;
}

std::string_view CellReader::token() {
    while (m_at < m_text.size() && m_text[m_at] == ' ')
        ++m_at;
    const std::size_t begin = m_at;
    while (m_at < m_text.size() && m_text[m_at] != ' ')
        ++m_at;
    if (begin == m_at)
        throw std::runtime_error("malformed cell: fewer values than expected");
    return m_text.substr(begin, m_at - begin);
}

double CellReader::real() {
    const std::string_view t = token();
    std::uint64_t bits = 0;
    const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), bits, 16);
    if (t.size() != 16 || error != std::errc() || end != t.data() + t.size())
        throw std::runtime_error("malformed cell: '" + std::string(t) + "' is not a stored number");
    return std::bit_cast<double>(bits);
}

std::int64_t CellReader::integer() {
    const std::string_view t = token();
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (error != std::errc() || end != t.data() + t.size())
        throw std::runtime_error("malformed cell: '" + std::string(t) + "' is not an integer");
    return value;
}

bool CellReader::atEnd() const { return m_text.find_first_not_of(' ', m_at) == std::string_view::npos; }

} // namespace elab::core
