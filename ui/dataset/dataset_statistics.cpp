#include "ui/dataset/dataset_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::ui {

namespace {

core::Histogram equalWidth(const Eigen::VectorXd& values, double lo, double hi, int bins, bool skipNonPositive,
                           bool takeLog10) {
    core::Histogram h;
    h.lo = lo;
    h.hi = hi > lo ? hi : lo + 1.0;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    const double width = (h.hi - h.lo) / bins;
    for (core::Index i = 0; i < values.size(); ++i) {
        double v = values[i];
        if (skipNonPositive && !(v > 0.0))
            continue;
        if (takeLog10)
            v = std::log10(v);
        const int bin = static_cast<int>((v - h.lo) / width);
        ++h.counts[static_cast<std::size_t>(std::clamp(bin, 0, bins - 1))];
    }
    return h;
}

} // namespace

core::Histogram targetHistogram(const core::Targets& targets, int bins) {
    if (targets.isClassification() || targets.size() == 0 || bins < 1)
        return {};
    return equalWidth(targets.values, targets.values->minCoeff(), targets.values->maxCoeff(), bins, false, false);
}

core::Histogram log10NormHistogram(const Eigen::VectorXd& norms, int bins) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (core::Index i = 0; i < norms.size(); ++i) {
        if (norms[i] > 0.0) {
            lo = std::min(lo, norms[i]);
            hi = std::max(hi, norms[i]);
        }
    }
    if (!(hi > 0.0) || bins < 1)
        return {};
    return equalWidth(norms, std::log10(lo), std::log10(hi), bins, true, true);
}

} // namespace elab::ui
