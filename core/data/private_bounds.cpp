#include "core/data/private_bounds.h"

#include "core/util/format_number.h"
#include "core/util/noise.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

std::string PrivateBoundsOptions::validate() const {
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        return "the ε of private bounds must be a finite number > 0";
    if (!(tail >= 0.0 && tail < 0.5))
        return "the tail fraction of private bounds must be in [0, 0.5)";
    if (!(domain >= 1e-3) || !std::isfinite(domain))
        return "the domain D of private bounds must be a finite number ≥ 0.001";
    return {};
}

std::vector<double> boundCandidates(double domain) {
    static constexpr double kR10[] = {1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0};
    std::vector<double> positive;
    for (double decade = 1e-3; decade < domain; decade *= 10.0)
        for (double m : kR10)
            if (m * decade < domain)
                positive.push_back(m * decade);
    positive.push_back(domain);
    std::vector<double> out;
    for (auto it = positive.rbegin(); it != positive.rend(); ++it)
        out.push_back(-*it);
    out.push_back(0.0);
    out.insert(out.end(), positive.begin(), positive.end());
    return out;
}

std::size_t aboveThreshold(std::span<const double> counts, double threshold, double eps, Rng& rng) {
    const double noisyThreshold = threshold + laplaceNoise(2.0 / eps, rng);
    for (std::size_t k = 0; k < counts.size(); ++k)
        if (counts[k] + laplaceNoise(4.0 / eps, rng) >= noisyThreshold)
            return k;
    return counts.size();
}

namespace {

// Counts #{x ≤ c} (ascending candidates) or #{x ≥ c} (descending) of sorted values.
std::vector<double> candidateCounts(const std::vector<double>& sorted, const std::vector<double>& candidates,
                                    bool upper) {
    std::vector<double> counts(candidates.size());
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const double c = candidates[k];
        counts[k] = upper ? static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), c) - sorted.begin())
                          : static_cast<double>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), c));
    }
    return counts;
}

double privateBound(std::vector<double> values, double tail, double eps, double domain, std::uint64_t seed,
                    bool upper) {
    std::sort(values.begin(), values.end());
    std::vector<double> candidates = boundCandidates(domain);
    if (!upper)
        std::reverse(candidates.begin(), candidates.end());
    const std::vector<double> counts = candidateCounts(values, candidates, upper);
    Rng rng(seed);
    const std::size_t k = aboveThreshold(counts, (1.0 - tail) * static_cast<double>(values.size()), eps, rng);
    return k < candidates.size() ? candidates[k] : (upper ? domain : -domain);
}

} // namespace

double privateUpperBound(std::vector<double> values, double tail, double eps, double domain, std::uint64_t seed) {
    return privateBound(std::move(values), tail, eps, domain, seed, true);
}

double privateLowerBound(std::vector<double> values, double tail, double eps, double domain, std::uint64_t seed) {
    return privateBound(std::move(values), tail, eps, domain, seed, false);
}

PublicBounds estimatePrivateBounds(const Dataset& data, const std::vector<std::string>& columns,
                                   const PrivateBoundsOptions& options) {
    if (std::string p = options.validate(); !p.empty())
        throw std::invalid_argument(p);
    if (data.rows() == 0)
        throw std::invalid_argument("private bounds need training rows");
    std::vector<std::string> names = columns;
    if (names.empty())
        for (const ColumnInfo& c : data.columns)
            if (c.kind == ColumnKind::Numeric)
                names.push_back(c.name);
    if (names.empty())
        throw std::invalid_argument("private bounds: the data has no numeric column (LIBSVM data: name the features)");
    PublicBounds out;
    for (const std::string& name : names)
        out.columns.push_back({name, 0.0, 1.0});
    const std::vector<Index> features = boundFeatureColumns(data, out);
    const double each = options.epsilon / (2.0 * static_cast<double>(names.size()));
    std::vector<double> values(static_cast<std::size_t>(data.rows()));
    for (std::size_t c = 0; c < names.size(); ++c) {
        for (Index i = 0; i < data.rows(); ++i)
            values[static_cast<std::size_t>(i)] = data.features.value(i, features[c]);
        double lo = privateLowerBound(values, options.tail, each, options.domain, deriveSeed(options.seed, c, 1));
        double hi = privateUpperBound(values, options.tail, each, options.domain, deriveSeed(options.seed, c, 2));
        if (!(hi > lo)) { // post-processing of the two releases (still ε_b-DP): the next candidate up
            const std::vector<double> grid = boundCandidates(options.domain);
            const auto next = std::upper_bound(grid.begin(), grid.end(), lo);
            hi = next != grid.end() ? *next : lo + 1.0;
        }
        out.columns[c].lo = lo;
        out.columns[c].hi = hi;
    }
    out.estimateEpsilon = options.epsilon;
    // The noise is Lap(4/ε) per count against tail·n rows beyond each bound: below ~4·(4/ε) the
    // search stops at random candidates (said in the log rather than refused).
    const double margin = options.tail * static_cast<double>(data.rows()) * each / 4.0;
    out.source =
        "estimated privately: the tightest round values holding all but " + formatNumber(100.0 * options.tail) +
        " % of the rows at each end, by the sparse vector technique over candidates in [−" +
        formatNumber(options.domain) + ", " + formatNumber(options.domain) + "], ε = " + formatNumber(options.epsilon) +
        " in all (" + formatNumber(each) + " per bound), seed " + std::to_string(options.seed);
    if (margin < 2.0)
        out.source += "; with " + std::to_string(data.rows()) + " rows and ε = " + formatNumber(each) +
                      " per bound the noise is large against the " + formatNumber(100.0 * options.tail) +
                      " % tail: the bounds are rough";
    return out;
}

void applyBounds(Dataset& train, Dataset* test, const PublicBounds& publicBounds,
                 const std::optional<PrivateBoundsOptions>& estimate) {
    PublicBounds bounds = publicBounds;
    if (estimate) {
        const std::vector<std::string> rest = unboundedNumericColumns(train, bounds);
        if (!rest.empty()) {
            PublicBounds estimated = estimatePrivateBounds(train, rest, *estimate);
            bounds.columns.insert(bounds.columns.end(), estimated.columns.begin(), estimated.columns.end());
            bounds.estimateEpsilon = estimated.estimateEpsilon;
            bounds.source = bounds.source.empty() ? estimated.source : bounds.source + "; " + estimated.source;
        }
    }
    if (bounds.empty())
        return;
    applyPublicBounds(train, test, bounds);
    train.preparationEpsilon += bounds.estimateEpsilon;
}

} // namespace elab::core
