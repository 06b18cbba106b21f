#pragma once
// The Taylor estimates of utility between measuring points (docs/MATH.md §4): what one
// measuring fit gives (value, slope, curvature in ε), the non-private anchor, and the
// estimators built from them. A learner that supports them computes the points
// (PrivateLearner::taylorPoint); the linear ERM computation is core/learners/linear_erm/taylor.h.

#include "core/data/feature_matrix.h"
#include "core/model/labels.h"
#include "core/util/option_names.h"

#include <Eigen/Core>

#include <functional>
#include <string>

namespace elab::core {

enum class Estimator { FirstOrder, SecondOrder, InverseEps, Anchored, Variance };

const char* toString(Estimator estimator); ///< "first-order", "second-order", "inverse-eps", "anchored", "variance"
const OptionNames<Estimator>& estimatorNames(); ///< the names toString / estimatorFromString use
Estimator estimatorFromString(const std::string& name);

/// The utility F(θ) = mean loss of θ on an evaluation set (training set: the paper's default).
struct UtilityData {
    const FeatureMatrix& X;
    Labels y;
};

/// What the estimators need from one measuring fit at ε̄ (one repetition).
struct TaylorPoint {
    double eps = 0.0;        ///< ε̄
    double value = 0.0;      ///< F(ε̄)
    double d1 = 0.0;         ///< F′(ε̄)
    double d2 = 0.0;         ///< F″(ε̄) (0 unless second order was asked for)
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

/// What the variance estimator needs (docs/MATH.md §4.7), from one model's non-private fit θ̂ alone: no
/// measuring fit and no noise draw. The mechanism solves ∇L(θ) + ((Λ + Δ(ε))/n)θ + (s(ε)/n)z = 0 with
/// z ~ N(0, I); to second order in its perturbation, with Δ kept in W_ε = H + ((Λ + Δ)/n)I,
///   E F(θ_ε) ≈ F(θ̂) + ∇Fᵀm + ½mᵀ∇²F m + (s²/2n²)·tr(∇²F W_ε⁻²),   m = −(Δ/n)W_ε⁻¹θ̂,
/// with H = ∇²L(θ̂) (training loss) and F the metric's loss, plus ∇FᵀE[δ₂] from L's third derivative,
/// E[δ₂] = −½W_ε⁻¹E[∇³L[δ₁, δ₁]] over the noise part of δ₁. Stored in H's eigenbasis Q, so that one
/// ε costs O(p²). It reads the private training rows (through θ̂, H, ∇F, ∇²F): not private.
struct NoiseExpansion {
    double value = 0.0;         ///< F(θ̂)
    double rows = 0.0;          ///< n
    double ridge = 0.0;         ///< Λ (sum form)
    Eigen::VectorXd curvatures; ///< eigenvalues h_k of H = ∇²L(θ̂), ascending
    Eigen::VectorXd theta;      ///< Qᵀθ̂
    Eigen::VectorXd gradient;   ///< Qᵀ∇F(θ̂)
    Eigen::MatrixXd hessian;    ///< Qᵀ∇²F(θ̂)Q
    /// third(k, j) = (1/n) Σ_i ℓ‴(x_iᵀθ̂)·(x_iᵀq_k)·(x_iᵀq_j)²: E[∇³L[δ₁, δ₁]] = (s/n)²·third·w², w = 1/(h + μ)
    Eigen::MatrixXd third;
    std::function<double(double)> noiseScale; ///< s(ε): the objective's noise is (s(ε)/n)·z, z ~ N(0, I)
    std::function<double(double)> extraRidge; ///< Δ(ε), sum form like Λ
};

/// The variance estimator at ε (ε = +∞: F(θ̂)); see NoiseExpansion.
double varianceEstimate(const NoiseExpansion& expansion, double eps);

/// Estimated F at target ε̂ (ε̂ = +∞ allowed: the non-private limit). Anchored needs the
/// anchor of the same repetition: a cubic Hermite in v = ε^{−1/2} through (0: F_np, ∇Fᵀa) and
/// (ε̄^{−1/2}: F, −2ε̄^{3/2}F′). Variance does not read the point: it needs its expansion
/// (varianceEstimate); here it throws std::invalid_argument.
double estimateUtility(const TaylorPoint& point, Estimator estimator, double epsTarget,
                       const TaylorAnchor* anchor = nullptr);

/// Algorithm 1 of Li et al. (first order): ε̂ = (F̂ − F(ε̄))/F′(ε̄) + ε̄. NaN if F′ = 0.
double epsilonForTarget(const TaylorPoint& point, double targetUtility);

} // namespace elab::core
