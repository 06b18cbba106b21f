#include "core/data/norm_dominance.h"

#include "core/util/format_number.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace elab::core {

namespace {
constexpr double kShareOfNorm = 0.9; // of a row's squared norm
constexpr double kShareOfRows = 0.5;
} // namespace

std::optional<NormDominance> dominantFeature(const Dataset& data) {
    const Index n = data.rows(), p = data.featureCount();
    if (n == 0 || p < 2)
        return std::nullopt;
    std::vector<Index> dominated(static_cast<std::size_t>(p), 0);
    Index nonzero = 0;
    const auto row = [&](double squaredNorm, double largestSquare, Index largestAt) {
        if (!(squaredNorm > 0.0))
            return;
        ++nonzero;
        if (largestSquare >= kShareOfNorm * squaredNorm)
            ++dominated[static_cast<std::size_t>(largestAt)];
    };
    if (data.features.isSparse()) {
        const SparseMatrix& m = data.features.sparse();
        for (Index i = 0; i < m.outerSize(); ++i) {
            double sum = 0.0, largest = 0.0;
            Index at = 0;
            for (SparseMatrix::InnerIterator it(m, i); it; ++it) {
                const double v2 = it.value() * it.value();
                sum += v2;
                if (v2 > largest) {
                    largest = v2;
                    at = it.col();
                }
            }
            row(sum, largest, at);
        }
    } else {
        const auto& x = data.features.dense();
        for (Index i = 0; i < n; ++i) {
            Index at = 0;
            const double largest = x.row(i).cwiseAbs2().maxCoeff(&at);
            row(x.row(i).squaredNorm(), largest, at);
        }
    }
    if (nonzero == 0)
        return std::nullopt;
    const auto top = std::max_element(dominated.begin(), dominated.end());
    const double share = static_cast<double>(*top) / static_cast<double>(nonzero);
    if (share < kShareOfRows)
        return std::nullopt;
    return NormDominance{data.featureName(static_cast<Index>(top - dominated.begin())), share};
}

std::string dominanceNote(const NormDominance& d) {
    return "Feature '" + d.feature + "' holds ≥ 90 % of the squared norm of " + formatNumber(100.0 * d.rowShare) +
           " % of the rows: clipped to ‖x‖₂ ≤ 1, the other features are nearly zero and a private model learns "
           "little beyond it, however good its curve looks. Give it a public range, or leave the column out.";
}

std::optional<MajorityClass> majorityClass(const Dataset& data) {
    if (!data.targets.isClassification() || data.rows() == 0)
        return std::nullopt;
    const std::vector<Index> counts = data.targets.classCounts();
    if (counts.empty())
        return std::nullopt;
    const auto top = std::max_element(counts.begin(), counts.end());
    const auto k = static_cast<std::size_t>(top - counts.begin());
    const std::string name = k < data.targets.classNames.size() ? data.targets.classNames[k] : std::to_string(k);
    return MajorityClass{name, static_cast<double>(*top) / static_cast<double>(data.rows())};
}

std::string majorityNote(double nonPrivateAccuracy, const MajorityClass& majority, double margin) {
    if (!(nonPrivateAccuracy <= majority.rate + margin))
        return {};
    return "The non-private model's accuracy " + formatNumber(nonPrivateAccuracy) +
           " is no better than always answering '" + majority.name + "' (" + formatNumber(majority.rate) +
           " of the rows): no ε gives a useful model of the data as prepared. Usual causes: a column that dominates "
           "the row norms, or columns without public ranges (the Data tab shows both).";
}

} // namespace elab::core
