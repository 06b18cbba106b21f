#pragma once
// A Cholesky factor kept in the matrix it was formed from (Eigen's in-place LLT): one p×p
// buffer, where LLT<MatrixXd>(M) keeps a copy beside M while it factorises. Same algorithm on
// the same numbers, so the same factor and the same solves (tests/core/test_newton_cg.cpp).
// On p = 1,000 that is 8 MB less per preconditioner being formed.

#include <Eigen/Cholesky>

#include <memory>

namespace elab::core {

class CholeskyFactor {
public:
    /// Factorises m (taken over; it holds L afterwards). nullptr if m is not positive definite.
    static std::shared_ptr<const CholeskyFactor> make(Eigen::MatrixXd&& m) {
        auto factor = std::shared_ptr<CholeskyFactor>(new CholeskyFactor(std::move(m)));
        if (factor->m_llt.info() != Eigen::Success)
            return nullptr;
        return factor;
    }
    CholeskyFactor(const CholeskyFactor&) = delete;
    CholeskyFactor& operator=(const CholeskyFactor&) = delete;

    /// out = M⁻¹ r.
    void solve(const Eigen::VectorXd& r, Eigen::VectorXd& out) const { out = m_llt.solve(r); }
    /// z ← M⁻¹ z.
    void solveInPlace(Eigen::VectorXd& z) const { m_llt.solveInPlace(z); }

private:
    explicit CholeskyFactor(Eigen::MatrixXd&& m) : m_matrix(std::move(m)), m_llt(m_matrix) {}
    Eigen::MatrixXd m_matrix;                      ///< the matrix, then its factor
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> m_llt; ///< refers to m_matrix (never moved: held by pointer)
};

} // namespace elab::core
