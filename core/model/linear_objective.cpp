#include "core/model/linear_objective.h"

#include "core/model/dense_rows.h"
#include "core/model/sparse_rows.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace elab::core {

void multiply(const FeatureMatrix& X, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    if (X.isSparse())
        sparseRowDots(X.csrRows(), nullptr, v, out);
    else
        denseRowDots(X.denseRows(), v, out);
}

void multiplyTransposed(const FeatureMatrix& X, const Eigen::VectorXd& w, Eigen::VectorXd& out) {
    if (X.isSparse())
        sparseTransposedProduct(X.csrRows(), nullptr, w, out);
    else
        denseTransposedProduct(X.denseRows(), w, out);
}

LinearObjective::LinearObjective(const FeatureMatrix& X, Labels y, Loss loss, double mu, Eigen::VectorXd linear,
                                 const Eigen::VectorXd* rowScale)
    : m_X(X), m_y(y), m_n(static_cast<double>(X.rows())), m_loss(loss), m_mu(mu), m_c(std::move(linear)) {
    if (!X.isSparse())
        return;
    if (rowScale)
        m_sharedRowScale = rowScale;
    else
        m_ownRowScale = constantRowValues(X.csrRows());
}

LinearObjective::LinearObjective(const FeatureMatrix& X, const Eigen::VectorXd& plus, const Eigen::VectorXd& total,
                                 Loss loss, double mu, Eigen::VectorXd linear, const Eigen::VectorXd* rowScale)
    : LinearObjective(X, plus, loss, mu, std::move(linear), rowScale) {
    if (!loss.isMargin())
        throw std::invalid_argument("merged rows need a margin loss (labels ±1)");
    if (plus.size() != X.rows() || total.size() != X.rows())
        throw std::invalid_argument("merged rows: one count per distinct row");
    m_total = &total;
    m_n = total.sum();
}

namespace {

// One pass over X at θ: p_i = x_iᵀθ, ℓ and its derivatives at p_i, and Xᵀℓ'(p) (the
// gradient's data part), row i read once. Returns Σ ℓ in row order. pass(weight, out): the
// rows' fused pass at θ, weight(i, s, ℓ''_i) → ℓ'_i writing ℓ''_i into its third argument
// (LinearObjective::evaluate: kept per row, or summed into XᵀDX by blocks).
// derivatives(i, p_i) → Loss::Derivatives of row i.
// p: where to keep p, or nullptr (not kept).
template <class RowPass, class Derivatives>
double rowPass(RowPass&& pass, Index n, Derivatives derivatives, Eigen::VectorXd* p, Eigen::VectorXd& xtd1) {
    double* kept = p ? (p->resize(n), p->data()) : nullptr;
    double sum = 0.0;
    pass(
        [&](Index i, double s, double& d2) {
            if (kept)
                kept[i] = s;
            const Loss::Derivatives d = derivatives(i, s);
            sum += d.value;
            d2 = d.d2;
            return d.d1;
        },
        xtd1);
    return sum;
}

// A merged row standing for c⁺ rows labelled +1 and c⁻ labelled −1 (docs/MATH.md §2.1):
// c⁺ ℓ(s, +1) + c⁻ ℓ(s, −1) and its derivatives in s.
Loss::Derivatives mergedDerivatives(const Loss& loss, double s, double plus, double total) {
    const double minus = total - plus;
    Loss::Derivatives sum{0.0, 0.0, 0.0};
    if (plus > 0.0) {
        const Loss::Derivatives d = loss.derivatives(s, 1.0);
        sum = {plus * d.value, plus * d.d1, plus * d.d2};
    }
    if (minus > 0.0) {
        const Loss::Derivatives d = loss.derivatives(s, -1.0);
        sum.value += minus * d.value;
        sum.d1 += minus * d.d1;
        sum.d2 += minus * d.d2;
    }
    return sum;
}

// Factors per logarithm in logisticPass: a product of 64 factors in (1, 2] stays ≤ 2^64.
constexpr int kRowsPerLog = 64;

// rowPass for the logistic loss, with its value summed as Σ_i max(−m_i, 0) + Σ_i log(1 + e_i),
// m_i = y_i p_i, e_i = exp(−|m_i|) (= Σ ℓ, docs/MATH.md §2), the second sum as the logarithm of
// the products of the factors 1 + e_i over blocks of kRowsPerLog rows: one log per block instead
// of a log1p per row (which cost as much as the pass over X). Each factor and each product is
// rounded to 2^-53 relative, so the sum's absolute error stays ≲ 2^-52 per row, as for a log1p
// per row; ℓ' and ℓ'' are Loss::derivatives' bit for bit.
// Merged rows (total != nullptr, y = c⁺; docs/MATH.md §2.1): row u stands for c_u = total_u rows,
// c⁺_u of them labelled +1: hinge c⁺ max(−s, 0) + c⁻ max(s, 0), c_u factors 1 + e (one exp for
// both labels), ℓ' = −c⁺σ(−s) + c⁻σ(s), ℓ'' = c_u σ(s)σ(−s); a row of more than kRowsPerLog
// rows adds c_u·log1p(e) instead.
template <bool Merged, class RowPass>
double logisticPass(RowPass&& pass, Index n, const Labels y, const Eigen::VectorXd* total, Eigen::VectorXd* p,
                    Eigen::VectorXd& xtd1) {
    double* kept = p ? (p->resize(n), p->data()) : nullptr;
    double hinge = 0.0, logs = 0.0, product = 1.0;
    int inBlock = 0;
    const auto factor = [&](double f) {
        product *= f;
        if (++inBlock == kRowsPerLog) {
            logs += std::log(product);
            product = 1.0;
            inBlock = 0;
        }
    };
    pass(
        [&, y](Index i, double s, double& d2) {
            if (kept)
                kept[i] = s;
            if constexpr (Merged) {
                const double c = (*total)[i], plus = y[i], minus = c - plus;
                const double e = std::exp(-std::abs(s));
                const double big = 1.0 / (1.0 + e), small = e * big;
                const double sPos = s >= 0.0 ? big : small, sNeg = s >= 0.0 ? small : big; // σ(s), σ(−s)
                hinge += plus * std::max(-s, 0.0) + minus * std::max(s, 0.0);
                if (c <= kRowsPerLog)
                    for (int k = 0; k < static_cast<int>(c); ++k)
                        factor(1.0 + e);
                else
                    logs += c * std::log1p(e);
                d2 = c * (sPos * sNeg);
                return minus * sPos - plus * sNeg; // ℓ'ᵢ
            } else {
                const double yi = y[i], m = yi * s;
                const double e = std::exp(-std::abs(m));
                const double big = 1.0 / (1.0 + e), small = e * big;
                const double sp = m >= 0.0 ? big : small, sn = m >= 0.0 ? small : big;
                hinge += std::max(-m, 0.0);
                factor(1.0 + e);
                d2 = sp * sn;
                return -yi * sn; // ℓ'ᵢ
            }
        },
        xtd1);
    return hinge + (logs + std::log(product));
}

} // namespace

double LinearObjective::evaluate(const Eigen::VectorXd& theta) {
    m_theta = theta;
    // ℓ' feeds the gradient's Xᵀℓ' in the pass and is not kept, nor is p unless asked for
    // (keepPredictions): two n-vectors less per fit.
    Eigen::VectorXd* p = m_keepPredictions ? &m_p : nullptr;
    m_predictionsCurrent = m_keepPredictions;
    const Index n = m_X.rows();
    const auto evaluateWith = [&](auto&& pass) {
        if (m_loss.kind() == LossKind::Logistic) // the hot case: inlined, no per-row dispatch
            return m_total ? logisticPass<true>(pass, n, m_y, m_total, p, m_xtd1)
                           : logisticPass<false>(pass, n, m_y, nullptr, p, m_xtd1);
        if (m_total)
            return rowPass(
                pass, n, [this](Index i, double s) { return mergedDerivatives(m_loss, s, m_y[i], (*m_total)[i]); }, p,
                m_xtd1);
        return rowPass(
            pass, n, [this](Index i, double s) { return m_loss.derivatives(s, m_y[i]); }, p, m_xtd1);
    };
    // The row kernels' weight(i, s) → ℓ'_i, keeping ℓ''_i in m_d2 for the Hessian's products.
    const auto keepingD2 = [this](auto& weight) {
        return [this, &weight](Index i, double s) {
            double d2 = 0.0;
            const double d1 = weight(i, s, d2);
            m_d2[i] = d2;
            return d1;
        };
    };
    double sum = 0.0;
    if (exactHessian()) {
        // No per-row state: ℓ'' goes into XᵀDX block by block (hessianVector, preconditioner).
        m_d2.resize(0);
        const DenseRows X = m_X.denseRows();
        sum = evaluateWith([&](auto&& weight, Eigen::VectorXd& out) {
            denseRowDotsThenTransposedAndGram(X, theta, weight, out, m_hessian);
        });
    } else if (m_d2.resize(n); m_X.isSparse()) {
        const CsrRows X = m_X.csrRows();
        if (const PrefixTree* tree = treeOf(X, false))
            sum = evaluateWith([&](auto&& weight, Eigen::VectorXd& out) {
                tree->rowDotsThenTransposed(rowScale(), theta, keepingD2(weight), out, m_treeWork);
            });
        else
            sum = evaluateWith([&](auto&& weight, Eigen::VectorXd& out) {
                sparseRowDotsThenTransposed(X, &rowScale(), theta, keepingD2(weight), out);
            });
    } else {
        const DenseRows X = m_X.denseRows();
        sum = evaluateWith(
            [&](auto&& weight, Eigen::VectorXd& out) { denseRowDotsThenTransposed(X, theta, keepingD2(weight), out); });
    }
    m_dataLoss = sum / m_n;
    double value = m_dataLoss + 0.5 * m_mu * theta.squaredNorm();
    if (m_c.size() > 0)
        value += m_c.dot(theta);
    return value;
}

void LinearObjective::gradient(Eigen::VectorXd& g) const {
    g = m_xtd1;
    g /= m_n;
    g.noalias() += m_mu * m_theta;
    if (m_c.size() > 0)
        g += m_c;
}

void LinearObjective::hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    // One pass over the rows: t_i = ℓ''_i (x_iᵀv)/n, out += t_i x_i (row i stays in cache).
    const double invN = 1.0 / m_n;
    out = m_mu * v;
    if (exactHessian()) {
        out.noalias() += invN * (m_hessian * v);
        return;
    }
    if (m_X.isSparse()) {
        const CsrRows X = m_X.csrRows();
        if (const PrefixTree* tree = treeOf(X, false))
            tree->weightedGramProduct(rowScale(), m_d2, invN, v, out, m_treeWork);
        else
            sparseWeightedGramProduct(X, &rowScale(), m_d2, invN, v, out);
    } else
        denseWeightedGramProduct(m_X.denseRows(), m_d2, invN, v, out);
}

const PrefixTree* LinearObjective::treeOf(const CsrRows& X, bool forGram) const {
    const bool fits = m_prefixTree && m_prefixTree->cols() == X.cols && m_prefixTree->rows() == X.n;
    if (!fits || !detail::useRowScale(&rowScale(), X))
        return nullptr;
    return (forGram ? m_prefixTree->gramPays() : m_prefixTree->passesPay()) ? m_prefixTree : nullptr;
}

Eigen::MatrixXd gramMatrix(const FeatureMatrix& X, Eigen::Index maxFeatures) {
    if (X.cols() > maxFeatures)
        return {};
    Eigen::MatrixXd G;
    if (X.isSparse()) {
        // The row kernel: Σ nnz_i(nnz_i+1)/2 updates and no copy of X (Eigen's XᵀX made a
        // column-major copy with 64-bit indices: 1.3× the matrix, transiently).
        const Eigen::VectorXd ones = Eigen::VectorXd::Ones(X.rows());
        sparseWeightedGram(X.csrRows(), nullptr, ones, 1.0 / static_cast<double>(X.rows()), G);
        return G;
    }
    denseWeightedGram(X.denseRows(), nullptr, 1.0 / static_cast<double>(X.rows()), G);
    return G;
}

const Eigen::VectorXd& LinearObjective::predictions() const {
    if (!m_predictionsCurrent) {
        // Not kept by the pass: x_iᵀθ again, the same sums in the same order as the pass's.
        if (m_X.isSparse()) {
            const CsrRows X = m_X.csrRows();
            if (const PrefixTree* tree = treeOf(X, false)) {
                m_p.resize(X.n);
                Eigen::VectorXd unused;
                tree->rowDotsThenTransposed(
                    rowScale(), m_theta, [this](Index i, double s) { return m_p[i] = s, 0.0; }, unused, m_treeWork);
            } else {
                sparseRowDots(X, &rowScale(), m_theta, m_p);
            }
        } else
            denseRowDots(m_X.denseRows(), m_theta, m_p);
        m_predictionsCurrent = true;
    }
    return m_p;
}

void LinearObjective::thirdDerivativeTerm(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
    if (m_total)
        throw std::logic_error("third derivatives of merged rows are not per row");
    if (!m_X.isSparse() && !m_predictionsCurrent) {
        // Dense rows: x_iᵀθ by blocks in the same pass (the same sums as predictions()'), so no
        // n-vector of it is formed: 8 MB per Taylor point on a million rows, one per thread.
        denseRowDotPairsThenTransposed(
            m_X.denseRows(), m_theta, v, [&](Index i, double p, double s) { return m_loss.d3(p, m_y[i]) * (s * s); },
            out);
        out /= m_n;
        return;
    }
    const Eigen::VectorXd& p = predictions();
    const auto weight = [&](Index i, double s) { return m_loss.d3(p[i], m_y[i]) * (s * s); };
    // One pass: x_iᵀv, the weight, Σ w_i x_i (no per-row vectors beyond p).
    if (m_X.isSparse())
        sparseRowDotsThenTransposed(m_X.csrRows(), nullptr, v, weight, out);
    else
        denseRowDotsThenTransposed(m_X.denseRows(), v, weight, out);
    out /= m_n;
}

} // namespace elab::core
