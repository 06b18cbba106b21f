#include "core/model/linear_objective.h"

#include <Eigen/Cholesky>

#include <memory>

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
        const Loss::Derivatives d = m_loss.derivatives(m_p[i], m_y[i]);
        sum += d.value;
        m_d1[i] = d.d1;
        m_d2[i] = d.d2;
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

std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> LinearObjective::preconditioner() const {
    const double n = static_cast<double>(m_p.size());
    if (m_gram && m_gram->rows() == m_X.cols()) {
        const double c = m_d2.sum() / n;
        Eigen::MatrixXd M = c * *m_gram;
        M.diagonal().array() += std::max(m_mu, 1e-12 * std::max(c, 1e-300));
        auto llt = std::make_shared<Eigen::LLT<Eigen::MatrixXd>>(M);
        if (llt->info() == Eigen::Success)
            return [llt](const Eigen::VectorXd& r, Eigen::VectorXd& out) { out = llt->solve(r); };
    }
    auto diagonal = std::make_shared<Eigen::VectorXd>(Eigen::VectorXd::Zero(m_X.cols()));
    if (m_X.isSparse()) {
        const SparseMatrix& X = m_X.sparse();
        for (Eigen::Index i = 0; i < X.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(X, i); it; ++it)
                (*diagonal)[it.col()] += m_d2[i] * it.value() * it.value();
    } else {
        diagonal->noalias() = m_X.dense().cwiseAbs2().transpose() * m_d2;
    }
    *diagonal /= n;
    diagonal->array() += m_mu;
    // A zero column with μ = 0 would give a zero pivot; the identity is a safe stand-in there.
    *diagonal = (diagonal->array() > 0.0).select(*diagonal, 1.0);
    return [diagonal](const Eigen::VectorXd& r, Eigen::VectorXd& out) { out = r.cwiseQuotient(*diagonal); };
}

Eigen::MatrixXd gramMatrix(const FeatureMatrix& X, Eigen::Index maxFeatures) {
    if (X.cols() > maxFeatures)
        return {};
    Eigen::MatrixXd G;
    if (X.isSparse())
        G = Eigen::MatrixXd(X.sparse().transpose() * X.sparse());
    else
        G.noalias() = X.dense().transpose() * X.dense();
    return G / static_cast<double>(X.rows());
}

Eigen::VectorXd LinearObjective::thirdDerivatives() const {
    Eigen::VectorXd d3(m_p.size());
    for (Eigen::Index i = 0; i < m_p.size(); ++i)
        d3[i] = m_loss.d3(m_p[i], m_y[i]);
    return d3;
}

} // namespace elab::core
