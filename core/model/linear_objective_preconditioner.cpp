// LinearObjective's preconditioners (docs/MATH.md §0.4): the anchored Hessian, the Gram-scaled
// M and Jacobi, and the counted costs that choose between them and decide when an anchor is
// formed again. The value pass and the products are in linear_objective.cpp.
#include "core/model/linear_objective.h"

#include "core/model/dense_rows.h"
#include "core/model/sparse_rows.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

namespace elab::core {

namespace {

// Σ|d_i − a_i| / Σ a_i: how far the curvatures d have moved from a snapshot a (∞ if a is
// empty or sums to zero). Snapshots are in single precision: they only decide when to form a new
// anchor (a proxy compared with 0.1 and 0.25), and two of them per fit are n floats instead of
// n doubles.
struct CurvatureChanges {
    double sinceLast = INFINITY;   ///< from the snapshot of the last call
    double sinceAnchor = INFINITY; ///< from the anchor's snapshot
};

// Both changes in one pass over d, which also overwrites `last` with d. Each sum is accumulated
// in index order, as two separate passes would; the four chains of additions overlap here, where
// two passes per snapshot waited on one chain at a time (a9a cold fits: 3.8 % of the CPU).
CurvatureChanges changesSinceSnapshots(const Eigen::VectorXd& d, Eigen::VectorXf& last, const Eigen::VectorXf& anchor) {
    const Eigen::Index n = d.size();
    const bool haveLast = last.size() == n, haveAnchor = anchor.size() == n;
    if (!haveLast)
        last.resize(n);
    double lastSum = 0.0, lastDiff = 0.0, anchorSum = 0.0, anchorDiff = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double l = static_cast<double>(last[i]);
        const double a = haveAnchor ? static_cast<double>(anchor[i]) : 0.0;
        lastSum += l;
        lastDiff += std::abs(d[i] - l);
        anchorSum += a;
        anchorDiff += std::abs(d[i] - a);
        last[i] = static_cast<float>(d[i]);
    }
    CurvatureChanges changes;
    if (haveLast && lastSum > 0.0)
        changes.sinceLast = lastDiff / lastSum;
    if (haveAnchor && anchorSum > 0.0)
        changes.sinceAnchor = anchorDiff / anchorSum;
    return changes;
}

// ℓ'' when every row has the same (θ = 0: 1/4 for the logistic loss), else nullopt. Merged rows
// (total) hold c_u·ℓ''(x_uᵀθ), and XᵀDX/n = ℓ''·Σ_u c_u x_u x_uᵀ/n = ℓ''·G, G of the rows as given.
std::optional<double> commonCurvature(const Eigen::VectorXd& d2, const Eigen::VectorXd* total) {
    if (d2.size() == 0)
        return std::nullopt;
    const auto at = [&](Eigen::Index i) { return total ? d2[i] / (*total)[i] : d2[i]; };
    const double first = at(0);
    for (Eigen::Index i = 1; i < d2.size(); ++i)
        if (at(i) != first)
            return std::nullopt;
    return first;
}

// Thresholds of the anchored preconditioner, on the changes of changesSinceSnapshots. If every ℓ''_i is within a
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
    if (exactHessian()) {
        // M = XᵀDX/n + μI at the last θ: the Hessian itself (m_hessian).
        Eigen::MatrixXd M = m_hessian / n;
        M.diagonal().array() += m_mu;
        auto diagonal = std::make_shared<Eigen::VectorXd>(M.diagonal());
        if (auto factor = CholeskyFactor::make(std::move(M))) {
            m_anchorIsCurrent = true;
            return [factor](const Eigen::VectorXd& r, Eigen::VectorXd& out) { factor->solve(r, out); };
        }
        // Singular (μ = 0 and flat curvature): Jacobi on its diagonal, 1 where that is 0.
        *diagonal = (diagonal->array() > 0.0).select(*diagonal, 1.0);
        return [diagonal](const Eigen::VectorXd& r, Eigen::VectorXd& out) { out = r.cwiseQuotient(*diagonal); };
    }
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
    if (static_cast<double>(m_rowPairs) >
            kMaxPairsPerNonZero * static_cast<double>(std::max<std::size_t>(m_entries, 1)) ||
        anchorCostInProducts() > kMaxFactorisationProducts)
        return {};
    const CurvatureChanges change = changesSinceSnapshots(m_d2, m_lastD2, m_anchorD2);
    const double step = change.sinceLast;
    const bool reanchor = std::exchange(m_reanchor, false);
    if (reanchor || !(m_anchor && change.sinceAnchor <= kReuseChange)) {
        // The first call (often a warm start near the optimum), a settled iterate, or an anchor
        // that left CG more work than a new one costs: anchor here.
        if (!(reanchor || m_anchorD2.size() == 0 || step <= kSettledChange))
            return {};
        m_anchor.reset(); // replaced below: not held beside the new one while it is formed
        const double n = m_n;
        Eigen::MatrixXd H;
        if (const std::optional<double> q = commonCurvature(m_d2, m_total))
            H = *q * *m_gram; // equal curvatures (e.g. θ = 0): H = ℓ''·XᵀX/n (m_gram is XᵀX/n)
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
    m_costs.product =
        std::max(1.0, 2.0 * static_cast<double>(passes ? passes->nodes() + static_cast<std::size_t>(passes->rows())
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

} // namespace elab::core
