#pragma once
// Deterministic ("fast") dropout, docs/MATH.md §3.5 (Jain et al. §5; Wang & Manning 2013, §2):
// the dropout prediction u = ⟨b ⊙ x, θ⟩/q, b_j ~ Bernoulli(q) (q = keep probability), is
// replaced by a Gaussian with its mean and variance,
//   p_i = θᵀx_i,   v_i = r Σ_j x_ij² θ_j²,   r = (1 − q)/q,
// and the mean-form objective (same convention as LinearObjective) is
//   J(θ) = (1/n) Σ_i E_{z~N(0,1)} ℓ(p_i + √v_i z, y_i) + (μ/2)‖θ‖².
// Logistic loss: E by Gauss–Hermite (N ≥ 20 nodes). Squared loss: exact, closed form,
//   E (p + √v z − y)² = (p − y)² + v,
// which is also the exact expectation over Bernoulli masks (the dropout objective itself).
// With G(p, v) = E ℓ(p + √v z), a_i = ∂G/∂p, b_i = ∂²G/∂p², B_i = 2 ∂G/∂v, c_i ≈ E ℓ''',
// d_i ≈ E ℓ'''' and h_i = x_i² ⊙ θ (so ∇v_i = 2r h_i):
//   ∇J = (1/n) Σ_i (a_i x_i + r B_i h_i) + μθ,
//   ∇²J ≈ (1/n) Σ_i [b_i x_i x_iᵀ + r c_i (x_i h_iᵀ + h_i x_iᵀ) + r² d_i h_i h_iᵀ + r B_i diag(x_i²)] + μI.
// For the exact expectation B = E ℓ'' (the heat equation ∂/∂v E f = ½ E f''); under the
// quadrature that identity holds only to the rule's accuracy, so B is the exact derivative
// of the quadrature sum, Σ_k w_k ℓ'(u_k) z_k/√v (√v ≥ 10⁻³; below, E ℓ''), which keeps ∇J
// the gradient of the J that is evaluated and lets Newton-CG converge to tight tolerances.
// c and d (Hessian cross terms only) use E ℓ''' and E ℓ''''.
// J is convex (a Gaussian expectation of a convex loss of (p, ‖Dθ‖), nondecreasing in the
// norm; the symmetric Gauss–Hermite rule keeps this), so Newton-CG applies.

#include "core/data/feature_matrix.h"
#include "core/model/loss.h"
#include "core/optim/objective.h"
#include "core/stability/gauss_hermite.h"

namespace elab::core {

/// E ℓ(p + √v z, y) and its first four derivatives in p, z ~ N(0, 1); dv = 2 ∂/∂v of the
/// value (= d2 for the exact expectation, see above).
struct DropoutMoments {
    double value = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0, d4 = 0.0, dv = 0.0;
};

/// Logistic: Gauss–Hermite with rule (v = 0: the loss itself). Squared: closed form (rule
/// unused). Other losses: std::invalid_argument. v ≥ 0. Thread: any.
DropoutMoments dropoutMoments(const Loss& loss, double p, double y, double v, const GaussHermiteRule& rule);

class DropoutObjective : public Objective {
public:
    /// X, y referenced (must outlive the objective). keep = q in (0, 1]; mu ≥ 0; nodes ≥ 20
    /// recommended (logistic only). Throws std::invalid_argument for losses other than
    /// logistic and squared, or q outside (0, 1].
    DropoutObjective(const FeatureMatrix& X, const Eigen::VectorXd& y, Loss loss, double keep, double mu = 0.0,
                     int nodes = 24);

    Eigen::Index dimension() const override { return m_X.cols(); }
    double evaluate(const Eigen::VectorXd& theta) override;
    void gradient(Eigen::VectorXd& g) const override;
    void hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const override;
    /// Jacobi: diag ≈ (1/n)(1 + r) Σ_i b_i x_ij² + μ (zero entries replaced by 1).
    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> preconditioner() const override;

    /// p = Xθ at the last evaluated θ.
    const Eigen::VectorXd& predictions() const { return m_p; }
    /// r = (1 − q)/q, the variance factor.
    double varianceFactor() const { return m_r; }

private:
    const FeatureMatrix& m_X;
    const Eigen::VectorXd& m_y;
    FeatureMatrix m_squares; ///< Q = X ⊙ X, same sparsity as X
    Loss m_loss;
    double m_r;
    double m_mu;
    GaussHermiteRule m_rule;
    Eigen::VectorXd m_theta, m_p, m_a, m_b, m_bv, m_c, m_d;
    // Qᵀ b_v at m_theta: constant between evaluate() calls, used by the gradient and every
    // Hessian-vector product; computed on first use (rejected line-search trials never need it).
    mutable Eigen::VectorXd m_qb;
    mutable bool m_qbValid = false;
    bool m_fused = false; ///< X and Q sparse, compressed, one index structure: fused passes in hessianVector
    const Eigen::VectorXd& varianceGradient() const;
};

} // namespace elab::core
