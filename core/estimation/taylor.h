#pragma once
// Utility as a function of ε from one measuring fit (MATH.md §4; Li et al. Thm 3, eq. 7–8),
// for Gaussian objective perturbation (§3.1), whose noise is b_ε = s(ε)·z with z fixed.
//
// At the minimiser θ_ε of  L(θ) + ((Λ+Δ_ε)/2n)‖θ‖² + (1/n)b_εᵀθ :
//   W θ′ = −(1/n)(b′ + Δ′θ),          W = ∇²L(θ_ε) + ((Λ+Δ_ε)/n) I,  Δ′ = −2λ/ε²,  b′ = s′(ε)z
//   W θ″ = −(1/n)(b″ + Δ″θ + 2Δ′θ′) − ∇³L[θ′, θ′],   Δ″ = 4λ/ε³,  b″ = s″(ε)z
//   F′ = ∇Fᵀθ′,   F″ = θ′ᵀ∇²F θ′ + ∇Fᵀθ″
// W is never formed: CG with Hessian-vector products.

#include "core/data/feature_matrix.h"
#include "core/privacy/mechanism.h"

#include <string>

namespace elab::core {

enum class Estimator { FirstOrder, SecondOrder, InverseEps, Anchored };

const char* toString(Estimator estimator); ///< "first-order", "second-order", "inverse-eps", "anchored"
Estimator estimatorFromString(const std::string& name);

/// The utility F(θ) = mean loss of θ on an evaluation set (training set: the paper's default).
struct UtilityData {
    const FeatureMatrix& X;
    const Eigen::VectorXd& y;
};

/// What the estimators need from one measuring fit at ε̄ (one repetition).
struct TaylorPoint {
    double eps = 0.0;  ///< ε̄
    double value = 0.0;  ///< F(ε̄)
    double d1 = 0.0;     ///< F′(ε̄)
    double d2 = 0.0;     ///< F″(ε̄) (0 unless second order was asked for)
    Eigen::VectorXd thetaD1; ///< θ′(ε̄)
    int cgIterations = 0;
};

/// The non-private end (u = 1/ε = 0) for the anchored estimator: F_np and dF/du at u = 0.
/// The slope is that of the ridge path only (W_np θ_u = −(2λ/n) θ_np).
/// KNOWN DEFECT (docs/li-reproduction.md): the noise enters θ as √u·a + O(u), so E[F] also
/// moves by ½E[aᵀ∇²F a] + ∇Fᵀ E[b] = O(u), the same order as the ridge term, which this slope
/// leaves out; and per repetition F is smooth in √u, not in u. The fix is a Hermite in
/// v = ε^{−1/2} with the per-repetition slope ∇Fᵀa, a = −(2ζ/n) W_np⁻¹ z. Until then the
/// anchored estimator is reported but not to be trusted.
struct TaylorAnchor {
    double value = 0.0;
    double slopeU = 0.0;
};

/// θ′, F and F′ (and F″ if secondOrder) at the minimiser thetaEps of the §3.1 problem on
/// training data (X, y) with noise z. Requires spec.kind == ObjPertGauss. gram: gramMatrix(X)
/// for the CG preconditioner, or nullptr.
TaylorPoint taylorPoint(const FeatureMatrix& X, const Eigen::VectorXd& y, const MechanismSpec& spec,
                        double eps, const Eigen::VectorXd& z, const Eigen::VectorXd& thetaEps,
                        const UtilityData& utility, bool secondOrder,
                        const Eigen::MatrixXd* gram = nullptr);

/// Anchor from the non-private minimiser of L + (Λ/2n)‖θ‖².
TaylorAnchor taylorAnchor(const FeatureMatrix& X, const Eigen::VectorXd& y, const MechanismSpec& spec,
                          const Eigen::VectorXd& thetaNonPrivate, const UtilityData& utility,
                          const Eigen::MatrixXd* gram = nullptr);

/// Estimated F at target ε̂ (ε̂ = +∞ allowed: the non-private limit). Anchored needs anchor.
double estimateUtility(const TaylorPoint& point, Estimator estimator, double epsTarget,
                       const TaylorAnchor* anchor = nullptr);

/// Algorithm 1 of Li et al. (first order): ε̂ = (F̂ − F(ε̄))/F′(ε̄) + ε̄. NaN if F′ = 0.
double epsilonForTarget(const TaylorPoint& point, double targetUtility);

} // namespace elab::core
