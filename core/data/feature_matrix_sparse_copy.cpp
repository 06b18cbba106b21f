// FeatureMatrix::sparseCopy: a dense matrix's rows (a view's as its plain copy holds them) as a
// plain CSR matrix, for fits that read mostly-zero dense rows (core/learners/linear_erm/one_vs_rest.cpp).
#include "core/data/feature_matrix.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace elab::core {

std::optional<FeatureMatrix> FeatureMatrix::sparseCopy(double maxDensity) const {
    if (isSparse())
        return std::nullopt;
    const DenseRows d = denseRows();
    // Pass 1: the non-zeros in all, before anything of the rows' size is allocated (a dense matrix,
    // the common case, costs no memory to refuse).
    std::size_t total = 0;
    d.forEachBlock([&](Index, const auto& block) {
        for (Index j = 0; j < block.cols(); ++j)
            for (Index r = 0; r < block.rows(); ++r)
                total += block(r, j) != 0.0;
    });
    const double cells = static_cast<double>(d.n) * static_cast<double>(d.cols);
    if (!(static_cast<double>(total) <= maxDensity * cells) ||
        total > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        return std::nullopt;
    SparseMatrix S(d.n, d.cols);
    S.resizeNonZeros(static_cast<Index>(total));
    int* outer = S.outerIndexPtr();
    // Pass 2: each row's non-zeros at outer[i + 1], then their running sum: the rows' starts.
    std::fill(outer, outer + d.n + 1, 0);
    d.forEachBlock([&](Index begin, const auto& block) {
        for (Index j = 0; j < block.cols(); ++j)
            for (Index r = 0; r < block.rows(); ++r)
                outer[begin + r + 1] += block(r, j) != 0.0;
    });
    for (Index i = 0; i < d.n; ++i)
        outer[i + 1] += outer[i];
    // Pass 3: column by column within a block, so each row's columns come in ascending order.
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
