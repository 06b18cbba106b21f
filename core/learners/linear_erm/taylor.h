#pragma once
// Utility as a function of ε from one measuring fit (docs/MATH.md §4; Li et al. Thm 3, eq. 7–8),
// for Gaussian objective perturbation (§3.1), whose noise is b_ε = s(ε)·z with z fixed.
//
// At the minimiser θ_ε of  L(θ) + ((Λ+Δ_ε)/2n)‖θ‖² + (1/n)b_εᵀθ :
//   W θ′ = −(1/n)(b′ + Δ′θ),          W = ∇²L(θ_ε) + ((Λ+Δ_ε)/n) I,  Δ′ = −2λ/ε²,  b′ = s′(ε)z
//   W θ″ = −(1/n)(b″ + Δ″θ + 2Δ′θ′) − ∇³L[θ′, θ′],   Δ″ = 4λ/ε³,  b″ = s″(ε)z
//   F′ = ∇Fᵀθ′,   F″ = θ′ᵀ∇²F θ′ + ∇Fᵀθ″
// W is never formed: CG with Hessian-vector products.

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"
#include "core/privacy/mechanism.h"
#include "core/util/option_names.h"

#include <string>

namespace elab::core {

enum class Estimator { FirstOrder, SecondOrder, InverseEps, Anchored };

const char* toString(Estimator estimator); ///< "first-order", "second-order", "inverse-eps", "anchored"
const OptionNames<Estimator>& estimatorNames(); ///< the names toString / estimatorFromString use
Estimator estimatorFromString(const std::string& name);

/// The utility F(θ) = mean loss of θ on an evaluation set (training set: the paper's default).
struct UtilityData {
    const FeatureMatrix& X;
    Labels y;
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

/// The non-private end (ε = ∞) of one repetition, for the anchored estimator.
/// With v = ε^{−1/2}: s(ε) = ζ·v·√(8 log(2/δ)·v² + 4), so the noise moves θ by v·a + O(v²),
/// a = −(2ζ/n) W_np⁻¹ z, W_np = ∇²L(θ_np) + (Λ/n)I. F is smooth in v (not in u = 1/ε, where
/// the noise gives a √u term), and dF/dv at v = 0 is ∇F(θ_np)ᵀa — zero mean over z, but not
/// zero for one repetition.
struct TaylorAnchor {
    double value = 0.0;  ///< F(θ_np)
    double slopeV = 0.0; ///< dF/dv at v = 0 for this repetition's z
};

/// θ′, F and F′ (and F″ if secondOrder) at the minimiser thetaEps of the §3.1 problem on
/// training data (X, y) with noise z. Requires spec.kind == ObjPertGauss. gram: gramMatrix(X)
/// for the CG preconditioner, or nullptr. rowScale: constantRowValues(X.csrRows()) computed once
/// by the caller (also used for utility.X when it is X), or nullptr to compute it here.
TaylorPoint taylorPoint(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                        double eps, const Eigen::VectorXd& z, const Eigen::VectorXd& thetaEps,
                        const UtilityData& utility, bool secondOrder,
                        const Eigen::MatrixXd* gram = nullptr, const Eigen::VectorXd* rowScale = nullptr);

/// Anchor of the repetition with noise z, from the non-private minimiser of L + (Λ/2n)‖θ‖².
TaylorAnchor taylorAnchor(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                          const Eigen::VectorXd& thetaNonPrivate, const Eigen::VectorXd& z,
                          const UtilityData& utility, const Eigen::MatrixXd* gram = nullptr,
                          const Eigen::VectorXd* rowScale = nullptr);

/// Estimated F at target ε̂ (ε̂ = +∞ allowed: the non-private limit). Anchored needs the
/// anchor of the same repetition: a cubic Hermite in v = ε^{−1/2} through (0: F_np, ∇Fᵀa) and
/// (ε̄^{−1/2}: F, −2ε̄^{3/2}F′).
double estimateUtility(const TaylorPoint& point, Estimator estimator, double epsTarget,
                       const TaylorAnchor* anchor = nullptr);

/// Algorithm 1 of Li et al. (first order): ε̂ = (F̂ − F(ε̄))/F′(ε̄) + ε̄. NaN if F′ = 0.
double epsilonForTarget(const TaylorPoint& point, double targetUtility);

} // namespace elab::core
