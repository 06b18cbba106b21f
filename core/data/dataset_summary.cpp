#include "core/data/dataset_summary.h"

#include <algorithm>
#include <cmath>

namespace elab::core {

namespace {

// A row counts as above the unit norm only past rounding: a row clipped by preprocess
// (x / ‖x‖) can come out at 1 + a few ulps, and a clip would not change it meaningfully.
constexpr double kUnitNormSlack = 1e-12;

// Median of a non-empty vector, reordering it (no copy: a million rows' norms are 8 MB): the
// middle value, or the mean of the two middle values.
double medianInPlace(Eigen::VectorXd& v) {
    double* begin = v.data();
    double* end = begin + v.size();
    const auto mid = static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(begin, begin + mid, end);
    const double upper = begin[mid];
    if (v.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(begin, begin + mid);
    return 0.5 * (lower + upper);
}

} // namespace

DatasetSummary summarize(const Dataset& data, int histogramBins) {
    DatasetSummary s;
    s.rows = data.rows();
    s.features = data.featureCount();
    s.sparse = data.features.isSparse();
    s.storedEntries = data.features.storedEntries();
    const double cells = double(s.rows) * double(s.features);
    s.density = cells > 0 ? double(s.storedEntries) / cells : 0.0;

    const Targets& t = data.targets;
    s.task = t.kind;
    if (t.isClassification()) {
        const std::vector<Index> counts = t.classCounts();
        for (std::size_t c = 0; c < counts.size(); ++c)
            s.classes.push_back({t.classNames[c], counts[c]});
    } else if (t.size() > 0) {
        s.targetMin = t.values->minCoeff();
        s.targetMax = t.values->maxCoeff();
        s.targetMean = t.values->mean();
    }

    // Histogram of row norms: equal-width bins [k·w, (k+1)·w) over [0, max norm] (over
    // [0, 1] when every row is zero, so w is never 0); the max falls in the last bin.
    Eigen::VectorXd norms = data.features.rowNorms();
    const auto bins = static_cast<std::size_t>(std::max(1, histogramBins));
    s.normHistogram.counts.assign(bins, 0);
    if (norms.size() > 0) {
        s.normMin = norms.minCoeff();
        s.normMax = norms.maxCoeff();
        s.normMean = norms.mean();
        s.rowsAboveUnitNorm = static_cast<Index>((norms.array() > 1.0 + kUnitNormSlack).count());
    }
    s.normHistogram.lo = 0.0;
    s.normHistogram.hi = s.normMax > 0.0 ? s.normMax : 1.0;
    for (Index i = 0; i < norms.size(); ++i) {
        const double position = norms[i] * double(bins) / s.normHistogram.hi;
        const auto bin = std::min(bins - 1, static_cast<std::size_t>(position));
        ++s.normHistogram.counts[bin];
    }
    if (norms.size() > 0)
        s.normMedian = medianInPlace(norms); // last: it reorders the norms

    for (const ColumnInfo& column : data.columns)
        s.missingCells += column.missing;
    return s;
}

} // namespace elab::core
