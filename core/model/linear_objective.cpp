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
    Eigen::VectorXd xv;
    multiply(m_X, v, xv);
    xv.array() *= m_d2.array();
    multiplyTransposed(m_X, xv, out);
    out /= static_cast<double>(m_p.size());
    out.noalias() += m_mu * v;
}

Eigen::VectorXd LinearObjective::thirdDerivatives() const {
    Eigen::VectorXd d3(m_p.size());
    for (Eigen::Index i = 0; i < m_p.size(); ++i)
        d3[i] = m_loss.d3(m_p[i], m_y[i]);
    return d3;
}

} // namespace elab::core
