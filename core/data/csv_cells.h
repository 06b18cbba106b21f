#pragma once
// Cell-level helpers of the CSV loader: missing markers, strict number parsing, the
// numeric-aware order of levels and class names, and the table of distinct text values.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace elab::core::detail {

/// Strips spaces and tabs on both sides (quoted fields keep theirs until a cell is judged).
std::string_view trimBlanks(std::string_view s);

/// "", "?", "NA" and "NaN" (any case: numpy writes "nan"), ignoring surrounding blanks.
bool isMissingCell(std::string_view s);

enum class NumberKind {
    Finite,    ///< a finite double (values beyond ±1.8e308 are not finite; below 1e-308 round)
    NonFinite, ///< inf, infinity, nan(…) or a value overflowing double
    NotANumber ///< anything else, e.g. "12a", "1,5", "0x10", ""
};

/// Clinger's fast path for the cells most files are made of ("0", "-12.5", "0.00"): at most
/// 15 digits, an optional '-' and point, nothing else. Mantissa and 10^k are then exact
/// doubles and one IEEE division rounds correctly, so the result equals from_chars's at a
/// fraction of the cost. Returns false to leave the cell to the general parser.
inline bool parseSimpleDecimal(std::string_view s, double& value) {
    static constexpr double powers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = s.data();
    const char* const end = p + s.size();
    const bool negative = p != end && *p == '-';
    p += negative ? 1 : 0;
    std::uint64_t mantissa = 0;
    int digits = 0;
    const char* point = nullptr;
    for (; p != end; ++p) {
        const unsigned d = static_cast<unsigned char>(*p) - unsigned('0');
        if (d < 10) {
            mantissa = mantissa * 10 + d;
            ++digits;
        } else if (*p == '.' && !point) {
            point = p;
        } else {
            return false;
        }
    }
    if (digits == 0 || digits > 15)
        return false;
    double v = static_cast<double>(mantissa);
    if (point && mantissa != 0)
        v /= powers[end - point - 1];
    value = negative ? -v : v;
    return true;
}

/// parseNumber for cells the fast path does not take.
NumberKind parseNumberSlow(std::string_view s, double& value);

/// The whole cell (surrounding blanks aside) must be a decimal number: an optional sign,
/// digits with an optional point, an optional exponent. Uses std::from_chars (no locale).
inline NumberKind parseNumber(std::string_view s, double& value) {
    return parseSimpleDecimal(s, value) ? NumberKind::Finite : parseNumberSlow(s, value);
}

/// Numeric-aware order used for categorical levels and class names: two numbers compare by
/// value ("2" < "10", "-1" < "1"); numbers come before text; texts compare with runs of
/// digits taken as numbers ("class2" < "class10"). Ties fall back to plain byte order, so
/// this is a strict weak order on distinct strings.
bool naturalLess(std::string_view a, std::string_view b);

/// A cell for an error message: quoted, clipped to 40 bytes, newlines shown as \n.
std::string quoteCell(std::string_view s);

/// One distinct text value of a column.
struct Level {
    std::size_t count = 0;     ///< cells in the whole file
    std::size_t keptCount = 0; ///< cells in the rows that are kept
    int index = -1;            ///< position after sorting (or class index for labels)
    int schemaClass = -2;      ///< label: index among a public schema's classes (−1 outside, −2 not looked up)
};

/// Distinct values of one column. Pointers to Level stay valid (node-based map). A one-entry
/// cache skips hashing in the long runs of equal values that real files have.
class LevelTable {
public:
    LevelTable() = default;
    // Moving keeps the map's nodes, so Level pointers and the cache stay valid; a copy would not.
    LevelTable(const LevelTable&) = delete;
    LevelTable& operator=(const LevelTable&) = delete;
    LevelTable(LevelTable&&) = default;
    LevelTable& operator=(LevelTable&&) = default;

    Level& intern(std::string_view s);
    Level* find(std::string_view s);
    std::size_t size() const { return m_map.size(); }
    /// Levels with a nonzero count of the given kind, sorted by naturalLess; sets each one's
    /// index to its position (others get -1).
    std::vector<std::string> sortLevels(bool keptOnly);
    /// Visits every (text, level).
    void forEach(const std::function<void(const std::string&, Level&)>& visit);

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, Level, Hash, std::equal_to<>> m_map;
    const std::string* m_lastKey = nullptr;
    Level* m_lastLevel = nullptr;
};

} // namespace elab::core::detail
