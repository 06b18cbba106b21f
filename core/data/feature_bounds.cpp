#include "core/data/feature_bounds.h"

#include "core/data/load_error.h"
#include "core/data/processing_log.h"
#include "core/data/source_reader.h"
#include "core/util/format_number.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

namespace elab::core {

const OptionNames<BoundsTarget>& boundsTargetNames() {
    static const OptionNames<BoundsTarget> names{{BoundsTarget::Unit, "unit"}, {BoundsTarget::Symmetric, "symmetric"}};
    return names;
}

const ColumnBound* PublicBounds::find(std::string_view column) const {
    for (const ColumnBound& b : columns)
        if (b.column == column)
            return &b;
    return nullptr;
}

namespace {

std::string boundProblem(const ColumnBound& b) {
    if (b.column.empty())
        return "a bound without a column name";
    if (!std::isfinite(b.lo) || !std::isfinite(b.hi))
        return "column '" + b.column + "': the bounds must be finite numbers";
    if (!(b.lo < b.hi))
        return "column '" + b.column + "': lo (" + formatNumber(b.lo) + ") must be below hi (" + formatNumber(b.hi) +
               ")";
    return {};
}

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

void addChecked(PublicBounds& out, ColumnBound bound, const std::string& source, std::size_t line) {
    if (std::string p = boundProblem(bound); !p.empty())
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
    } catch (const nlohmann::json::parse_error& e) {
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

std::string PublicBounds::validate() const {
    std::set<std::string> seen;
    for (const ColumnBound& b : columns) {
        if (std::string p = boundProblem(b); !p.empty())
            return p;
        if (!seen.insert(b.column).second)
            return "column '" + b.column + "' has two bounds";
    }
    if (!(estimateEpsilon >= 0.0) || !std::isfinite(estimateEpsilon))
        return "the ε of estimated bounds must be a finite number ≥ 0";
    return {};
}

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

std::vector<Index> boundFeatureColumns(const Dataset& data, const PublicBounds& bounds) {
    std::vector<Index> out;
    std::vector<std::string> unknown, categorical;
    for (const ColumnBound& b : bounds.columns) {
        Index feature = -1;
        if (!data.columns.empty()) {
            for (const ColumnInfo& c : data.columns) {
                if (c.name != b.column)
                    continue;
                if (c.kind == ColumnKind::Numeric)
                    feature = c.firstFeature;
                else
                    categorical.push_back(b.column + " (" + toString(c.kind) + ")");
                break;
            }
            if (feature < 0 && std::none_of(data.columns.begin(), data.columns.end(),
                                            [&](const ColumnInfo& c) { return c.name == b.column; }))
                unknown.push_back(b.column);
        } else {
            for (Index j = 0; j < data.featureCount() && feature < 0; ++j)
                if (data.featureName(j) == b.column)
                    feature = j;
            if (feature < 0)
                unknown.push_back(b.column);
        }
        out.push_back(feature);
    }
    std::string problem;
    auto list = [](const std::vector<std::string>& names) {
        std::string s;
        for (std::size_t k = 0; k < names.size(); ++k)
            s += (k ? ", " : "") + names[k];
        return s;
    };
    if (!unknown.empty())
        problem = "bounds for unknown column" + std::string(unknown.size() > 1 ? "s " : " ") + list(unknown) +
                  (data.columns.empty() ? " (LIBSVM features are named f1, f2, …)" : "");
    if (!categorical.empty())
        problem +=
            (problem.empty() ? "" : "; ") + std::string("bounds are for numeric columns, not ") + list(categorical);
    if (!problem.empty())
        throw std::invalid_argument(problem + " [" + bounds.source + "]");
    return out;
}

double mapToBounds(double value, const ColumnBound& bound, BoundsTarget target) {
    const double unit = (std::clamp(value, bound.lo, bound.hi) - bound.lo) / (bound.hi - bound.lo);
    return target == BoundsTarget::Unit ? unit : 2.0 * unit - 1.0;
}

namespace {

// Maps the bounded columns of one set in place; returns how many values were outside.
Index mapColumns(Dataset& data, const PublicBounds& bounds, const std::vector<Index>& features) {
    Index clipped = 0;
    auto outside = [](double v, const ColumnBound& b) { return v < b.lo || v > b.hi; };
    if (data.features.isSparse()) {
        std::vector<int> boundOf(static_cast<std::size_t>(data.featureCount()), -1);
        for (std::size_t k = 0; k < features.size(); ++k)
            boundOf[static_cast<std::size_t>(features[k])] = static_cast<int>(k);
        SparseMatrix& m = data.features.mutableSparse();
        for (Index i = 0; i < m.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(m, i); it; ++it) {
                const int k = boundOf[static_cast<std::size_t>(it.col())];
                if (k < 0)
                    continue;
                const ColumnBound& b = bounds.columns[static_cast<std::size_t>(k)];
                clipped += outside(it.value(), b) ? 1 : 0;
                it.valueRef() = mapToBounds(it.value(), b, bounds.target);
            }
        return clipped;
    }
    DenseMatrix& m = data.features.mutableDense();
    for (std::size_t k = 0; k < features.size(); ++k) {
        const ColumnBound& b = bounds.columns[k];
        auto col = m.col(features[k]);
        for (Index i = 0; i < col.size(); ++i) {
            clipped += outside(col[i], b) ? 1 : 0;
            col[i] = mapToBounds(col[i], b, bounds.target);
        }
    }
    return clipped;
}

} // namespace

void applyPublicBounds(Dataset& train, Dataset* test, const PublicBounds& bounds) {
    if (std::string p = bounds.validate(); !p.empty())
        throw std::invalid_argument(p);
    const std::vector<Index> features = boundFeatureColumns(train, bounds);
    if (train.features.isSparse() || (test && test->features.isSparse()))
        for (const ColumnBound& b : bounds.columns)
            if (mapToBounds(0.0, b, bounds.target) != 0.0 || b.lo > 0.0 || b.hi < 0.0)
                throw std::invalid_argument("column '" + b.column +
                                            "': on sparse data a bound must keep 0 at 0 (lo = 0 and the [0, 1] range); "
                                            "its map would fill every absent entry");
    const Index trainClipped = mapColumns(train, bounds, features);
    const Index testClipped = test ? mapColumns(*test, bounds, features) : 0;
    const std::string range = bounds.target == BoundsTarget::Unit ? "[0, 1]" : "[−1, 1]";
    std::string detail = std::to_string(bounds.columns.size()) + " numeric column" +
                         (bounds.columns.size() == 1 ? "" : "s") + " clipped to their bounds and mapped to " + range +
                         " (" + bounds.source + "): " + std::to_string(trainClipped) + " training value" +
                         (trainClipped == 1 ? " was" : "s were") + " outside";
    const bool estimated = bounds.estimateEpsilon > 0.0;
    if (estimated) {
        detail +=
            ". The bounds were estimated from the training data with ε = " + formatNumber(bounds.estimateEpsilon) +
            ", which every guarantee adds (basic composition): ";
        for (std::size_t k = 0; k < bounds.columns.size() && k < 8; ++k)
            detail += (k ? ", " : "") + bounds.columns[k].column + " [" + formatNumber(bounds.columns[k].lo) + ", " +
                      formatNumber(bounds.columns[k].hi) + "]";
        if (bounds.columns.size() > 8)
            detail += ", …";
    }
    std::string testDetail = detail;
    if (test)
        testDetail += "; " + std::to_string(testClipped) + " test values";
    // Public ranges read nothing private; estimated ones spend their own ε (not a leak, a cost).
    detail::appendStep(train, test, {estimated ? "private bounds" : "public bounds", detail, false}, testDetail);
}

std::string boundsHint(const Dataset& data, const PublicBounds& bounds) {
    const Index p = data.featureCount();
    std::vector<double> largest(static_cast<std::size_t>(p), 0.0);
    if (data.features.isSparse()) {
        const SparseMatrix& m = data.features.sparse();
        for (Index i = 0; i < m.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(m, i); it; ++it)
                largest[static_cast<std::size_t>(it.col())] =
                    std::max(largest[static_cast<std::size_t>(it.col())], std::abs(it.value()));
    } else if (data.rows() > 0) {
        for (Index j = 0; j < p; ++j)
            largest[static_cast<std::size_t>(j)] = data.features.dense().col(j).cwiseAbs().maxCoeff();
    }
    std::vector<std::pair<double, std::string>> candidates;
    if (!data.columns.empty()) {
        for (const ColumnInfo& c : data.columns)
            if (c.kind == ColumnKind::Numeric && !bounds.find(c.name) && c.firstFeature >= 0)
                candidates.emplace_back(largest[static_cast<std::size_t>(c.firstFeature)], c.name);
    } else {
        for (Index j = 0; j < p; ++j)
            if (!bounds.find(data.featureName(j)))
                candidates.emplace_back(largest[static_cast<std::size_t>(j)], data.featureName(j));
    }
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (candidates.empty() || !(candidates.front().first > 1.0))
        return {};
    std::string names;
    for (std::size_t k = 0; k < candidates.size() && k < 3; ++k)
        names += (k ? ", " : "") + candidates[k].second + " (up to " + formatNumber(candidates[k].first) + ")";
    if (candidates.size() > 3)
        names += " and " + std::to_string(candidates.size() - 3) + " more";
    return "Numeric columns without public bounds: " + names +
           ". On their own scales the largest dominate every row's norm, and clipping rows to ‖x‖₂ ≤ 1 flattens the "
           "others. Public ranges (what the schema allows, not what the data shows) map them to [0, 1] first "
           "without spending privacy.";
}

std::vector<std::string> unboundedNumericColumns(const Dataset& data, const PublicBounds& bounds) {
    std::vector<std::string> out;
    for (const ColumnInfo& c : data.columns)
        if (c.kind == ColumnKind::Numeric && !bounds.find(c.name))
            out.push_back(c.name);
    return out;
}

} // namespace elab::core
