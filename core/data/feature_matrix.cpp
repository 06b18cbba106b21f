#include "core/data/feature_matrix.h"

#include <algorithm>
#include <cmath>

namespace elab::core {

Index FeatureMatrix::rows() const {
    return std::visit([](const auto& m) { return static_cast<Index>(m.rows()); }, m_data);
}

Index FeatureMatrix::cols() const {
    return std::visit([](const auto& m) { return static_cast<Index>(m.cols()); }, m_data);
}

std::size_t FeatureMatrix::storedEntries() const {
    if (isSparse())
        return static_cast<std::size_t>(sparse().nonZeros());
    return static_cast<std::size_t>(dense().size());
}

std::size_t FeatureMatrix::memoryBytes() const {
    if (isSparse()) {
        const auto& s = sparse();
        return static_cast<std::size_t>(s.nonZeros()) * (sizeof(double) + sizeof(int)) +
               static_cast<std::size_t>(s.outerSize() + 1) * sizeof(int);
    }
    return static_cast<std::size_t>(dense().size()) * sizeof(double);
}

double FeatureMatrix::value(Index i, Index j) const {
    if (!isSparse())
        return dense()(i, j);
    const auto& s = sparse();
    const int* begin = s.innerIndexPtr() + s.outerIndexPtr()[i];
    // Uncompressed (after insert()): row i's live entries end before its free slots.
    const int* end = s.isCompressed() ? s.innerIndexPtr() + s.outerIndexPtr()[i + 1]
                                      : begin + s.innerNonZeroPtr()[i];
    const int* it = std::lower_bound(begin, end, static_cast<int>(j));
    if (it == end || *it != j)
        return 0.0;
    return s.valuePtr()[it - s.innerIndexPtr()];
}

Eigen::VectorXd FeatureMatrix::rowNorms() const {
    // √Σx² overflows for entries above ~1e154, and a row "clipped" by an infinite norm would
    // silently become 0. The fast norm is exact otherwise; only overflowed rows are redone
    // with the largest |x_ij| factored out.
    const auto scaled = [](auto row, double maxAbs) { return maxAbs * (row / maxAbs).norm(); };
    if (isSparse()) {
        const auto& s = sparse();
        Eigen::VectorXd norms(s.rows());
        for (Index i = 0; i < s.rows(); ++i) {
            norms[i] = s.row(i).norm();
            if (std::isinf(norms[i])) {
                double maxAbs = 0.0;
                for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                    maxAbs = std::max(maxAbs, std::abs(it.value()));
                norms[i] = scaled(s.row(i), maxAbs);
            }
        }
        return norms;
    }
    const auto& d = dense();
    Eigen::VectorXd norms = d.rowwise().norm();
    for (Index i = 0; i < d.rows(); ++i)
        if (std::isinf(norms[i]))
            norms[i] = scaled(d.row(i), d.row(i).cwiseAbs().maxCoeff());
    return norms;
}

void FeatureMatrix::scaleRows(const Eigen::VectorXd& factor) {
    if (isSparse()) {
        auto& s = sparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                it.valueRef() *= factor[i];
    } else {
        dense() = factor.asDiagonal() * dense();
    }
}

void FeatureMatrix::appendConstantColumn(double value) {
    if (isSparse()) {
        auto& s = sparse();
        SparseMatrix out(s.rows(), s.cols() + 1);
        // Eigen 3.4's makeCompressed() after reserve() reads past the end with 0 rows.
        if (s.rows() == 0) {
            s.swap(out);
            return;
        }
        out.reserve(Eigen::VectorXi::Map(s.outerIndexPtr() + 1, s.rows()) -
                    Eigen::VectorXi::Map(s.outerIndexPtr(), s.rows()) +
                    Eigen::VectorXi::Ones(s.rows()));
        for (Index i = 0; i < s.rows(); ++i) {
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                out.insert(i, it.col()) = it.value();
            out.insert(i, s.cols()) = value;
        }
        out.makeCompressed();
        s.swap(out);
    } else {
        auto& d = dense();
        d.conservativeResize(Eigen::NoChange, d.cols() + 1);
        d.col(d.cols() - 1).setConstant(value);
    }
}

FeatureMatrix FeatureMatrix::selectRows(const std::vector<Index>& rowList) const {
    const auto n = static_cast<Index>(rowList.size());
    if (isSparse()) {
        const auto& s = sparse();
        SparseMatrix out(n, s.cols());
        if (n == 0) // Eigen 3.4's makeCompressed() after reserve() reads past the end
            return FeatureMatrix(std::move(out));
        Eigen::VectorXi sizes(n);
        for (Index k = 0; k < n; ++k)
            sizes[k] = s.outerIndexPtr()[rowList[k] + 1] - s.outerIndexPtr()[rowList[k]];
        out.reserve(sizes);
        for (Index k = 0; k < n; ++k)
            for (SparseMatrix::InnerIterator it(s, rowList[k]); it; ++it)
                out.insert(k, it.col()) = it.value();
        out.makeCompressed();
        return FeatureMatrix(std::move(out));
    }
    const auto& d = dense();
    DenseMatrix out(n, d.cols());
    for (Index k = 0; k < n; ++k)
        out.row(k) = d.row(rowList[k]);
    return FeatureMatrix(std::move(out));
}

} // namespace elab::core
