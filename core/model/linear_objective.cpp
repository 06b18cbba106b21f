#include "core/model/linear_objective.h"

namespace elab::core {

void multiply(const FeatureMatrix& X, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    if (X.isSparse())
        out.noalias() = X.sparse() * v;
    else
        out.noalias() = X.dense() * v;
}

void multiplyTransposed(const FeatureMatrix& X, const Eigen::VectorXd& w, Eigen::VectorXd& out) {
    if (X.isSparse())
        out.noalias() = X.sparse().transpose() * w;
    else
        out.noalias() = X.dense().transpose() * w;
}

LinearObjective::LinearObjective(const FeatureMatrix& X, const Eigen::VectorXd& y, Loss loss,
                                 double mu, Eigen::VectorXd linear)
    : m_X(X), m_y(y), m_loss(loss), m_mu(mu), m_c(std::move(linear)) {}

double LinearObjective::evaluate(const Eigen::VectorXd& theta) {
    m_theta = theta;
    multiply(m_X, theta, m_p);
    const Eigen::Index n = m_p.size();
    m_d1.resize(n);
    m_d2.resize(n);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        sum += m_loss.value(m_p[i], m_y[i]);
        m_d1[i] = m_loss.d1(m_p[i], m_y[i]);
        m_d2[i] = m_loss.d2(m_p[i], m_y[i]);
    }
    m_dataLoss = sum / static_cast<double>(n);
    double value = m_dataLoss + 0.5 * m_mu * theta.squaredNorm();
    if (m_c.size() > 0)
        value += m_c.dot(theta);
    return value;
}

void LinearObjective::gradient(Eigen::VectorXd& g) const {
    multiplyTransposed(m_X, m_d1, g);
    g /= static_cast<double>(m_p.size());
    g.noalias() += m_mu * m_theta;
    if (m_c.size() > 0)
        g += m_c;
}

void LinearObjective::hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    const double invN = 1.0 / static_cast<double>(m_p.size());
    if (m_X.isSparse()) {
        // One pass over the rows: t_i = ℓ''_i (x_iᵀv), out += t_i x_i (row i stays in cache).
        const SparseMatrix& X = m_X.sparse();
        out = m_mu * v;
        const int* outer = X.outerIndexPtr();
        const int* inner = X.innerIndexPtr();
        const double* values = X.valuePtr();
        for (Eigen::Index i = 0; i < X.outerSize(); ++i) {
            if (m_d2[i] == 0.0)
                continue;
            double t = 0.0;
            for (int k = outer[i]; k < outer[i + 1]; ++k)
                t += values[k] * v[inner[k]];
            t *= m_d2[i] * invN;
            for (int k = outer[i]; k < outer[i + 1]; ++k)
                out[inner[k]] += t * values[k];
        }
        return;
    }
    Eigen::VectorXd xv;
    multiply(m_X, v, xv);
    xv.array() *= m_d2.array();
    multiplyTransposed(m_X, xv, out);
    out *= invN;
    out.noalias() += m_mu * v;
}

bool LinearObjective::hessianDiagonal(Eigen::VectorXd& out) const {
    out.setZero(m_X.cols());
    if (m_X.isSparse()) {
        const SparseMatrix& X = m_X.sparse();
        for (Eigen::Index i = 0; i < X.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(X, i); it; ++it)
                out[it.col()] += m_d2[i] * it.value() * it.value();
    } else {
        out.noalias() = m_X.dense().cwiseAbs2().transpose() * m_d2;
    }
    out /= static_cast<double>(m_p.size());
    out.array() += m_mu;
    // A zero column with μ = 0 would give a zero pivot; the identity is a safe stand-in.
    out = (out.array() > 0.0).select(out, 1.0);
    return true;
}

Eigen::VectorXd LinearObjective::thirdDerivatives() const {
    Eigen::VectorXd d3(m_p.size());
    for (Eigen::Index i = 0; i < m_p.size(); ++i)
        d3[i] = m_loss.d3(m_p[i], m_y[i]);
    return d3;
}

} // namespace elab::core
