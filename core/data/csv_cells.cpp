#include "core/data/csv_cells.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace elab::core::detail {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// from_chars reports result_out_of_range for both overflow and underflow and leaves the value
// untouched; tell them apart from the decimal exponent so that 1e-400 reads as 0 and 1e400 is
// rejected. Only called on text from_chars has already accepted as a number.
bool overflows(std::string_view s) {
    long intDigits = 0;
    long leadingFractionZeros = 0;
    bool seenNonZero = false;
    bool inFraction = false;
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        ++i;
    for (; i < s.size() && (isDigit(s[i]) || s[i] == '.'); ++i) {
        if (s[i] == '.') {
            inFraction = true;
        } else if (!seenNonZero && s[i] == '0') {
            if (inFraction)
                ++leadingFractionZeros;
        } else {
            seenNonZero = true;
            if (!inFraction)
                ++intDigits;
        }
    }
    long exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        const bool negative = i < s.size() && s[i] == '-';
        if (i < s.size() && (s[i] == '-' || s[i] == '+'))
            ++i;
        for (; i < s.size() && isDigit(s[i]); ++i)
            exponent = std::min(exponent * 10 + (s[i] - '0'), 100000L);
        if (negative)
            exponent = -exponent;
    }
    const long magnitude = intDigits > 0 ? exponent + intDigits : exponent - leadingFractionZeros;
    return magnitude > 0;
}

// Splits off a leading run of digits (after skipping leading zeros) for naturalLess.
std::string_view digitRun(std::string_view s, std::size_t& i) {
    const std::size_t start = i;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    std::string_view run = s.substr(start, i - start);
    while (run.size() > 1 && run.front() == '0')
        run.remove_prefix(1);
    return run;
}

} // namespace

std::string_view trimBlanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool isMissingCell(std::string_view s) {
    if (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t'))
        s = trimBlanks(s);
    switch (s.size()) {
    case 0: return true;
    case 1: return s[0] == '?';
    case 2: return s[0] == 'N' && s[1] == 'A';
    case 3: return (s[0] | 0x20) == 'n' && (s[1] | 0x20) == 'a' && (s[2] | 0x20) == 'n';
    default: return false;
    }
}

NumberKind parseNumberSlow(std::string_view s, double& value) {
    if (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t'))
        s = trimBlanks(s);
    if (s.empty())
        return NumberKind::NotANumber;
    std::string_view digits = s;
    if (digits.front() == '+') { // from_chars rejects '+', people write "+3"
        digits.remove_prefix(1);
        if (digits.empty() || digits.front() == '-' || digits.front() == '+')
            return NumberKind::NotANumber;
    }
    const char* last = digits.data() + digits.size();
    const auto r = std::from_chars(digits.data(), last, value, std::chars_format::general);
    if (r.ptr != last)
        return NumberKind::NotANumber;
    if (r.ec == std::errc::result_out_of_range) {
        if (overflows(digits))
            return NumberKind::NonFinite;
        value = digits.front() == '-' ? -0.0 : 0.0;
        return NumberKind::Finite;
    }
    if (r.ec != std::errc())
        return NumberKind::NotANumber;
    return std::isfinite(value) ? NumberKind::Finite : NumberKind::NonFinite;
}

bool naturalLess(std::string_view a, std::string_view b) {
    double x = 0;
    double y = 0;
    const bool an = parseNumber(a, x) == NumberKind::Finite;
    const bool bn = parseNumber(b, y) == NumberKind::Finite;
    if (an != bn)
        return an;
    if (an && x != y)
        return x < y;
    if (!an) {
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < a.size() && j < b.size()) {
            if (isDigit(a[i]) && isDigit(b[j])) {
                const std::string_view ra = digitRun(a, i);
                const std::string_view rb = digitRun(b, j);
                if (ra.size() != rb.size())
                    return ra.size() < rb.size();
                if (ra != rb)
                    return ra < rb;
                continue;
            }
            if (a[i] != b[j])
                return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            ++i;
            ++j;
        }
        if ((i < a.size()) != (j < b.size()))
            return i >= a.size();
    }
    return a < b;
}

std::string quoteCell(std::string_view s) {
    std::string out = "'";
    const std::size_t limit = 40;
    for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
        if (s[i] == '\n')
            out += "\\n";
        else if (s[i] == '\r')
            out += "\\r";
        else
            out += s[i];
    }
    if (s.size() > limit)
        out += "...";
    return out + "'";
}

Level& LevelTable::intern(std::string_view s) {
    if (m_lastKey && *m_lastKey == s)
        return *m_lastLevel;
    auto it = m_map.find(s);
    if (it == m_map.end())
        it = m_map.emplace(std::string(s), Level{}).first;
    m_lastKey = &it->first;
    m_lastLevel = &it->second;
    return it->second;
}

Level* LevelTable::find(std::string_view s) {
    if (m_lastKey && *m_lastKey == s)
        return m_lastLevel;
    const auto it = m_map.find(s);
    if (it == m_map.end())
        return nullptr;
    m_lastKey = &it->first;
    m_lastLevel = &it->second;
    return &it->second;
}

std::vector<std::string> LevelTable::sortLevels(bool keptOnly) {
    std::vector<std::pair<std::string_view, Level*>> present;
    for (auto& [text, level] : m_map) {
        level.index = -1;
        if ((keptOnly ? level.keptCount : level.count) > 0)
            present.emplace_back(text, &level);
    }
    std::sort(present.begin(), present.end(),
              [](const auto& a, const auto& b) { return naturalLess(a.first, b.first); });
    std::vector<std::string> names;
    names.reserve(present.size());
    for (auto& [text, level] : present) {
        level->index = static_cast<int>(names.size());
        names.emplace_back(text);
    }
    return names;
}

void LevelTable::forEach(const std::function<void(const std::string&, Level&)>& visit) {
    for (auto& [text, level] : m_map)
        visit(text, level);
}

} // namespace elab::core::detail
