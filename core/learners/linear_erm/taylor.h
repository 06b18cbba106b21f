#pragma once
// Utility as a function of ε from one measuring fit (docs/MATH.md §4; Li et al. Thm 3, eq. 7–8),
// for Gaussian objective perturbation (§3.1), whose noise is b_ε = s(ε)·z with z fixed.
//
// At the minimiser θ_ε of  L(θ) + ((Λ+Δ_ε)/2n)‖θ‖² + (1/n)b_εᵀθ :
//   W θ′ = −(1/n)(b′ + Δ′θ),          W = ∇²L(θ_ε) + ((Λ+Δ_ε)/n) I,  Δ′ = −2λ/ε²,  b′ = s′(ε)z
//   W θ″ = −(1/n)(b″ + Δ″θ + 2Δ′θ′) − ∇³L[θ′, θ′],   Δ″ = 4λ/ε³,  b″ = s″(ε)z
//   F′ = ∇Fᵀθ′,   F″ = θ′ᵀ∇²F θ′ + ∇Fᵀθ″
// W is never formed: CG with Hessian-vector products.

#include "core/learner/mechanism.h"
#include "core/learner/utility_estimate.h"
#include "core/util/option_names.h"

#include <string>

namespace elab::core {

/// θ′, F and F′ (and F″ if secondOrder) at the minimiser thetaEps of the §3.1 problem on
/// training data (X, y) with noise z. Requires spec.kind == ObjPertGauss. gram: gramMatrix(X)
/// for the CG preconditioner, or nullptr. rowScale: constantRowValues(X.csrRows()) computed once
/// by the caller (also used for utility.X when it is X), or nullptr to compute it here.
TaylorPoint taylorPoint(const FeatureMatrix& X, Labels y, const MechanismSpec& spec, double eps,
                        const Eigen::VectorXd& z, const Eigen::VectorXd& thetaEps, const UtilityData& utility,
                        bool secondOrder, const Eigen::MatrixXd* gram = nullptr,
                        const Eigen::VectorXd* rowScale = nullptr);

/// Anchor of the repetition with noise z, from the non-private minimiser of L + (Λ/2n)‖θ‖².
TaylorAnchor taylorAnchor(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                          const Eigen::VectorXd& thetaNonPrivate, const Eigen::VectorXd& z, const UtilityData& utility,
                          const Eigen::MatrixXd* gram = nullptr, const Eigen::VectorXd* rowScale = nullptr);

/// The variance estimator's expansion (docs/MATH.md §4.7) around the non-private minimiser θ̂ of
/// L + (Λ/2n)‖θ‖² on (X, y), for a mechanism whose objective adds ((Δ(ε)/2n)‖θ‖² + (s(ε)/n)zᵀθ),
/// z ~ N(0, I). Forms the p × p Hessians by p Hessian-vector products each and diagonalises ∇²L(θ̂):
/// O(p·nnz + p³), once per model. F: the mean loss on utility's rows.
NoiseExpansion noiseExpansion(const FeatureMatrix& X, Labels y, const Loss& loss, double lambda,
                              const Eigen::VectorXd& thetaNonPrivate, const UtilityData& utility,
                              std::function<double(double)> noiseScale, std::function<double(double)> extraRidge);
/// The same for spec (ObjPertGauss: s(ε) = ζ√(8 log(2/δ) + 4ε)/ε, Δ = 2λ/ε, §3.1).
NoiseExpansion noiseExpansion(const FeatureMatrix& X, Labels y, const MechanismSpec& spec,
                              const Eigen::VectorXd& thetaNonPrivate, const UtilityData& utility);

} // namespace elab::core
