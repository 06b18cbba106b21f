// A dense matrix's rows as the row-block kernels read them (DenseRows: blocks, clipped rows'
// factors recomputed) and the Euclidean norms of rows, dense or sparse: one order of additions
// for a row read alone and for a block (docs/MATH.md §1).
#include "core/data/feature_matrix.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

namespace elab::core {

Index DenseRows::blockRows() const {
    constexpr Index kBlockDoubles = 32768; // 256 KiB
    return std::clamp<Index>(kBlockDoubles / std::max<Index>(cols, 1), 16, 4096);
}

namespace {

// sums_k = Σ_j x_kj² for the rows of a block given as columns (column(j): count values),
// added in column order: for each row the additions of a loop over that row alone.
template <class Column>
void sumSquaresByColumns(Index count, Index columns, Column&& column, Eigen::VectorXd& sums) {
    if (columns == 0) {
        sums.setZero(count);
        return;
    }
    sums = column(0).array().square(); // 0 + x² = x²: the first addition of the loop
    for (Index j = 1; j < columns; ++j)
        sums.array() += column(j).array().square();
}

// ‖x‖₂ of one row whose Σx² overflowed: max|x_j| factored out, the rest summed in column order.
template <class Entry>
double rescaledNorm(Index cols, Entry&& entry) {
    double maxAbs = 0.0;
    for (Index j = 0; j < cols; ++j)
        maxAbs = std::max(maxAbs, std::abs(entry(j)));
    double sum = 0.0;
    for (Index j = 0; j < cols; ++j) {
        const double r = entry(j) / maxAbs;
        sum += r * r;
    }
    return maxAbs * std::sqrt(sum);
}

// norms ← √sums, the rows whose sums overflowed redone (entry(k, j): row k's entry j).
template <class Entry>
void finishNorms(Index cols, Entry&& entry, Eigen::VectorXd& norms) {
    norms = norms.cwiseSqrt();
    if (norms.size() == 0 || norms.maxCoeff() < std::numeric_limits<double>::infinity())
        return; // no sum overflowed (one vectorised test instead of one per row)
    for (Index k = 0; k < norms.size(); ++k)
        if (std::isinf(norms[k]))
            norms[k] = rescaledNorm(cols, [&](Index j) { return entry(k, j); });
}

} // namespace

void DenseRows::copyBlock(Index begin, Index count, DenseMatrix& out) const {
    out.resize(count, cols);
    // The rows' factors: stored, or — clipped rows — 1/max(1, ‖row‖₂) from the unscaled rows,
    // computed from the stored columns here (no second pass over out), exactly clipFactor's.
    const double* f = scale ? scale + begin : nullptr;
    thread_local Eigen::VectorXd clipFactors; // no allocation per block
    if (clipped) {
        sumSquaresByColumns(
            count, stored, [&](Index j) { return Eigen::Map<const Eigen::VectorXd>(data + j * n + begin, count); },
            clipFactors);
        if (intercept >= 0)
            clipFactors.array() += interceptValue * interceptValue;
        finishNorms(
            cols, [&](Index k, Index j) { return unscaled(begin + k, j); }, clipFactors);
        clipFactors = clipFactors.cwiseMax(1.0).cwiseInverse(); // exactly 1 inside the ball
        f = clipFactors.data();
    }
    for (Index j = 0; j < stored; ++j) {
        const Eigen::Map<const Eigen::VectorXd> column(data + j * n + begin, count);
        if (f)
            out.col(j) = column.cwiseProduct(Eigen::Map<const Eigen::VectorXd>(f, count));
        else
            out.col(j) = column;
    }
    if (intercept >= 0) {
        if (f)
            out.col(stored) = interceptValue * Eigen::Map<const Eigen::VectorXd>(f, count);
        else
            out.col(stored).setConstant(interceptValue);
    }
}

double DenseRows::clipFactor(Index i) const {
    // copyBlock's sums for this one row: the same additions in the same order.
    double sum = 0.0;
    for (Index j = 0; j < cols; ++j) {
        const double x = unscaled(i, j);
        sum += x * x;
    }
    double norm = std::sqrt(sum);
    if (std::isinf(norm))
        norm = rescaledNorm(cols, [&](Index j) { return unscaled(i, j); });
    return 1.0 / std::max(norm, 1.0);
}

void blockRowNorms(const Eigen::Ref<const DenseMatrix, 0, Eigen::OuterStride<>>& rows, Eigen::VectorXd& norms) {
    sumSquaresByColumns(
        rows.rows(), rows.cols(), [&](Index j) { return rows.col(j); }, norms);
    finishNorms(
        rows.cols(), [&](Index k, Index j) { return rows(k, j); }, norms);
}

namespace {

// visit(i, ‖x_i‖) for every row of a sparse X in order. √Σx² overflows for entries above ~1e154, and a row
// "clipped" by an infinite norm would silently become 0. The fast norm is exact otherwise; only
// overflowed rows are redone with the largest |x_ij| factored out.
template <class Visit>
void forEachRowNorm(const FeatureMatrix& X, Visit&& visit) {
    // Σ x² in storage order (as Eigen sums a sparse row), over the entries as stored·factor
    // and the implicit column: a view and its plain copy give the same norms.
    const CsrRows r = X.csrRows();
    for (Index i = 0; i < r.n; ++i) {
        double sum = 0.0, maxAbs = 0.0;
        r.forEachEntry(i, [&](int, double x) {
            sum += x * x;
            maxAbs = std::max(maxAbs, std::abs(x));
        });
        double norm = std::sqrt(sum);
        if (std::isinf(norm)) {
            double rescaled = 0.0;
            r.forEachEntry(i, [&](int, double x) { rescaled += (x / maxAbs) * (x / maxAbs); });
            norm = maxAbs * std::sqrt(rescaled);
        }
        visit(i, norm);
    }
}

/// visit(begin, norms) for the blocks of forEachBlock, in parallel (visit is called from any
/// thread, once per block). By blocks of rows as the plain copy holds them: a view and its copy
/// give the same norms, and each row's norm does not depend on the blocks.
template <class Visit>
void forEachDenseBlockNorms(const DenseRows& d, Visit&& visit) {
    const Index step = d.blockRows();
    const Index blocks = step > 0 ? (d.n + step - 1) / step : 0;
    tbb::parallel_for(Index(0), blocks, [&](Index k) {
        const Index b = k * step;
        const Index m = std::min(step, d.n - b);
        Eigen::VectorXd norms;
        if (d.plain()) {
            const Eigen::Map<const DenseMatrix, 0, Eigen::OuterStride<>> rows(d.data + b, m, d.stored,
                                                                              Eigen::OuterStride<>(d.n));
            blockRowNorms(rows, norms);
        } else {
            DenseMatrix buffer;
            d.copyBlock(b, m, buffer);
            blockRowNorms(buffer, norms);
        }
        visit(b, norms);
    });
}

} // namespace

Eigen::VectorXd FeatureMatrix::columnSquaredNorms() const {
    if (!isSparse())
        return dense().colwise().squaredNorm().transpose();
    Eigen::VectorXd e = Eigen::VectorXd::Zero(cols());
    const SparseMatrix& s = sparse();
    for (Index i = 0; i < s.outerSize(); ++i)
        for (SparseMatrix::InnerIterator it(s, i); it; ++it)
            e[it.col()] += it.value() * it.value();
    return e;
}

Eigen::VectorXd FeatureMatrix::rowNorms() const {
    Eigen::VectorXd norms(rows());
    if (!isSparse()) {
        forEachDenseBlockNorms(
            denseRows(), [&norms](Index b, const Eigen::VectorXd& block) { norms.segment(b, block.size()) = block; });
        return norms;
    }
    forEachRowNorm(*this, [&norms](Index i, double norm) { norms[i] = norm; });
    return norms;
}

FeatureMatrix::NormsAbove FeatureMatrix::rowNormsAbove(double bound) const {
    NormsAbove r;
    const auto add = [bound](NormsAbove& to, double norm) {
        to.largest = std::max(to.largest, norm);
        to.count += norm > bound ? 1 : 0;
    };
    if (!isSparse()) { // the largest and the count do not depend on the order of the blocks
        std::mutex merge;
        forEachDenseBlockNorms(denseRows(), [&](Index, const Eigen::VectorXd& block) {
            NormsAbove part;
            for (Index k = 0; k < block.size(); ++k)
                add(part, block[k]);
            const std::lock_guard lock(merge);
            r.largest = std::max(r.largest, part.largest);
            r.count += part.count;
        });
        return r;
    }
    forEachRowNorm(*this, [&](Index, double norm) { add(r, norm); });
    return r;
}

double FeatureMatrix::maxRowNorm() const { return rowNormsAbove(std::numeric_limits<double>::infinity()).largest; }

} // namespace elab::core
