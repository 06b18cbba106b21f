#include "core/stability/dropout_objective.h"

#include "core/model/linear_objective.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace elab::core {

namespace {

// Logistic loss ℓ(y u) and its derivatives in u, with s = σ(m), t = σ(−m), m = y u:
//   ℓ = log(1 + e^{−m}), ℓ' = −y t, ℓ'' = s t, ℓ''' = y s t (t − s), ℓ'''' = s t (1 − 6 s t).
DropoutMoments logisticAt(double u, double y) {
    const double m = y * u;
    const double s = sigmoid(m), t = sigmoid(-m);
    const double st = s * t;
    return {log1pExp(-m), -y * t, st, y * st * (t - s), st * (1.0 - 6.0 * st), st};
}

FeatureMatrix squaresOf(const FeatureMatrix& X) {
    if (X.isSparse())
        return FeatureMatrix(SparseMatrix(X.sparse().cwiseAbs2()));
    return FeatureMatrix(DenseMatrix(X.dense().cwiseAbs2()));
}

} // namespace

DropoutMoments dropoutMoments(const Loss& loss, double p, double y, double v, const GaussHermiteRule& rule) {
    if (loss.kind() == LossKind::Squared)
        return {(p - y) * (p - y) + v, 2.0 * (p - y), 2.0, 0.0, 0.0, 2.0};
    if (loss.kind() != LossKind::Logistic)
        throw std::invalid_argument("deterministic dropout is implemented for the logistic and squared losses");
    if (!(v > 0.0))
        return logisticAt(p, y);
    const double sd = std::sqrt(v);
    DropoutMoments sum;
    for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
        const DropoutMoments at = logisticAt(p + sd * rule.nodes[k], y);
        const double w = rule.weights[k];
        sum.value += w * at.value;
        sum.d1 += w * at.d1;
        sum.d2 += w * at.d2;
        sum.d3 += w * at.d3;
        sum.d4 += w * at.d4;
        sum.dv += w * at.d1 * rule.nodes[k];
    }
    sum.dv = sd >= 1e-3 ? sum.dv / sd : sum.d2;
    return sum;
}

DropoutObjective::DropoutObjective(const FeatureMatrix& X, const Eigen::VectorXd& y, Loss loss, double keep, double mu,
                                   int nodes)
    : m_X(X), m_y(y), m_squares(squaresOf(X)), m_loss(loss), m_r(0.0), m_mu(mu), m_rule(gaussHermiteRule(nodes)) {
    if (loss.kind() != LossKind::Logistic && loss.kind() != LossKind::Squared)
        throw std::invalid_argument("deterministic dropout is implemented for the logistic and squared losses");
    if (!(keep > 0.0 && keep <= 1.0))
        throw std::invalid_argument("the keep probability q must be in (0, 1]");
    m_r = (1.0 - keep) / keep;
    if (X.isSparse() && m_squares.isSparse()) {
        const SparseMatrix& A = X.sparse();
        const SparseMatrix& Q = m_squares.sparse();
        m_fused = A.isCompressed() && Q.isCompressed() && A.rows() == Q.rows() && A.nonZeros() == Q.nonZeros() &&
                  std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.rows() + 1, Q.outerIndexPtr()) &&
                  std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), Q.innerIndexPtr());
    }
}

double DropoutObjective::evaluate(const Eigen::VectorXd& theta) {
    m_theta = theta;
    Eigen::VectorXd& p = m_p;
    Eigen::VectorXd v;
    multiply(m_X, theta, p);
    multiply(m_squares, theta.cwiseAbs2(), v);
    v *= m_r;
    const Eigen::Index n = p.size();
    m_a.resize(n);
    m_b.resize(n);
    m_bv.resize(n);
    m_c.resize(n);
    m_d.resize(n);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const DropoutMoments mo = dropoutMoments(m_loss, p[i], m_y[i], v[i], m_rule);
        sum += mo.value;
        m_a[i] = mo.d1;
        m_b[i] = mo.d2;
        m_bv[i] = mo.dv;
        m_c[i] = mo.d3;
        m_d[i] = mo.d4;
    }
    m_qbValid = false;
    return sum / static_cast<double>(n) + 0.5 * m_mu * theta.squaredNorm();
}

const Eigen::VectorXd& DropoutObjective::varianceGradient() const {
    if (!m_qbValid) {
        multiplyTransposed(m_squares, m_bv, m_qb);
        m_qbValid = true;
    }
    return m_qb;
}

void DropoutObjective::gradient(Eigen::VectorXd& g) const {
    multiplyTransposed(m_X, m_a, g);
    g.array() += m_r * varianceGradient().array() * m_theta.array();
    g /= static_cast<double>(m_a.size());
    g.noalias() += m_mu * m_theta;
}

void DropoutObjective::hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    Eigen::VectorXd xv, w, qt;
    const Eigen::VectorXd tv = m_theta.cwiseProduct(v);
    if (m_fused) {
        // xv = Xv and w = Q(θ⊙v) in one pass over the shared index structure (each sum in
        // the same order as the separate products: the same numbers).
        const SparseMatrix& A = m_X.sparse();
        const int* outer = A.outerIndexPtr();
        const int* inner = A.innerIndexPtr();
        const double* x = A.valuePtr();
        const double* q = m_squares.sparse().valuePtr();
        const Eigen::Index n = A.rows();
        xv.resize(n);
        w.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            double s1 = 0.0, s2 = 0.0;
            for (int k = outer[i]; k < outer[i + 1]; ++k) {
                s1 += x[k] * v[inner[k]];
                s2 += q[k] * tv[inner[k]];
            }
            xv[i] = s1;
            w[i] = s2;
        }
    } else {
        multiply(m_X, v, xv);
        multiply(m_squares, tv, w);
    }
    const Eigen::VectorXd first = m_b.cwiseProduct(xv) + m_r * m_c.cwiseProduct(w);
    const Eigen::VectorXd second = m_r * m_c.cwiseProduct(xv) + m_r * m_r * m_d.cwiseProduct(w);
    if (m_fused) {
        // out = Xᵀ first and qt = Qᵀ second in one pass (rows in order: the same sums).
        const SparseMatrix& A = m_X.sparse();
        const int* outer = A.outerIndexPtr();
        const int* inner = A.innerIndexPtr();
        const double* x = A.valuePtr();
        const double* q = m_squares.sparse().valuePtr();
        out.setZero(A.cols());
        qt.setZero(A.cols());
        for (Eigen::Index i = 0; i < A.rows(); ++i) {
            const double f = first[i], sc = second[i];
            for (int k = outer[i]; k < outer[i + 1]; ++k) {
                out[inner[k]] += f * x[k];
                qt[inner[k]] += sc * q[k];
            }
        }
    } else {
        multiplyTransposed(m_X, first, out);
        multiplyTransposed(m_squares, second, qt);
    }
    out.array() += m_theta.array() * qt.array() + m_r * v.array() * varianceGradient().array();
    out /= static_cast<double>(m_a.size());
    out.noalias() += m_mu * v;
}

std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> DropoutObjective::preconditioner() const {
    auto diagonal = std::make_shared<Eigen::VectorXd>();
    multiplyTransposed(m_squares, m_b, *diagonal);
    *diagonal *= (1.0 + m_r) / static_cast<double>(m_a.size());
    diagonal->array() += m_mu;
    *diagonal = (diagonal->array() > 0.0).select(*diagonal, 1.0);
    return [diagonal](const Eigen::VectorXd& r, Eigen::VectorXd& out) { out = r.cwiseQuotient(*diagonal); };
}

} // namespace elab::core
