#include "core/data/feature_matrix.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <type_traits>

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

// A compressed CSR matrix of n rows written in place: row k has length(k) entries, which
// fill(k, inner, values) writes in ascending column order (no per-entry insert).
template <class Length, class Fill>
SparseMatrix compressedRows(Index n, Index cols, Length&& length, Fill&& fill) {
    SparseMatrix out(n, cols); // compressed, outer index zeroed
    std::size_t total = 0;
    for (Index k = 0; k < n; ++k)
        total += static_cast<std::size_t>(length(k));
    if (total > static_cast<std::size_t>(std::numeric_limits<SparseMatrix::StorageIndex>::max()))
        throw std::length_error("sparse matrix: more non-zeros than its index type holds");
    out.resizeNonZeros(static_cast<Index>(total));
    auto* outer = out.outerIndexPtr();
    for (Index k = 0; k < n; ++k) {
        outer[k + 1] = outer[k] + static_cast<SparseMatrix::StorageIndex>(length(k));
        fill(k, out.innerIndexPtr() + outer[k], out.valuePtr() + outer[k]);
    }
    return out;
}

// The rows listed (all rows when list is null) as a plain compressed CSR matrix: the same values
// the plain operations give (append the column, then multiply each value by its row's factor).
SparseMatrix copyRows(const CsrRows& r, const std::vector<Index>* list) {
    const Index n = list ? static_cast<Index>(list->size()) : r.n;
    const auto source = [&](Index k) { return list ? (*list)[static_cast<std::size_t>(k)] : k; };
    return compressedRows(
        n, r.cols, [&](Index k) { return r.length(source(k)); },
        [&](Index k, SparseMatrix::StorageIndex* inner, double* values) {
            r.forEachEntry(source(k), [&](int c, double v) {
                *inner++ = c;
                *values++ = v;
            });
        });
}

} // namespace

/// A matrix that another FeatureMatrix's buffers describe: its rows scaled and/or an intercept
/// column appended (see CsrRows, DenseRows). Immutable once made; sparse() / dense() copy it once.
template <class Matrix>
struct FeatureMatrix::View {
    std::shared_ptr<Matrix> base;
    Eigen::VectorXd scale; ///< empty: 1 (or clipped)
    bool clipped = false;  ///< dense: rows clipped to the unit ball, factors recomputed (DenseRows)
    bool intercept = false;
    double interceptValue = 0.0;
    mutable std::once_flag copied;
    mutable Matrix copy;

    auto rows() const {
        std::conditional_t<std::is_same_v<Matrix, SparseMatrix>, CsrRows, DenseRows> r(*base);
        r.cols = base->cols() + (intercept ? 1 : 0);
        r.scale = scale.size() > 0 ? scale.data() : nullptr;
        if constexpr (std::is_same_v<Matrix, DenseMatrix>)
            r.clipped = clipped;
        r.intercept = intercept ? static_cast<int>(base->cols()) : -1;
        r.interceptValue = interceptValue;
        return r;
    }
    const Matrix& plain() const {
        std::call_once(copied, [this] {
            if constexpr (std::is_same_v<Matrix, SparseMatrix>) {
                copy = copyRows(rows(), nullptr);
            } else {
                const DenseRows r = rows();
                r.copyBlock(0, r.n, copy);
            }
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
    if (std::holds_alternative<ViewPtr>(m_data))
        return std::get<ViewPtr>(m_data)->rows();
    return CsrRows(sparse());
}

DenseRows FeatureMatrix::denseRows() const {
    if (std::holds_alternative<DenseViewPtr>(m_data))
        return std::get<DenseViewPtr>(m_data)->rows();
    return DenseRows(dense());
}

const DenseMatrix& FeatureMatrix::dense() const {
    if (std::holds_alternative<DenseViewPtr>(m_data))
        return std::get<DenseViewPtr>(m_data)->plain();
    const DensePtr& p = std::get<DensePtr>(m_data);
    return p ? *p : emptyDense();
}

const SparseMatrix& FeatureMatrix::sparse() const {
    if (std::holds_alternative<ViewPtr>(m_data))
        return std::get<ViewPtr>(m_data)->plain();
    return *plainSparse(); // never null: only a moved-from (dense) matrix holds no buffers
}

DenseMatrix& FeatureMatrix::mutableDense() {
    if (std::holds_alternative<DenseViewPtr>(m_data))
        m_data = std::make_shared<DenseMatrix>(dense());
    return ownedCopy(std::get<DensePtr>(m_data));
}

SparseMatrix& FeatureMatrix::mutableSparse() {
    if (std::holds_alternative<ViewPtr>(m_data))
        m_data = std::make_shared<SparseMatrix>(sparse());
    return ownedCopy(std::get<SparsePtr>(m_data));
}

bool FeatureMatrix::sharesBuffersWith(const FeatureMatrix& other) const {
    if (isSparse() != other.isSparse())
        return false;
    // The shared buffers of a plain matrix or a view (null only for a moved-from dense matrix).
    const auto buffers = [](const FeatureMatrix& m) -> const void* {
        return std::visit(
            [](const auto& p) -> const void* {
                if constexpr (requires { p->base; })
                    return p->base.get();
                else
                    return p.get();
            },
            m.m_data);
    };
    return buffers(*this) && buffers(*this) == buffers(other);
}

Index FeatureMatrix::rows() const {
    if (isSparse())
        return csrRows().n;
    return denseRows().n;
}

Index FeatureMatrix::cols() const {
    if (isSparse())
        return csrRows().cols;
    return denseRows().cols;
}

std::size_t FeatureMatrix::storedEntries() const {
    if (isView() && isSparse())
        return csrRows().nonZeros();
    if (isSparse())
        return static_cast<std::size_t>(sparse().nonZeros());
    const DenseRows r = denseRows();
    return static_cast<std::size_t>(r.n) * static_cast<std::size_t>(r.cols);
}

std::size_t FeatureMatrix::memoryBytes() const {
    // A view: the buffers it keeps alive, the shared matrix and the row factors.
    if (std::holds_alternative<ViewPtr>(m_data)) {
        const View<SparseMatrix>& v = *std::get<ViewPtr>(m_data);
        return csrBytes(*v.base) + static_cast<std::size_t>(v.scale.size()) * sizeof(double);
    }
    if (std::holds_alternative<DenseViewPtr>(m_data)) {
        const View<DenseMatrix>& v = *std::get<DenseViewPtr>(m_data);
        return static_cast<std::size_t>(v.base->size() + v.scale.size()) * sizeof(double);
    }
    if (isSparse())
        return csrBytes(sparse());
    return static_cast<std::size_t>(dense().size()) * sizeof(double);
}

double FeatureMatrix::value(Index i, Index j) const {
    if (!isSparse())
        return denseRows().at(i, j);
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

// Shared buffers, or a view not yet scaled: a new view of the same rows (its factors to be
// set), else null (the buffers are this matrix's own, to change in place).
template <class Matrix>
std::shared_ptr<FeatureMatrix::View<Matrix>> FeatureMatrix::unscaledViewOfShared() const {
    using Ptr = std::shared_ptr<const View<Matrix>>;
    using PlainPtr = std::shared_ptr<Matrix>;
    const bool unscaledView = std::holds_alternative<Ptr>(m_data) && std::get<Ptr>(m_data)->scale.size() == 0 &&
                              !std::get<Ptr>(m_data)->clipped;
    const bool sharedPlain = std::holds_alternative<PlainPtr>(m_data) && std::get<PlainPtr>(m_data) &&
                             std::get<PlainPtr>(m_data).use_count() > 1;
    if (!(unscaledView || sharedPlain))
        return nullptr;
    auto view = std::make_shared<View<Matrix>>();
    if (unscaledView) {
        const View<Matrix>& v = *std::get<Ptr>(m_data);
        view->base = v.base;
        view->intercept = v.intercept;
        view->interceptValue = v.interceptValue;
    } else {
        view->base = std::get<PlainPtr>(m_data);
    }
    return view;
}

// Shared buffers, or a view not yet scaled: keep the factors beside them (true), else false.
template <class Matrix>
bool FeatureMatrix::viewInsteadOfScaling(Eigen::VectorXd& factor) {
    if (factor.size() != rows())
        return false;
    std::shared_ptr<View<Matrix>> view = unscaledViewOfShared<Matrix>();
    if (!view)
        return false;
    view->scale = std::move(factor);
    m_data = std::shared_ptr<const View<Matrix>>(std::move(view));
    return true;
}

void FeatureMatrix::clipRows() {
    if (!isSparse() && cols() <= kRecomputedClipColumns) {
        if (std::shared_ptr<View<DenseMatrix>> view = unscaledViewOfShared<DenseMatrix>()) {
            view->clipped = true; // the factors are recomputed from the rows: these are not kept
            m_data = DenseViewPtr(std::move(view));
            return;
        }
    }
    Eigen::VectorXd factor = rowNorms(); // the norms become the factors in place
    for (Index i = 0; i < factor.size(); ++i)
        factor[i] = factor[i] > 1.0 ? 1.0 / factor[i] : 1.0;
    scaleRows(std::move(factor));
}

// Shared plain buffers: a view with the column implicit, no copy (true), else false.
template <class Matrix>
bool FeatureMatrix::viewInsteadOfAppending(double value) {
    using PlainPtr = std::shared_ptr<Matrix>;
    if (!(std::holds_alternative<PlainPtr>(m_data) && std::get<PlainPtr>(m_data) &&
          std::get<PlainPtr>(m_data).use_count() > 1))
        return false;
    auto view = std::make_shared<View<Matrix>>();
    view->base = std::get<PlainPtr>(m_data);
    view->intercept = true;
    view->interceptValue = value;
    m_data = std::shared_ptr<const View<Matrix>>(std::move(view));
    return true;
}

void FeatureMatrix::scaleRows(Eigen::VectorXd factor) {
    if (isSparse() ? viewInsteadOfScaling<SparseMatrix>(factor) : viewInsteadOfScaling<DenseMatrix>(factor))
        return;
    if (isSparse()) {
        auto& s = mutableSparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                it.valueRef() *= factor[i];
    } else {
        DenseMatrix& d = mutableDense();
        // Column by column in parallel (each entry one product: the same for any thread count).
        tbb::parallel_for(tbb::blocked_range<Index>(0, d.cols(), 8), [&](const tbb::blocked_range<Index>& r) {
            for (Index j = r.begin(); j < r.end(); ++j)
                d.col(j).array() *= factor.array();
        });
    }
}

void FeatureMatrix::appendConstantColumn(double value) {
    if (isSparse() ? viewInsteadOfAppending<SparseMatrix>(value) : viewInsteadOfAppending<DenseMatrix>(value))
        return;
    if (isSparse()) {
        const CsrRows r = csrRows(); // each row as the plain copy holds it (a view's too), then the new column
        const auto columns = static_cast<SparseMatrix::StorageIndex>(r.cols);
        SparseMatrix out = compressedRows(
            r.n, r.cols + 1, [&](Index i) { return r.length(i) + 1; },
            [&](Index i, SparseMatrix::StorageIndex* inner, double* values) {
                r.forEachEntry(i, [&](int c, double v) {
                    *inner++ = c;
                    *values++ = v;
                });
                *inner = columns;
                *values = value;
            });
        *this = FeatureMatrix(std::move(out)); // the old buffers stay with whoever shares them
    } else if (std::holds_alternative<DensePtr>(m_data) && std::get<DensePtr>(m_data)) {
        // Its own plain matrix (a shared one became a view above): grown in place. Column-major,
        // so the new column is appended to the buffer, which realloc extends without copying
        // when it can (a large block is remapped): MNIST's 376 MB in microseconds, not 0.2 s.
        DenseMatrix& d = *std::get<DensePtr>(m_data);
        const Index c = d.cols();
        d.conservativeResize(Eigen::NoChange, c + 1);
        d.col(c).setConstant(value);
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
    // Plain or view: each row's values as the plain copy holds them.
    if (isSparse())
        return FeatureMatrix(copyRows(csrRows(), &rowList));
    const DenseRows r = denseRows();
    DenseMatrix out(n, r.cols);
    for (Index k = 0; k < n; ++k) {
        const Index i = rowList[static_cast<std::size_t>(k)];
        const double f = r.factor(i); // once per row (O(cols) for clipped rows)
        for (Index j = 0; j < r.cols; ++j)
            out(k, j) = r.unscaled(i, j) * f;
    }
    return FeatureMatrix(std::move(out));
}

} // namespace elab::core
