#pragma once
// Features of a dataset: dense (Eigen::MatrixXd, column-major) or sparse (row-major CSR),
// chosen by the loader. Kernels that care switch on isSparse(); everything else uses the
// helpers here.

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cstddef>
#include <variant>
#include <vector>

namespace elab::core {

using Index = Eigen::Index;
using DenseMatrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

class FeatureMatrix {
public:
    FeatureMatrix() = default;
    explicit FeatureMatrix(DenseMatrix m) : m_data(std::move(m)) {}
    /// Takes the buffers of m (Eigen 3.4's SparseMatrix "move" copies; swap does not).
    explicit FeatureMatrix(SparseMatrix&& m) { m_data.emplace<SparseMatrix>().swap(m); }
    explicit FeatureMatrix(const SparseMatrix& m) : m_data(m) {}
    FeatureMatrix(const FeatureMatrix&) = default;
    FeatureMatrix& operator=(const FeatureMatrix&) = default;
    FeatureMatrix(FeatureMatrix&& other) noexcept { takeFrom(other); }
    FeatureMatrix& operator=(FeatureMatrix&& other) noexcept {
        if (this != &other)
            takeFrom(other);
        return *this;
    }

    bool isSparse() const { return std::holds_alternative<SparseMatrix>(m_data); }
    Index rows() const;
    Index cols() const;
    /// Stored entries: rows·cols when dense.
    std::size_t storedEntries() const;
    /// Bytes held by the matrix buffers (values and indices).
    std::size_t memoryBytes() const;

    const DenseMatrix& dense() const { return std::get<DenseMatrix>(m_data); }
    DenseMatrix& dense() { return std::get<DenseMatrix>(m_data); }
    const SparseMatrix& sparse() const { return std::get<SparseMatrix>(m_data); }
    SparseMatrix& sparse() { return std::get<SparseMatrix>(m_data); }

    /// Entry (i, j); O(log nnz(row)) for sparse. For previews, not for kernels.
    double value(Index i, Index j) const;
    /// Euclidean norm of each row.
    Eigen::VectorXd rowNorms() const;
    /// Multiplies row i by factor[i].
    void scaleRows(const Eigen::VectorXd& factor);
    /// Appends a constant column (the intercept feature) on the right.
    void appendConstantColumn(double value);
    /// The rows listed, in that order.
    FeatureMatrix selectRows(const std::vector<Index>& rows) const;

private:
    void takeFrom(FeatureMatrix& other) noexcept {
        if (other.isSparse())
            m_data.emplace<SparseMatrix>().swap(other.sparse());
        else
            m_data.emplace<DenseMatrix>(std::move(other.dense()));
    }

    std::variant<DenseMatrix, SparseMatrix> m_data;
};

} // namespace elab::core
