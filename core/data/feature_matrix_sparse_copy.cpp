// FeatureMatrix::sparseCopy: a dense matrix's rows (a view's as its plain copy holds them) as a
// plain CSR matrix, for fits that read mostly-zero dense rows (core/experiment/one_vs_rest.cpp).
#include "core/data/feature_matrix.h"

#include <limits>
#include <optional>
#include <vector>

namespace elab::core {

std::optional<FeatureMatrix> FeatureMatrix::sparseCopy(double maxDensity) const {
    if (isSparse())
        return std::nullopt;
    const DenseRows d = denseRows();
    // Pass 1: each row's non-zeros (the block holds the rows as the plain copy does).
    std::vector<std::size_t> perRow(static_cast<std::size_t>(d.n), 0);
    d.forEachBlock([&](Index begin, const auto& block) {
        for (Index j = 0; j < block.cols(); ++j)
            for (Index r = 0; r < block.rows(); ++r)
                perRow[static_cast<std::size_t>(begin + r)] += block(r, j) != 0.0;
    });
    std::size_t total = 0;
    for (std::size_t k : perRow)
        total += k;
    const double cells = static_cast<double>(d.n) * static_cast<double>(d.cols);
    if (!(static_cast<double>(total) <= maxDensity * cells) || total > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return std::nullopt;
    SparseMatrix S(d.n, d.cols);
    S.resizeNonZeros(static_cast<Index>(total));
    int* outer = S.outerIndexPtr();
    outer[0] = 0;
    for (std::size_t i = 0; i < perRow.size(); ++i)
        outer[i + 1] = outer[i] + static_cast<int>(perRow[i]);
    // Pass 2: column by column within a block, so each row's columns come in ascending order.
    std::vector<int> next(outer, outer + d.n);
    int* inner = S.innerIndexPtr();
    double* values = S.valuePtr();
    d.forEachBlock([&](Index begin, const auto& block) {
        for (Index j = 0; j < block.cols(); ++j)
            for (Index r = 0; r < block.rows(); ++r)
                if (const double v = block(r, j); v != 0.0) {
                    const int k = next[static_cast<std::size_t>(begin + r)]++;
                    inner[k] = static_cast<int>(j);
                    values[k] = v;
                }
    });
    return FeatureMatrix(std::move(S));
}

} // namespace elab::core
