#include "core/data/bounds_file.h"

#include "core/data/load_error.h"
#include "core/data/source_reader.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

namespace {

std::string trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r");
    std::string out(s.substr(first, last - first + 1));
    if (out.size() >= 2 && out.front() == '"' && out.back() == '"')
        out = out.substr(1, out.size() - 2);
    return out;
}

bool parseNumber(const std::string& text, double& value) {
    if (text.empty())
        return false;
    const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    return ec == std::errc() && ptr == end && std::isfinite(value);
}

std::vector<std::string> splitFields(const std::string& line) {
    const char delimiter =
        line.find(',') != std::string::npos ? ',' : (line.find(';') != std::string::npos ? ';' : '\t');
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const auto at = line.find(delimiter, start);
        fields.push_back(
            trim(std::string_view(line).substr(start, at == std::string::npos ? std::string::npos : at - start)));
        if (at == std::string::npos)
            break;
        start = at + 1;
    }
    return fields;
}

// The offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
// form, no surrogate, nothing past U+10FFFF), or npos. Column names must be UTF-8: the
// bounds are written back as JSON (boundsJsonText, saved sessions), which holds nothing else.
std::size_t invalidUtf8At(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto byte = [&](std::size_t k) { return unsigned{static_cast<unsigned char>(s[k])}; };
        const unsigned b = byte(i);
        std::size_t n = 0;
        unsigned lo = 0x80, hi = 0xBF; // the range of the second byte
        if (b < 0x80) {
            ++i;
            continue;
        } else if (b >= 0xC2 && b <= 0xDF) {
            n = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            n = 2;
            lo = b == 0xE0 ? 0xA0 : 0x80;
            hi = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            n = 3;
            lo = b == 0xF0 ? 0x90 : 0x80;
            hi = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + n >= s.size()) // truncated sequence
            return i;
        if (byte(i + 1) < lo || byte(i + 1) > hi)
            return i;
        for (std::size_t k = 2; k <= n; ++k)
            if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
                return i;
        i += n + 1;
    }
    return std::string_view::npos;
}

void addChecked(PublicBounds& out, ColumnBound bound, const std::string& source, std::size_t line) {
    if (std::string p = bound.validate(); !p.empty())
        throw LoadError(source, line, 0, p);
    if (out.find(bound.column))
        throw LoadError(source, line, 0, "column '" + bound.column + "' has two bounds");
    out.columns.push_back(std::move(bound));
}

PublicBounds parseCsvBounds(std::string_view text, const std::string& source) {
    PublicBounds out;
    std::size_t lineNo = 0, start = 0;
    bool first = true;
    while (start <= text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string line = trim(text.substr(start, end - start));
        ++lineNo;
        start = end + 1;
        if (line.empty() || line.front() == '#')
            continue;
        const std::vector<std::string> f = splitFields(line);
        if (f.size() != 3)
            throw LoadError(source, lineNo, 0, "expected 3 fields (column, lo, hi), found " + std::to_string(f.size()));
        if (const std::size_t at = invalidUtf8At(f[0]); at != std::string_view::npos) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(f[0][at])));
            throw LoadError(source, lineNo, 1,
                            "the column name is not UTF-8 text (byte " + std::string(hex) + " at offset " +
                                std::to_string(at) + " of the name); save the file as UTF-8");
        }
        ColumnBound b{f[0], 0.0, 0.0};
        const bool loOk = parseNumber(f[1], b.lo), hiOk = parseNumber(f[2], b.hi);
        if (first && !loOk && !hiOk && (f[1] == "lo" || f[1] == "low" || f[1] == "min")) {
            first = false; // header line
            continue;
        }
        first = false;
        if (!loOk)
            throw LoadError(source, lineNo, 2, "lo of column '" + f[0] + "' is not a finite number: '" + f[1] + "'");
        if (!hiOk)
            throw LoadError(source, lineNo, 3, "hi of column '" + f[0] + "' is not a finite number: '" + f[2] + "'");
        addChecked(out, std::move(b), source, lineNo);
    }
    return out;
}

double jsonNumber(const nlohmann::json& v, const std::string& source, const std::string& what) {
    if (!v.is_number())
        throw LoadError(source, 0, 0, what + " is not a number: " + v.dump());
    return v.get<double>();
}

ColumnBound jsonBound(const nlohmann::json& item, const std::string& source, std::size_t k) {
    const std::string where = "entry " + std::to_string(k + 1);
    if (!item.is_object() || !item.contains("column") || !item["column"].is_string())
        throw LoadError(source, 0, 0, where + ": expected {\"column\": name, \"lo\": number, \"hi\": number}");
    ColumnBound b{item["column"].get<std::string>(), 0.0, 0.0};
    for (const char* key : {"lo", "hi"})
        if (!item.contains(key))
            throw LoadError(source, 0, 0, where + " (column '" + b.column + "'): no \"" + key + "\"");
    b.lo = jsonNumber(item["lo"], source, where + " (column '" + b.column + "'): lo");
    b.hi = jsonNumber(item["hi"], source, where + " (column '" + b.column + "'): hi");
    return b;
}

PublicBounds parseJsonBounds(std::string_view text, const std::string& source) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number like 1e400
        throw LoadError(source, 0, 0, std::string("not valid JSON: ") + e.what());
    }
    PublicBounds out;
    auto addArray = [&](const nlohmann::json& array) {
        for (std::size_t k = 0; k < array.size(); ++k)
            addChecked(out, jsonBound(array[k], source, k), source, 0);
    };
    if (j.is_array()) {
        addArray(j);
    } else if (j.is_object() && j.contains("columns")) {
        if (!j["columns"].is_array())
            throw LoadError(source, 0, 0, "\"columns\" must be an array of {\"column\", \"lo\", \"hi\"}");
        addArray(j["columns"]);
        if (j.contains("range")) {
            const auto range = j["range"].is_string()
                                   ? fromOptionName(boundsTargetNames(), j["range"].get<std::string>())
                                   : std::nullopt;
            if (!range)
                throw LoadError(source, 0, 0, "\"range\" must be \"unit\" or \"symmetric\", not " + j["range"].dump());
            out.target = *range;
        }
        if (j.contains("source") && j["source"].is_string())
            out.source = j["source"].get<std::string>();
    } else if (j.is_object()) {
        for (const auto& [name, v] : j.items()) {
            if (!v.is_array() || v.size() != 2)
                throw LoadError(source, 0, 0, "column '" + name + "': expected [lo, hi], found " + v.dump());
            addChecked(out,
                       {name, jsonNumber(v[0], source, "column '" + name + "': lo"),
                        jsonNumber(v[1], source, "column '" + name + "': hi")},
                       source, 0);
        }
    } else {
        throw LoadError(source, 0, 0, "expected an array or an object of bounds");
    }
    return out;
}

} // namespace

PublicBounds parseBounds(std::string_view text, const std::string& sourceName) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        throw LoadError(sourceName, 0, 0, "the bounds file is empty");
    PublicBounds out = (text[first] == '[' || text[first] == '{') ? parseJsonBounds(text, sourceName)
                                                                  : parseCsvBounds(text, sourceName);
    if (out.columns.empty())
        throw LoadError(sourceName, 0, 0, "the bounds file names no column");
    if (out.source.empty())
        out.source = sourceName;
    return out;
}

PublicBounds loadBoundsFile(const std::string& path) { return parseBounds(readSource(path).text, path); }

std::string boundsJsonText(const PublicBounds& bounds) {
    nlohmann::ordered_json j;
    j["range"] = optionName(boundsTargetNames(), bounds.target);
    j["source"] = bounds.source;
    j["columns"] = nlohmann::ordered_json::array();
    for (const ColumnBound& b : bounds.columns)
        j["columns"].push_back({{"column", b.column}, {"lo", b.lo}, {"hi", b.hi}});
    return j.dump(2);
}

} // namespace elab::core
