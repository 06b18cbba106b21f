#include "core/learners/gaussian_lm/gaussian_lm_problem.h"

#include "core/optim/dense_products.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace elab::core::glm {

namespace {
const double kSqrt2 = std::sqrt(2.0);
}

Eigen::VectorXd svec(const Eigen::MatrixXd& A) {
    const Index q = A.rows();
    Eigen::VectorXd v(svecSize(q));
    Index k = 0;
    for (Index j = 0; j < q; ++j)
        for (Index i = 0; i <= j; ++i)
            v(k++) = i == j ? A(i, j) : kSqrt2 * A(i, j);
    return v;
}

Eigen::MatrixXd smat(const Eigen::VectorXd& v, Index q) {
    Eigen::MatrixXd A(q, q);
    Index k = 0;
    for (Index j = 0; j < q; ++j)
        for (Index i = 0; i <= j; ++i) {
            const double a = i == j ? v(k) : v(k) / kSqrt2;
            A(i, j) = A(j, i) = a;
            ++k;
        }
    return A;
}

Eigen::MatrixXd liftedFeatures(const FeatureMatrix& X) {
    const Index n = X.rows(), q = X.cols() + 1, m = svecSize(q);
    if (static_cast<double>(n) * static_cast<double>(m) > kMaxLiftedEntries)
        throw std::invalid_argument("the Gaussian classifier needs (p+1)(p+2)/2 = " + std::to_string(m) +
                                    " parameters per class for p = " + std::to_string(q - 1) + " features; with n = " +
                                    std::to_string(n) + " rows that is more than this build's limit of " +
                                    std::to_string(static_cast<long long>(kMaxLiftedEntries)) +
                                    " lifted entries: reduce the features (two features or PCA) or subsample the rows");
    Eigen::MatrixXd W(n, m);
    Eigen::VectorXd z(q);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j + 1 < q; ++j)
            z(j) = X.value(i, j);
        z(q - 1) = 1.0;
        Index k = 0;
        for (Index b = 0; b < q; ++b)
            for (Index a = 0; a <= b; ++a)
                W(i, k++) = a == b ? z(a) * z(a) : kSqrt2 * z(a) * z(b);
    }
    return W;
}

namespace {

/// Rows (or columns) of W per dense product (OpenBLAS's dgemm, or Eigen, core/optim/dense_products.h):
/// each block is one call on one thread, so the result has the same bits for any thread count.
constexpr Index kBlock = 128;

/// W·P, P (m × C) column-major at p: by row blocks of W over oneTBB.
Eigen::MatrixXd timesBlocks(const Eigen::MatrixXd& W, const double* p, Index classes) {
    const Index n = W.rows(), m = W.cols();
    Eigen::MatrixXd out(n, classes);
    tbb::parallel_for(Index(0), (n + kBlock - 1) / kBlock, [&](Index b) {
        const Index r0 = b * kBlock, rows = std::min(kBlock, n - r0);
        denseProduct(false, false, rows, classes, m, 1.0, W.data() + r0, n, p, m, 0.0, out.data() + r0, n);
    });
    return out;
}

/// Wᵀ·A (m × C): by column blocks of W over oneTBB.
Eigen::MatrixXd transposeTimesBlocks(const Eigen::MatrixXd& W, const Eigen::MatrixXd& A) {
    const Index n = W.rows(), m = W.cols(), classes = A.cols();
    Eigen::MatrixXd out(m, classes);
    tbb::parallel_for(Index(0), (m + kBlock - 1) / kBlock, [&](Index b) {
        const Index c0 = b * kBlock, cols = std::min(kBlock, m - c0);
        denseProduct(true, false, cols, classes, n, 1.0, W.data() + c0 * n, n, A.data(), n, 0.0, out.data() + c0, m);
    });
    return out;
}

} // namespace

Eigen::MatrixXd quadraticForms(const Eigen::MatrixXd& W, const Eigen::VectorXd& phi, int classes) {
    if (phi.size() != W.cols() * classes)
        throw std::invalid_argument("quadraticForms: φ has " + std::to_string(phi.size()) + " entries, not " +
                                    std::to_string(W.cols() * classes));
    return timesBlocks(W, phi.data(), classes);
}

double meanLoss(const Eigen::MatrixXd& Q, const Eigen::VectorXi& cls, const Loss& huber) {
    double total = 0.0;
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index c = 0; c < Q.cols(); ++c)
            if (c != cls(i))
                total += huber.value(Q(i, c) - Q(i, cls(i)), 1.0);
    return Q.rows() > 0 ? total / static_cast<double>(Q.rows()) : NAN;
}

GaussianLmObjective::GaussianLmObjective(const Eigen::MatrixXd& W, const Eigen::VectorXi& cls, int classes,
                                         const Loss& huber, double mu, Eigen::VectorXd linear)
    : m_W(W), m_cls(cls), m_C(classes), m_huber(huber), m_mu(mu), m_linear(std::move(linear)) {}

double GaussianLmObjective::evaluate(const Eigen::VectorXd& phi) {
    m_phi = phi;
    const Eigen::MatrixXd Q = quadraticForms(m_W, phi, m_C);
    const Index n = Q.rows();
    m_d1.setZero(n, m_C);
    m_d2.setZero(n, m_C);
    double total = 0.0;
    for (Index i = 0; i < n; ++i) {
        const int y = m_cls(i);
        for (int c = 0; c < m_C; ++c) {
            if (c == y)
                continue;
            const Loss::Derivatives d = m_huber.derivatives(Q(i, c) - Q(i, y), 1.0);
            total += d.value;
            m_d1(i, c) = d.d1;
            m_d2(i, c) = d.d2;
        }
    }
    double value = total / static_cast<double>(n) + 0.5 * m_mu * phi.squaredNorm();
    if (m_linear.size() > 0)
        value += m_linear.dot(phi);
    return value;
}

Eigen::VectorXd GaussianLmObjective::pull(Eigen::MatrixXd A) const {
    for (Index i = 0; i < A.rows(); ++i) {
        const int y = m_cls(i);
        A(i, y) = 0.0;
        A(i, y) = -A.row(i).sum();
    }
    Eigen::MatrixXd G = transposeTimesBlocks(m_W, A) / static_cast<double>(A.rows());
    return Eigen::Map<const Eigen::VectorXd>(G.data(), G.size());
}

Eigen::VectorXd GaussianLmObjective::lossGradient() const { return pull(m_d1); }

void GaussianLmObjective::gradient(Eigen::VectorXd& g) const {
    g = pull(m_d1) + m_mu * m_phi;
    if (m_linear.size() > 0)
        g += m_linear;
}

void GaussianLmObjective::hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    // du_ic = w_iᵀ(v_c − v_{y_i}); the loss part of ∇²J·v pulls ℓ''(u_ic)·du_ic back like the gradient.
    const Eigen::MatrixXd D = quadraticForms(m_W, v, m_C);
    Eigen::MatrixXd B(D.rows(), m_C);
    for (Index i = 0; i < D.rows(); ++i) {
        const int y = m_cls(i);
        for (int c = 0; c < m_C; ++c)
            B(i, c) = c == y ? 0.0 : m_d2(i, c) * (D(i, c) - D(i, y));
    }
    out = pull(std::move(B)) + m_mu * v;
}

} // namespace elab::core::glm
