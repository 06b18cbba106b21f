#include "core/model/linear_objective.h"

#include "core/model/dense_rows.h"
#include "core/model/sparse_rows.h"

#include <algorithm>
#include <cmath>
#include <memory>
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

LinearObjective::LinearObjective(const FeatureMatrix& X, const Eigen::VectorXd& y, Loss loss,
                                 double mu, Eigen::VectorXd linear, const Eigen::VectorXd* rowScale)
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
// gradient's data part), row i read once. Returns Σ ℓ in row order. rowPass(weight, out): the
// rows' fused pass (sparseRowDotsThenTransposed or denseRowDotsThenTransposed at θ).
// derivatives(i, p_i) → Loss::Derivatives of row i.
// p: where to keep p, or nullptr (not kept).
template <class RowPass, class Derivatives>
double rowPass(RowPass&& pass, Index n, Derivatives derivatives, Eigen::VectorXd* p, Eigen::VectorXd& d2,
               Eigen::VectorXd& xtd1) {
    double* kept = p ? (p->resize(n), p->data()) : nullptr;
    d2.resize(n);
    double sum = 0.0;
    pass(
        [&](Index i, double s) {
            if (kept)
                kept[i] = s;
            const Loss::Derivatives d = derivatives(i, s);
            sum += d.value;
            d2[i] = d.d2;
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
double logisticPass(RowPass&& pass, Index n, const Eigen::VectorXd& y, const Eigen::VectorXd* total,
                    Eigen::VectorXd* p, Eigen::VectorXd& d2, Eigen::VectorXd& xtd1) {
    double* kept = p ? (p->resize(n), p->data()) : nullptr;
    d2.resize(n);
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
        [&](Index i, double s) {
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
                d2[i] = c * (sPos * sNeg);
                return minus * sPos - plus * sNeg; // ℓ'ᵢ
            } else {
                const double yi = y[i], m = yi * s;
                const double e = std::exp(-std::abs(m));
                const double big = 1.0 / (1.0 + e), small = e * big;
                const double sp = m >= 0.0 ? big : small, sn = m >= 0.0 ? small : big;
                hinge += std::max(-m, 0.0);
                factor(1.0 + e);
                d2[i] = sp * sn;
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
            return m_total ? logisticPass<true>(pass, n, m_y, m_total, p, m_d2, m_xtd1)
                           : logisticPass<false>(pass, n, m_y, nullptr, p, m_d2, m_xtd1);
        if (m_total)
            return rowPass(
                pass, n, [this](Index i, double s) { return mergedDerivatives(m_loss, s, m_y[i], (*m_total)[i]); }, p,
                m_d2, m_xtd1);
        return rowPass(
            pass, n, [this](Index i, double s) { return m_loss.derivatives(s, m_y[i]); }, p, m_d2, m_xtd1);
    };
    double sum = 0.0;
    if (m_X.isSparse()) {
        const CsrRows X = m_X.csrRows();
        if (const PrefixTree* tree = treeOf(X, false))
            sum = evaluateWith([&](auto&& weight, Eigen::VectorXd& out) {
                tree->rowDotsThenTransposed(rowScale(), theta, weight, out, m_treeWork);
            });
        else
            sum = evaluateWith([&](auto&& weight, Eigen::VectorXd& out) {
                sparseRowDotsThenTransposed(X, &rowScale(), theta, weight, out);
            });
    } else {
        const DenseRows X = m_X.denseRows();
        sum = evaluateWith(
            [&](auto&& weight, Eigen::VectorXd& out) { denseRowDotsThenTransposed(X, theta, weight, out); });
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

namespace {

// Σ|d_i − a_i| / Σ a_i: how far the curvatures have moved from a (∞ if a is empty or zero).
// a is a snapshot in single precision: it only decides when to form a new anchor (a proxy
// compared with 0.1 and 0.25), and two of them per fit are n floats instead of n doubles.
double relativeChange(const Eigen::VectorXd& d, const Eigen::VectorXf& a) {
    if (a.size() != d.size())
        return INFINITY;
    const double base = a.cast<double>().sum();
    return base > 0.0 ? (d - a.cast<double>()).lpNorm<1>() / base : INFINITY;
}

// Thresholds of the anchored preconditioner, on relativeChange. If every ℓ''_i is within a
// factor (1 ± δ) of its anchor value, the anchored M satisfies (1−δ)M ⪯ ∇²J ⪯ (1+δ)M, so
// preconditioned CG sees a condition number ≤ (1+δ)/(1−δ): a few iterations per Newton step.
// The L1 ratio is the cheap proxy for δ (the rows with the most curvature dominate both).
constexpr double kReuseChange = 0.25;  // keep the anchored factor while d2 moved less than this
constexpr double kSettledChange = 0.1; // form a new anchor once one Newton step moves d2 less
// Forming XᵀDX/n costs Σ nnz_i(nnz_i+1)/2 updates against 2·nnz for a product; beyond this
// ratio (rows of more than ≈ 30 non-zeros on average) the Gram-scaled M is used throughout.
constexpr double kMaxPairsPerNonZero = 16.0;
// A new anchor is formed after a CG solve that took at least half the anchor's cost in
// products (anchorCostInProducts): the new anchor makes the next Newton step exact and serves
// the steps after it, so it pays when the solves it replaces cost that much. Never below 3
// iterations, what the anchored M usually takes near its anchor (a9a: 1.4 per Newton step).
// a9a, 20 ε × 10 objective perturbation fits: pure ε 1503 → 1286 products for 222 → 246
// anchors, Gaussian 805 → 794 for 220 → 222 (docs/MATH.md §0.4).
constexpr int kMinStaleIterations = 3;
constexpr double kStaleShare = 0.5;
// A dense multiply-add in the Cholesky factorisation against a scattered update of XᵀDX or of
// a product (measured ratio of their rates on this machine's 2 cores, 4-8: the lower end).
constexpr double kDenseUpdatesPerScattered = 4.0;
// A sparse objective whose anchor costs more than this many products (anchorCostInProducts)
// forms none, and one whose factorisation alone costs more (the Gram-scaled M needs one per
// Newton step) uses Jacobi: p = 1,000 binary features on few rows, where factorising p × p
// dominates every fit. Measured (20 ε × 10, objective perturbation, Gaussian): builtin:sparse
// at 200,000 rows (10.7 products) 16 s with the anchor against 31 s with Jacobi; at 20,000 rows
// (52) 6.3 s against 2.5 s; at 5,000 rows 6.4 s against 0.6 s; a9a (6.2) 1.0 s against 4.7 s.
constexpr double kMaxFactorisationProducts = 24.0;

} // namespace

std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> LinearObjective::preconditioner() const {
    const double n = m_n;
    m_anchorIsCurrent = false;
    if (m_gram && m_gram->rows() == m_X.cols() && (!m_X.isSparse() || factorisationPays())) {
        if (auto anchored = anchoredPreconditioner())
            return anchored;
        const double c = m_d2.sum() / n;
        Eigen::MatrixXd M = c * *m_gram;
        M.diagonal().array() += std::max(m_mu, 1e-12 * std::max(c, 1e-300));
        if (auto factor = CholeskyFactor::make(std::move(M)))
            return [factor](const Eigen::VectorXd& r, Eigen::VectorXd& out) { factor->solve(r, out); };
    }
    auto diagonal = std::make_shared<Eigen::VectorXd>(Eigen::VectorXd::Zero(m_X.cols()));
    if (m_X.isSparse()) {
        // Σ_i ℓ''_i x_ij² by columns, over the entries as stored·factor and the implicit column.
        const CsrRows X = m_X.csrRows();
        for (Eigen::Index i = 0; i < X.n; ++i)
            X.forEachEntry(i, [&](int c, double x) { (*diagonal)[c] += m_d2[i] * x * x; });
    } else {
        denseWeightedSquares(m_X.denseRows(), m_d2, *diagonal);
    }
    *diagonal /= n;
    diagonal->array() += m_mu;
    // A zero column with μ = 0 would give a zero pivot; the identity is a safe stand-in there.
    *diagonal = (diagonal->array() > 0.0).select(*diagonal, 1.0);
    return [diagonal](const Eigen::VectorXd& r, Eigen::VectorXd& out) { out = r.cwiseQuotient(*diagonal); };
}

std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> LinearObjective::anchoredPreconditioner() const {
    if (!m_X.isSparse() || m_mu <= 0.0)
        return {};
    const CsrRows X = m_X.csrRows();
    countRows(X);
    if (static_cast<double>(m_rowPairs) > kMaxPairsPerNonZero * static_cast<double>(std::max<std::size_t>(m_entries, 1)) ||
        anchorCostInProducts() > kMaxFactorisationProducts)
        return {};
    const double step = relativeChange(m_d2, m_lastD2);
    m_lastD2 = m_d2.cast<float>();
    const bool reanchor = std::exchange(m_reanchor, false);
    if (reanchor || !(m_anchor && relativeChange(m_d2, m_anchorD2) <= kReuseChange)) {
        // The first call (often a warm start near the optimum), a settled iterate, or an anchor
        // that left CG more work than a new one costs: anchor here.
        if (!(reanchor || m_anchorD2.size() == 0 || step <= kSettledChange))
            return {};
        m_anchor.reset(); // replaced below: not held beside the new one while it is formed
        const double n = m_n;
        Eigen::MatrixXd H;
        const double first = m_d2.size() > 0 ? m_d2[0] : 0.0;
        if (!m_total && (m_d2.array() == first).all())
            H = first * *m_gram; // equal curvatures (e.g. θ = 0): H = ℓ''·XᵀX/n (m_gram is XᵀX/n)
        else if (const PrefixTree* tree = treeOf(X, true))
            tree->compute(rowScale(), m_d2, 1.0 / n, H);
        else
            sparseWeightedGram(X, &rowScale(), m_d2, 1.0 / n, H);
        H.diagonal().array() += m_mu;
        m_anchor = CholeskyFactor::make(std::move(H));
        m_anchorD2 = m_d2.cast<float>();
        if (!m_anchor)
            return {};
        m_anchorIsCurrent = true;
    }
    return [factor = m_anchor](const Eigen::VectorXd& r, Eigen::VectorXd& out) { factor->solve(r, out); };
}

void LinearObjective::countRows(const CsrRows& X) const {
    if (m_rowPairs == 0) {
        m_rowPairs = sparseRowPairs(X);
        m_entries = X.nonZeros();
    }
}

const LinearObjective::Costs& LinearObjective::costs() const {
    if (m_costs.product > 0.0)
        return m_costs;
    // Units: scattered updates. A product (one CG iteration): two per non-zero, or per tree node
    // and row, plus the preconditioner's two triangular solves (p² dense). An anchor: XᵀDX
    // (the tree's updates or the rows' pairs) plus the factorisation (p³/6 dense).
    const CsrRows X = m_X.csrRows();
    countRows(X);
    const double p = static_cast<double>(X.cols);
    const PrefixTree* passes = treeOf(X, false);
    const PrefixTree* gram = treeOf(X, true);
    m_costs.product = std::max(1.0, 2.0 * static_cast<double>(passes ? passes->nodes() + static_cast<std::size_t>(passes->rows())
                                                                     : m_entries) +
                                        p * p / kDenseUpdatesPerScattered);
    m_costs.gram = static_cast<double>(gram ? gram->updates() : m_rowPairs);
    m_costs.factorisation = p * p * p / (6.0 * kDenseUpdatesPerScattered);
    return m_costs;
}

double LinearObjective::anchorCostInProducts() const {
    const Costs& c = costs();
    return (c.gram + c.factorisation) / c.product;
}

bool LinearObjective::factorisationPays() const {
    const Costs& c = costs();
    return c.factorisation / c.product <= kMaxFactorisationProducts;
}

void LinearObjective::cgIterationsTaken(int iterations) {
    if (m_anchor && iterations >= kMinStaleIterations) // m_anchor: X is sparse
        m_reanchor = static_cast<double>(iterations) >= kStaleShare * anchorCostInProducts();
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
