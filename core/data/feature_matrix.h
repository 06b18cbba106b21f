#pragma once
// Features of a dataset: dense (Eigen::MatrixXd, column-major) or sparse (row-major CSR),
// chosen by the loader. Kernels that care switch on isSparse(); everything else uses the
// helpers here.

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace elab::core {

using Index = Eigen::Index;
using DenseMatrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// A CSR matrix's rows as the row kernels read them (core/model/sparse_rows.h), without
/// copying: row i is its stored entries [begin(i), end(i)) of inner/values, each value times
/// factor(i), then — when intercept ≥ 0 — one more entry in column intercept (the last column)
/// of value interceptValue·factor(i). A plain CSR matrix has no scale and no intercept.
struct CsrRows {
    const int* outer = nullptr;
    const int* counts = nullptr; ///< nullptr when compressed (else live entries per row)
    const int* inner = nullptr;
    const double* values = nullptr;
    Index n = 0;
    Index cols = 0;
    const double* scale = nullptr; ///< row factors; nullptr: all 1
    int intercept = -1;            ///< column of the implicit last entry; −1: none
    double interceptValue = 0.0;

    CsrRows(const SparseMatrix&&) = delete; // would point into a temporary
    CsrRows(const SparseMatrix& X)          // NOLINT(google-explicit-constructor): a plain matrix's rows
        : outer(X.outerIndexPtr()), counts(X.isCompressed() ? nullptr : X.innerNonZeroPtr()), inner(X.innerIndexPtr()),
          values(X.valuePtr()), n(X.outerSize()), cols(X.innerSize()) {}
    int begin(Index i) const { return outer[i]; }
    int end(Index i) const { return counts ? outer[i] + counts[i] : outer[i + 1]; }
    double factor(Index i) const { return scale ? scale[i] : 1.0; }
    /// Rows [begin, begin + count) as a CsrRows of count rows (no copy).
    CsrRows slice(Index begin, Index count) const {
        CsrRows r = *this;
        r.outer += begin;
        if (r.counts)
            r.counts += begin;
        if (r.scale)
            r.scale += begin;
        r.n = count;
        return r;
    }
    /// Entries of row i, the implicit one included.
    int length(Index i) const { return end(i) - begin(i) + (intercept >= 0 ? 1 : 0); }
    /// Entries of all rows, the implicit ones included.
    std::size_t nonZeros() const;
    /// visit(column, value) for each entry of row i in storage order, the implicit one last;
    /// value = stored·factor(i), as in the plain copy of the rows. Not for hot loops.
    template <class Visit>
    void forEachEntry(Index i, Visit&& visit) const {
        const double f = factor(i);
        for (int k = begin(i); k < end(i); ++k)
            visit(inner[k], values[k] * f);
        if (intercept >= 0)
            visit(intercept, interceptValue * f);
    }
};

/// A dense matrix's rows as the row-block kernels read them (core/model/dense_rows.h), without
/// copying: column-major storage of n rows × stored columns, row i's values times factor(i),
/// then — when intercept ≥ 0 — one more column (the last) of value interceptValue·factor(i). A
/// plain matrix has no scale and no intercept. The values are those of the plain copy
/// (append the column, then multiply each value by its row's factor), bit for bit.
/// factor(i) is scale[i], or — clipped rows — 1/max(1, ‖row i‖₂) of the unscaled row
/// (stored and implicit entries), computed from the row each time it is read.
struct DenseRows {
    const double* data = nullptr; ///< column j of the stored ones starts at data + j·n
    Index n = 0;
    Index stored = 0;              ///< columns held in data
    Index cols = 0;                ///< stored, plus the implicit intercept column
    const double* scale = nullptr; ///< row factors; nullptr: all 1 (or clipped)
    int intercept = -1;            ///< column of the implicit last entry; −1: none
    double interceptValue = 0.0;
    bool clipped = false; ///< factor(i) = 1/max(1, ‖row i‖₂) (then scale is nullptr)

    DenseRows(const DenseMatrix&&) = delete; // would point into a temporary
    DenseRows(const DenseMatrix& X)          // NOLINT(google-explicit-constructor): a plain matrix's rows
        : data(X.data()), n(X.rows()), stored(X.cols()), cols(X.cols()) {}
    bool plain() const { return scale == nullptr && !clipped && intercept < 0; }
    /// Row i's factor: O(cols) for clipped rows. Not for hot loops.
    double factor(Index i) const { return clipped ? clipFactor(i) : scale ? scale[i] : 1.0; }
    /// Entry (i, j) before the row's factor.
    double unscaled(Index i, Index j) const { return j < stored ? data[j * n + i] : interceptValue; }
    /// Entry (i, j) as the plain copy holds it. Not for hot loops (O(cols) for clipped rows).
    double at(Index i, Index j) const { return unscaled(i, j) * factor(i); }
    /// Rows per block of forEachBlock: a block of rows × cols doubles stays within ≈ 256 KiB.
    Index blockRows() const;
    /// visit(begin, block) for consecutive blocks of blockRows() rows (the last may be shorter),
    /// block being those rows as the plain copy holds them: a plain matrix's rows in place, a
    /// view's formed in one buffer of one block. Deterministic: the blocks depend on n and cols only.
    template <class Visit>
    void forEachBlock(Visit&& visit) const {
        using Block = Eigen::Ref<const DenseMatrix, 0, Eigen::OuterStride<>>;
        const Index step = blockRows();
        DenseMatrix buffer;
        for (Index b = 0; b < n; b += step) {
            const Index m = std::min(step, n - b);
            if (plain()) {
                const Eigen::Map<const DenseMatrix, 0, Eigen::OuterStride<>> rows(data + b, m, stored,
                                                                                  Eigen::OuterStride<>(n));
                visit(b, Block(rows));
            } else {
                copyBlock(b, m, buffer);
                visit(b, Block(buffer));
            }
        }
    }
    /// Rows [begin, begin + count) as the plain copy holds them, into out (count × cols).
    void copyBlock(Index begin, Index count, DenseMatrix& out) const;

private:
    double clipFactor(Index i) const;
};

/// ‖x_k‖₂ of each row of a block: Σ_j x_kj² summed in column order (as for one row read alone,
/// so a clipped row's factor is the same whichever way it is read), rows whose sum overflows
/// redone with max_j |x_kj| factored out.
void blockRowNorms(const Eigen::Ref<const DenseMatrix, 0, Eigen::OuterStride<>>& rows, Eigen::VectorXd& norms);

class FeatureMatrix {
public:
    FeatureMatrix() = default; ///< an empty dense matrix (no buffers)
    explicit FeatureMatrix(DenseMatrix m) : m_data(std::make_shared<DenseMatrix>(std::move(m))) {}
    /// Takes the buffers of m (Eigen 3.4's SparseMatrix "move" copies; swap does not).
    explicit FeatureMatrix(SparseMatrix&& m) {
        auto owned = std::make_shared<SparseMatrix>();
        owned->swap(m);
        m_data = std::move(owned);
    }
    explicit FeatureMatrix(const SparseMatrix& m) : m_data(std::make_shared<SparseMatrix>(m)) {}

    // Copies share the buffers (O(1)); the first mutable access of a shared copy gives it its
    // own (copy on write). A dataset and the prepared copy a view trains on thus hold one matrix
    // until preprocessing changes it (issue 15: memory ≤ 2× the matrix).
    FeatureMatrix(const FeatureMatrix&) = default;
    FeatureMatrix& operator=(const FeatureMatrix&) = default;
    /// A moved-from matrix is an empty dense one.
    FeatureMatrix(FeatureMatrix&& other) noexcept : m_data(std::move(other.m_data)) { other.m_data = DensePtr(); }
    FeatureMatrix& operator=(FeatureMatrix&& other) noexcept {
        if (this != &other) {
            m_data = std::move(other.m_data);
            other.m_data = DensePtr();
        }
        return *this;
    }

    bool isSparse() const {
        return std::holds_alternative<SparsePtr>(m_data) || std::holds_alternative<ViewPtr>(m_data);
    }
    /// True when the matrix is a scaled view of another's buffers (rows scaled and/or an
    /// intercept column appended to a matrix another FeatureMatrix shares): csrRows() and
    /// denseRows() read it without a copy; sparse() and dense() make the copy once, on first use.
    bool isView() const {
        return std::holds_alternative<ViewPtr>(m_data) || std::holds_alternative<DenseViewPtr>(m_data);
    }
    /// The rows of a sparse matrix for the row kernels: no copy, also of a view.
    CsrRows csrRows() const;
    /// The rows of a dense matrix for the row-block kernels: no copy, also of a view.
    DenseRows denseRows() const;
    Index rows() const;
    Index cols() const;
    /// Stored entries: rows·cols when dense.
    std::size_t storedEntries() const;
    /// Bytes held by the matrix buffers (values and indices).
    std::size_t memoryBytes() const;
    /// True when this matrix shares its buffers with another FeatureMatrix (for tests).
    bool sharesBuffersWith(const FeatureMatrix& other) const;

    const DenseMatrix& dense() const;
    const SparseMatrix& sparse() const;
    /// How many views have been copied into a plain matrix by sparse() or a change, since the
    /// start (for tests: the paths that read rows through csrRows() must not add to it).
    static long viewsMaterialised();
    /// For changing the matrix in place: copies shared buffers first (and turns a view into a
    /// plain matrix).
    DenseMatrix& mutableDense();
    SparseMatrix& mutableSparse();

    /// Entry (i, j); O(log nnz(row)) for sparse. For previews, not for kernels.
    double value(Index i, Index j) const;
    /// Euclidean norm of each row.
    Eigen::VectorXd rowNorms() const;
    /// Σ_i x_ij² of each column j.
    Eigen::VectorXd columnSquaredNorms() const;
    /// The largest of rowNorms() (0 for no rows), without the n-vector.
    double maxRowNorm() const;
    /// Multiplies row i by factor[i]. On buffers another FeatureMatrix shares, the factors are
    /// kept beside them (a view; a second scaling makes the copy).
    void scaleRows(Eigen::VectorXd factor); ///< taken, not copied, by a view (std::move it in)
    /// How many rows have ‖x_i‖₂ > bound, and the largest ‖x_i‖₂ (0 for no rows; a NaN norm
    /// counts in neither), without the n-vector of norms.
    struct NormsAbove {
        Index count = 0;
        double largest = 0.0;
    };
    NormsAbove rowNormsAbove(double bound) const;
    /// x_i ← x_i / max(1, ‖x_i‖₂) (the factors of rowNorms()): as scaleRows, except that a view
    /// of a dense matrix of at most kRecomputedClipColumns columns keeps no factors and
    /// recomputes each row's from the row as it reads it (a million rows of two columns: 8 MB
    /// less, and no n-vector of norms formed; issue 15).
    void clipRows();
    static constexpr Index kRecomputedClipColumns = 16;
    /// Appends a constant column (the intercept feature) on the right. On buffers another
    /// FeatureMatrix shares: a view; otherwise a new matrix built from this one.
    void appendConstantColumn(double value);
    /// The rows listed, in that order.
    FeatureMatrix selectRows(const std::vector<Index>& rows) const;
    /// A dense matrix's rows as a plain CSR matrix (the values of the plain copy, zeros not
    /// stored, each row's columns ascending) when at most maxDensity of its entries are non-zero,
    /// else nullopt (also for a sparse matrix). Two passes over the rows, by blocks.
    std::optional<FeatureMatrix> sparseCopy(double maxDensity) const;

private:
    using DensePtr = std::shared_ptr<DenseMatrix>;
    using SparsePtr = std::shared_ptr<SparseMatrix>;
    template <class Matrix>
    struct View;
    using ViewPtr = std::shared_ptr<const View<SparseMatrix>>;
    using DenseViewPtr = std::shared_ptr<const View<DenseMatrix>>;
    std::variant<DensePtr, SparsePtr, ViewPtr, DenseViewPtr> m_data;
    const SparsePtr& plainSparse() const { return std::get<SparsePtr>(m_data); }
    template <class Matrix>
    std::shared_ptr<View<Matrix>> unscaledViewOfShared() const; ///< null: the buffers are this matrix's own
    template <class Matrix>
    bool viewInsteadOfScaling(Eigen::VectorXd& factor); ///< moves factor into the view when it returns true
    template <class Matrix>
    bool viewInsteadOfAppending(double value);
};

} // namespace elab::core
