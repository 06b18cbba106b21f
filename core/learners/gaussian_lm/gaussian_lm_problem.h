#pragma once
// The large-margin multiclass Gaussian classifier of Pathak & Raj / Sha & Saul, in the form the
// engine solves it (docs/MATH.md §3.4): per class a symmetric (p+1)×(p+1) matrix Φ_c acting on
// z = [x; 1], decision argmin_c zᵀΦ_c z. With w_i = svec(z_i z_iᵀ) ("lifted" features, ‖w_i‖ = ‖z_i‖²
// ≤ 2 for clipped rows) and φ_c = svec(Φ_c), zᵀΦ_c z = w_iᵀφ_c: the model is linear in the lifted
// features, and the per-example loss L_i = Σ_{c≠y_i} ℓ_h(w_iᵀ(φ_c − φ_{y_i})) is a sum of pairwise
// Huber margins.

#include "core/data/feature_matrix.h"
#include "core/model/loss.h"
#include "core/optim/objective.h"

#include <Eigen/Core>

namespace elab::core::glm {

/// m = (q+1)q/2 entries of svec for a q×q symmetric matrix (q = p + 1).
inline Index svecSize(Index q) { return q * (q + 1) / 2; }
/// Upper triangle, column by column (j ≥ i), off-diagonal entries times √2: ⟨svec A, svec B⟩ = ⟨A, B⟩_F.
Eigen::VectorXd svec(const Eigen::MatrixXd& A);
Eigen::MatrixXd smat(const Eigen::VectorXd& v, Index q);

/// The largest lifted problem built: n·m entries (8 bytes each).
constexpr double kMaxLiftedEntries = 4.0e7;
constexpr double kMaxDimension = 4.0e6; ///< d = C·m

/// Rows svec(z zᵀ), z = [x; 1], of a dense or sparse X. Throws std::invalid_argument (naming n, p, the
/// size and the limit) beyond kMaxLiftedEntries.
Eigen::MatrixXd liftedFeatures(const FeatureMatrix& X);

/// Quadratic forms Q (n × C): Q_ic = z_iᵀΦ_c z_i = W.row(i)·φ_c, φ stacked class by class.
Eigen::MatrixXd quadraticForms(const Eigen::MatrixXd& W, const Eigen::VectorXd& phi, int classes);

/// (1/n) Σ_i L_i, and per-example loss.
double meanLoss(const Eigen::MatrixXd& Q, const Eigen::VectorXi& cls, const Loss& huber);

/// J(φ) = (1/n) Σ L_i(φ) + (μ/2)‖φ‖² + lᵀφ, as an Objective for Newton-CG (value, gradient and
/// Hessian-vector products through W: two n×m×C products each, never the d×d Hessian).
class GaussianLmObjective final : public Objective {
public:
    /// W, cls must outlive the objective. linear: empty for none.
    GaussianLmObjective(const Eigen::MatrixXd& W, const Eigen::VectorXi& cls, int classes, const Loss& huber, double mu,
                        Eigen::VectorXd linear = {});

    Index dimension() const override { return m_W.cols() * m_C; }
    double evaluate(const Eigen::VectorXd& phi) override;
    void gradient(Eigen::VectorXd& g) const override;
    void hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const override;

    /// The loss part's gradient (1/n) Σ ∇L_i at the last evaluated φ (the erratum test's Σ_c ∇_c L_i = 0).
    Eigen::VectorXd lossGradient() const;

private:
    /// (1/n) Wᵀ A stacked class by class, A (n × C) with A_{i,y_i} = −Σ_{c≠y_i} A_ic.
    Eigen::VectorXd pull(Eigen::MatrixXd A) const;

    const Eigen::MatrixXd& m_W;
    const Eigen::VectorXi& m_cls;
    int m_C;
    Loss m_huber;
    double m_mu;
    Eigen::VectorXd m_linear;
    Eigen::VectorXd m_phi;
    Eigen::MatrixXd m_d1, m_d2; ///< ℓ', ℓ'' of u_ic at the last φ (0 at c = y_i)
};

} // namespace elab::core::glm
