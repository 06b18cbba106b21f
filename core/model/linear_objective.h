#pragma once
// Mean-form regularised empirical risk of a linear model (docs/MATH.md §3, one form for all):
//   J(θ) = (1/n) Σ_i ℓ(x_iᵀθ, y_i) + (μ/2)‖θ‖² + cᵀθ
// Mechanisms map their objectives onto (μ, c) in one place each, e.g. objective
// perturbation (§3.1): μ = (Λ + Δ_ε)/n, c = b_ε/n.
//   ∇J = (1/n) Xᵀ ℓ'(Xθ) + μθ + c,   ∇²J v = (1/n) Xᵀ(ℓ''(Xθ) ⊙ Xv) + μv.

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"
#include "core/model/loss.h"
#include "core/model/prefix_tree.h"
#include "core/optim/cholesky_factor.h"
#include "core/optim/objective.h"

#include <memory>

namespace elab::core {

class LinearObjective : public Objective {
public:
    /// X and y are referenced, not copied: they must outlive the objective (y: Labels reads
    /// the vector it was made from; one-vs-rest labels are read from class indices, not stored).
    /// linear: c (size p), or empty for c = 0. rowScale: constantRowValues(X.csrRows()), computed
    /// once by a caller that builds many objectives on X (referenced: it must outlive the
    /// objective), or nullptr to compute it here (one pass over X's values).
    LinearObjective(const FeatureMatrix& X, Labels y, Loss loss, double mu, Eigen::VectorXd linear = {},
                    const Eigen::VectorXd* rowScale = nullptr);
    /// The same objective on merged rows (core/model/merged_rows.h, docs/MATH.md §2.1): X holds
    /// the distinct rows, row u standing for total_u rows of which plus_u are labelled +1 and the
    /// rest −1 (margin losses only); n = Σ total. J, ∇J and ∇²J are those of the rows unmerged.
    /// plus and total are referenced: they must outlive the objective.
    LinearObjective(const FeatureMatrix& X, const Eigen::VectorXd& plus, const Eigen::VectorXd& total, Loss loss,
                    double mu, Eigen::VectorXd linear = {}, const Eigen::VectorXd* rowScale = nullptr);

    Eigen::Index dimension() const override { return m_X.cols(); }
    double evaluate(const Eigen::VectorXd& theta) override;
    void gradient(Eigen::VectorXd& g) const override;
    void hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const override;
    /// With a Gram matrix G = XᵀX/n (setGram): for sparse X with short rows, the Hessian itself
    /// at an anchor point, M = XᵀD_aX/n + μI (D_a = diag ℓ''(p_i) there), by Cholesky, formed
    /// at the first call and again once the iterate settles, and reused while ℓ'' stays within
    /// 25 % (L1) of D_a; otherwise M = c·G + μI, c = mean_i ℓ''(p_i). Without G, or for sparse X
    /// where a p × p factorisation costs more than 24 products (few rows, many features), Jacobi:
    /// M = diag((1/n) Σ_i ℓ''(p_i) x_ij² + μ); no anchor either where it costs more than that.
    /// M only steers CG: the Newton system, its solution and the stopping test are the same for
    /// every choice.
    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> preconditioner() const override;
    /// True when the last preconditioner() formed XᵀDX/n + μI at the last evaluated θ: then M
    /// is the Hessian itself (up to rounding) and M⁻¹(−∇J) is the Newton step.
    bool preconditionerIsHessian() const override { return m_anchorIsCurrent; }
    /// When the anchored preconditioner left CG at least half the products that forming a new
    /// anchor costs (anchorCostInProducts), and at least 3, the next preconditioner() anchors at its θ.
    void cgIterationsTaken(int iterations) override;
    /// What forming an anchor (XᵀDX/n by the tree or the rows, and its Cholesky factor) costs in
    /// CG iterations (a product and a preconditioner solve), estimated from counts (docs/MATH.md
    /// §0.4). Sparse X only.
    double anchorCostInProducts() const;
    /// G = XᵀX/n of the same X (see gramMatrix; for merged rows, of the rows as given), or
    /// nullptr; not owned.
    void setGram(const Eigen::MatrixXd* gram) { m_gram = gram; }
    /// The prefix tree of X's binary rows (core/model/prefix_tree.h), or nullptr: the passes
    /// over X (value and gradient, Hessian-vector products, the anchored preconditioner's
    /// XᵀDX/n) then walk the tree, in fewer operations and other summation order. Not owned.
    void setPrefixTree(const PrefixTree* plan) { m_prefixTree = plan; }

    /// (1/n) Σ ℓ at the last evaluated θ (the data term alone, the paper's L(θ)).
    double dataLoss() const { return m_dataLoss; }
    /// out = ∇³L[v, v] = (1/n) Σ_i ℓ'''(p_i) (x_iᵀv)² x_i at the last evaluated θ, for the
    /// second-order Taylor term (docs/MATH.md §4.3). Rows as given only (merged rows:
    /// std::logic_error).
    void thirdDerivativeTerm(const Eigen::VectorXd& v, Eigen::VectorXd& out) const;
    /// p_i = x_iᵀθ at the last evaluated θ. The pass does not keep them unless keepPredictions()
    /// was called: then the first call after an evaluation computes them (one pass over X, the
    /// same numbers).
    const Eigen::VectorXd& predictions() const;
    /// Keep p in every evaluation (for callers that read predictions() after each one).
    void keepPredictions() { m_keepPredictions = true; }
    double mu() const { return m_mu; }
    const Loss& loss() const { return m_loss; }
    /// Dense X of at most this many columns keeps XᵀDX instead of ℓ'' per row (see m_hessian):
    /// forming it costs ≈ p²/2 multiply-adds per row and pass, what a CG step's product costs
    /// at p = 4 and what a few of them cost at p = 16; a p × p factorisation is negligible there.
    static constexpr Eigen::Index kExactHessianFeatures = 16;

private:
    const FeatureMatrix& m_X;
    Labels m_y;                               ///< labels, or c⁺ of merged rows
    const Eigen::VectorXd* m_total = nullptr; ///< rows merged into each row; nullptr: rows as given
    double m_n = 0.0;                         ///< the data term's n: rows before merging
    Loss m_loss;
    double m_mu;
    Eigen::VectorXd m_c;
    Eigen::VectorXd m_ownRowScale;                     ///< constantRowValues(X) for binary sparse rows, else empty
    const Eigen::VectorXd* m_sharedRowScale = nullptr; ///< the caller's, if given
    const Eigen::VectorXd& rowScale() const { return m_sharedRowScale ? *m_sharedRowScale : m_ownRowScale; }
    Eigen::VectorXd m_theta;
    Eigen::VectorXd m_d2; ///< ℓ''(p_i) at m_theta; empty when exactHessian()
    /// Dense rows of at most kExactHessianFeatures columns: XᵀDX (D = diag ℓ''(p) at m_theta),
    /// formed by each evaluation's pass instead of keeping ℓ'' per row. The Hessian's products
    /// are then p × p products and the preconditioner is the Hessian itself (a Newton step per
    /// factorisation, no CG). A million rows of 2 features: 8 MB less per fit (issue 15).
    Eigen::MatrixXd m_hessian;
    bool exactHessian() const { return !m_X.isSparse() && m_X.cols() <= kExactHessianFeatures; }
    mutable Eigen::VectorXd m_p;              ///< x_iᵀθ at m_theta when m_predictionsCurrent
    bool m_keepPredictions = false;           ///< see keepPredictions()
    mutable bool m_predictionsCurrent = true; ///< m_p belongs to m_theta
    Eigen::VectorXd m_xtd1;                   ///< Xᵀℓ'(p) at the last θ, from evaluate()'s pass
    double m_dataLoss = 0.0;
    const Eigen::MatrixXd* m_gram = nullptr;
    const PrefixTree* m_prefixTree = nullptr;
    /// m_prefixTree if it describes X's rows and pays for XᵀDX (forGram) or for the passes, else nullptr.
    const PrefixTree* treeOf(const CsrRows& X, bool forGram) const;
    mutable std::vector<double> m_treeWork; ///< the tree passes' scratch space
    // The anchored preconditioner (see preconditioner()); state of this objective's solve.
    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> anchoredPreconditioner() const;
    mutable std::size_t m_rowPairs = 0, m_entries = 0; ///< X's pairs and non-zeros (countRows)
    void countRows(const CsrRows& X) const;
    mutable Eigen::VectorXf m_anchorD2,
        m_lastD2; ///< ℓ'' at the anchor and at the last call, in float (a proxy's inputs)
    mutable std::shared_ptr<const CholeskyFactor> m_anchor;
    mutable bool m_anchorIsCurrent = false;
    mutable bool m_reanchor = false; ///< set by cgIterationsTaken: anchor at the next call
    /// Estimated costs in scattered updates (docs/MATH.md §0.4), computed on first use (sparse X).
    struct Costs {
        double product = 0.0, gram = 0.0, factorisation = 0.0;
    };
    mutable Costs m_costs;
    const Costs& costs() const;
    /// Whether a p × p factorisation costs at most kMaxFactorisationProducts products (sparse X).
    bool factorisationPays() const;
};

/// G = XᵀX/n, dense p×p, for the preconditioner — only when p ≤ maxFeatures (cost O(nnz·k)
/// once per dataset, memory p²); an empty matrix otherwise. This is the data's Gram matrix,
/// shared by every fit on X, not a Hessian.
Eigen::MatrixXd gramMatrix(const FeatureMatrix& X, Eigen::Index maxFeatures = 2000);

/// X·v and Xᵀ·w for dense or sparse features.
void multiply(const FeatureMatrix& X, const Eigen::VectorXd& v, Eigen::VectorXd& out);
void multiplyTransposed(const FeatureMatrix& X, const Eigen::VectorXd& w, Eigen::VectorXd& out);

} // namespace elab::core
