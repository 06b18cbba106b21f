#include "core/data/feature_bounds.h"

#include "core/data/processing_log.h"
#include "core/util/format_number.h"

#include <algorithm>
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

std::string ColumnBound::validate() const {
    if (column.empty())
        return "a bound without a column name";
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return "column '" + column + "': the bounds must be finite numbers";
    if (!(lo < hi))
        return "column '" + column + "': lo (" + formatNumber(lo) + ") must be below hi (" + formatNumber(hi) + ")";
    return {};
}

std::string PublicBounds::validate() const {
    std::set<std::string> seen;
    for (const ColumnBound& b : columns) {
        if (std::string p = b.validate(); !p.empty())
            return p;
        if (!seen.insert(b.column).second)
            return "column '" + b.column + "' has two bounds";
    }
    if (!(estimateEpsilon >= 0.0) || !std::isfinite(estimateEpsilon))
        return "the ε of estimated bounds must be a finite number ≥ 0";
    return {};
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
    ProcessingStep step{estimated ? "private bounds" : "public bounds", detail, false};
    step.epsilon = bounds.estimateEpsilon;
    detail::appendStep(train, test, std::move(step), testDetail);
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
