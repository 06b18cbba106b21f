#include "core/data/feature_matrix.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>

namespace elab::core {

namespace {

// A moved-from FeatureMatrix holds a null dense pointer: it reads as an empty matrix.
const DenseMatrix& emptyDense() {
    static const DenseMatrix empty;
    return empty;
}

// The object behind p, copied first when another FeatureMatrix shares it (or made when null).
template <class Matrix>
Matrix& ownedCopy(std::shared_ptr<Matrix>& p) {
    if (!p)
        p = std::make_shared<Matrix>();
    else if (p.use_count() > 1)
        p = std::make_shared<Matrix>(*p);
    return *p;
}

} // namespace

std::size_t CsrRows::nonZeros() const {
    std::size_t total = 0;
    for (Index i = 0; i < n; ++i)
        total += static_cast<std::size_t>(length(i));
    return total;
}

namespace {

std::atomic<long> g_viewsMaterialised{0};

// The rows listed (all rows when list is null) as a plain compressed CSR matrix: the same values
// the plain operations give (append the column, then multiply each value by its row's factor).
SparseMatrix copyRows(const CsrRows& r, const std::vector<Index>* list) {
    const Index n = list ? static_cast<Index>(list->size()) : r.n;
    SparseMatrix out(n, r.cols);
    if (n == 0) // Eigen 3.4's makeCompressed() after reserve() reads past the end
        return out;
    const auto source = [&](Index k) { return list ? (*list)[static_cast<std::size_t>(k)] : k; };
    Eigen::VectorXi sizes(n);
    for (Index k = 0; k < n; ++k)
        sizes[k] = r.length(source(k));
    out.reserve(sizes);
    for (Index k = 0; k < n; ++k)
        r.forEachEntry(source(k), [&](int c, double v) { out.insert(k, c) = v; });
    out.makeCompressed();
    return out;
}

} // namespace

/// A sparse matrix that another FeatureMatrix's buffers describe: its rows scaled and/or an
/// intercept column appended (see CsrRows). Immutable once made; sparse() copies it once.
struct FeatureMatrix::View {
    std::shared_ptr<SparseMatrix> base;
    Eigen::VectorXd scale; ///< empty: 1
    bool intercept = false;
    double interceptValue = 0.0;
    mutable std::once_flag copied;
    mutable SparseMatrix copy;

    CsrRows rows() const {
        CsrRows r(*base);
        r.cols = base->cols() + (intercept ? 1 : 0);
        r.scale = scale.size() > 0 ? scale.data() : nullptr;
        r.intercept = intercept ? static_cast<int>(base->cols()) : -1;
        r.interceptValue = interceptValue;
        return r;
    }
    const SparseMatrix& plain() const {
        std::call_once(copied, [this] {
            copy = copyRows(rows(), nullptr);
            g_viewsMaterialised.fetch_add(1, std::memory_order_relaxed);
        });
        return copy;
    }
};

namespace {

std::size_t csrBytes(const SparseMatrix& s) {
    return static_cast<std::size_t>(s.nonZeros()) * (sizeof(double) + sizeof(int)) +
           static_cast<std::size_t>(s.outerSize() + 1) * sizeof(int);
}

} // namespace

long FeatureMatrix::viewsMaterialised() { return g_viewsMaterialised.load(std::memory_order_relaxed); }

CsrRows FeatureMatrix::csrRows() const {
    if (isView())
        return std::get<ViewPtr>(m_data)->rows();
    return CsrRows(sparse());
}

const DenseMatrix& FeatureMatrix::dense() const {
    const DensePtr& p = std::get<DensePtr>(m_data);
    return p ? *p : emptyDense();
}

const SparseMatrix& FeatureMatrix::sparse() const {
    if (isView())
        return std::get<ViewPtr>(m_data)->plain();
    return *plainSparse(); // never null: only a moved-from (dense) matrix holds no buffers
}

DenseMatrix& FeatureMatrix::mutableDense() { return ownedCopy(std::get<DensePtr>(m_data)); }

SparseMatrix& FeatureMatrix::mutableSparse() {
    if (isView())
        m_data = std::make_shared<SparseMatrix>(sparse());
    return ownedCopy(std::get<SparsePtr>(m_data));
}

bool FeatureMatrix::sharesBuffersWith(const FeatureMatrix& other) const {
    if (isSparse() != other.isSparse())
        return false;
    if (!isSparse())
        return std::get<DensePtr>(m_data) && std::get<DensePtr>(m_data) == std::get<DensePtr>(other.m_data);
    const auto buffers = [](const FeatureMatrix& m) {
        return m.isView() ? std::get<ViewPtr>(m.m_data)->base.get() : m.plainSparse().get(); // never null
    };
    return buffers(*this) && buffers(*this) == buffers(other);
}

Index FeatureMatrix::rows() const {
    if (isView())
        return std::get<ViewPtr>(m_data)->base->rows();
    return isSparse() ? static_cast<Index>(sparse().rows()) : static_cast<Index>(dense().rows());
}

Index FeatureMatrix::cols() const {
    if (isView()) {
        const View& v = *std::get<ViewPtr>(m_data);
        return v.base->cols() + (v.intercept ? 1 : 0);
    }
    return isSparse() ? static_cast<Index>(sparse().cols()) : static_cast<Index>(dense().cols());
}

std::size_t FeatureMatrix::storedEntries() const {
    if (isView())
        return csrRows().nonZeros();
    if (isSparse())
        return static_cast<std::size_t>(sparse().nonZeros());
    return static_cast<std::size_t>(dense().size());
}

std::size_t FeatureMatrix::memoryBytes() const {
    if (isView()) { // the buffers it keeps alive: the shared matrix and the row factors
        const View& v = *std::get<ViewPtr>(m_data);
        return csrBytes(*v.base) + static_cast<std::size_t>(v.scale.size()) * sizeof(double);
    }
    if (isSparse())
        return csrBytes(sparse());
    return static_cast<std::size_t>(dense().size()) * sizeof(double);
}

double FeatureMatrix::value(Index i, Index j) const {
    if (!isSparse())
        return dense()(i, j);
    // Plain or view: row i's live entries (an uncompressed matrix has free slots after them),
    // times the row's factor, or the implicit last column.
    const CsrRows r = csrRows();
    if (j == r.intercept)
        return r.interceptValue * r.factor(i);
    const int* begin = r.inner + r.begin(i);
    const int* end = r.inner + r.end(i);
    const int* it = std::lower_bound(begin, end, static_cast<int>(j));
    return it == end || *it != j ? 0.0 : r.values[it - r.inner] * r.factor(i);
}

Eigen::VectorXd FeatureMatrix::rowNorms() const {
    // √Σx² overflows for entries above ~1e154, and a row "clipped" by an infinite norm would
    // silently become 0. The fast norm is exact otherwise; only overflowed rows are redone
    // with the largest |x_ij| factored out.
    if (isSparse()) {
        // Σ x² in storage order (as Eigen sums a sparse row), over the entries as stored·factor
        // and the implicit column: a view and its plain copy give the same norms.
        const CsrRows r = csrRows();
        Eigen::VectorXd norms(r.n);
        for (Index i = 0; i < r.n; ++i) {
            double sum = 0.0, maxAbs = 0.0;
            r.forEachEntry(i, [&](int, double x) {
                sum += x * x;
                maxAbs = std::max(maxAbs, std::abs(x));
            });
            norms[i] = std::sqrt(sum);
            if (std::isinf(norms[i])) {
                double rescaled = 0.0;
                r.forEachEntry(i, [&](int, double x) { rescaled += (x / maxAbs) * (x / maxAbs); });
                norms[i] = maxAbs * std::sqrt(rescaled);
            }
        }
        return norms;
    }
    const auto& d = dense();
    Eigen::VectorXd norms = d.rowwise().norm();
    for (Index i = 0; i < d.rows(); ++i)
        if (std::isinf(norms[i])) {
            const double maxAbs = d.row(i).cwiseAbs().maxCoeff();
            norms[i] = maxAbs * (d.row(i) / maxAbs).norm();
        }
    return norms;
}

void FeatureMatrix::scaleRows(const Eigen::VectorXd& factor) {
    // Shared buffers, or a view not yet scaled: keep the factors beside them.
    const bool unscaledView = isView() && std::get<ViewPtr>(m_data)->scale.size() == 0;
    const bool sharedPlain = !isView() && isSparse() && plainSparse().use_count() > 1;
    if ((unscaledView || sharedPlain) && factor.size() == rows()) {
        auto view = std::make_shared<View>();
        if (unscaledView) {
            const View& v = *std::get<ViewPtr>(m_data);
            view->base = v.base;
            view->intercept = v.intercept;
            view->interceptValue = v.interceptValue;
        } else {
            view->base = plainSparse();
        }
        view->scale = factor;
        m_data = ViewPtr(std::move(view));
        return;
    }
    if (isSparse()) {
        auto& s = mutableSparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                it.valueRef() *= factor[i];
    } else {
        DenseMatrix& d = mutableDense();
        d = factor.asDiagonal() * d;
    }
}

void FeatureMatrix::appendConstantColumn(double value) {
    if (!isView() && isSparse() && plainSparse().use_count() > 1) {
        // Shared buffers: a view with the column implicit (no copy).
        auto view = std::make_shared<View>();
        view->base = plainSparse();
        view->intercept = true;
        view->interceptValue = value;
        m_data = ViewPtr(std::move(view));
        return;
    }
    if (isSparse()) {
        const SparseMatrix& s = sparse();
        SparseMatrix out(s.rows(), s.cols() + 1);
        // Eigen 3.4's makeCompressed() after reserve() reads past the end with 0 rows.
        if (s.rows() > 0) {
            Eigen::VectorXi sizes(s.rows());
            for (Index i = 0; i < s.rows(); ++i)
                sizes[i] = static_cast<int>(s.row(i).nonZeros()) + 1;
            out.reserve(sizes);
            for (Index i = 0; i < s.rows(); ++i) {
                for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                    out.insert(i, it.col()) = it.value();
                out.insert(i, s.cols()) = value;
            }
            out.makeCompressed();
        }
        *this = FeatureMatrix(std::move(out)); // the old buffers stay with whoever shares them
    } else {
        const DenseMatrix& d = dense();
        DenseMatrix out(d.rows(), d.cols() + 1);
        out.leftCols(d.cols()) = d;
        out.col(d.cols()).setConstant(value);
        *this = FeatureMatrix(std::move(out));
    }
}

FeatureMatrix FeatureMatrix::selectRows(const std::vector<Index>& rowList) const {
    const auto n = static_cast<Index>(rowList.size());
    if (isView())
        return FeatureMatrix(copyRows(csrRows(), &rowList));
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
