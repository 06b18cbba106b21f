#pragma once
// The private linear-model mechanisms of MATH.md §3.1–3.3, each reduced to one mean-form
// problem  J(θ) = L(θ) + (μ/2)‖θ‖² + cᵀθ  (core/model/linear_objective.h) plus optional
// output noise. This file is the ONE place where the papers' constants are converted.
//
// Regulariser convention (user-facing Λ, as in Li et al. eq. 1): J = L(θ) + (Λ/2n)‖θ‖²,
// i.e. Λ is the sum-form coefficient. Chaudhuri et al.'s mean-form coefficient is Λ/n.
// Every guarantee assumes rows clipped to ‖x‖₂ ≤ 1 (MATH.md §1).

#include "core/model/loss.h"
#include "core/privacy/noise.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace elab::core {

enum class MechanismKind { NonPrivate, ObjPertGauss, ObjPertPure, OutPertPure, OutPertGauss };

const char* toString(MechanismKind kind); ///< "nonprivate", "objpert-gauss", ...
/// Throws std::invalid_argument for an unknown name.
MechanismKind mechanismKindFromString(const std::string& name);

struct MechanismSpec {
    MechanismKind kind = MechanismKind::ObjPertGauss;
    Loss loss{LossKind::Logistic};
    double lambda = 1e-2; ///< Λ ≥ 0, sum form (see above)
    double delta = 1e-5;  ///< δ ∈ (0, 1) for the Gaussian mechanisms

    /// "" if valid; else why (e.g. output perturbation needs Λ > 0).
    std::string validate() const;
    bool isGaussian() const {
        return kind == MechanismKind::ObjPertGauss || kind == MechanismKind::OutPertGauss;
    }
};

struct PrivacyGuarantee {
    bool isPrivate = false;
    double epsilon = 0.0;    ///< the ε actually guaranteed
    double delta = 0.0;      ///< 0 for pure ε-DP
    std::string notion;      ///< "(ε, δ)-DP", "ε-DP" or "none"
    std::string source;      ///< paper and theorem
    std::vector<std::string> assumptions;
    std::vector<std::string> notes; ///< branch taken, validity ranges
};

/// The problem to solve at ε for one repetition's noise draw.
struct PerturbedProblem {
    double mu = 0.0;             ///< mean-form L2 coefficient
    Eigen::VectorXd linear;      ///< c (empty: none)
    Eigen::VectorXd outputNoise; ///< added to the minimiser (empty: none)
    PrivacyGuarantee guarantee;
};

/// n rows; eps > 0 (ignored for NonPrivate). Throws std::invalid_argument on an invalid spec.
PerturbedProblem perturbedProblem(const MechanismSpec& spec, Eigen::Index n, double eps,
                                  const NoiseDraw& noise);

namespace mechanism_constants {
/// §3.1: s(ε) = ζ·√(8 log(2/δ) + 4ε)/ε and its first two derivatives in ε.
double gaussNoiseScale(double eps, double delta, double zeta);
double gaussNoiseScaleD1(double eps, double delta, double zeta);
double gaussNoiseScaleD2(double eps, double delta, double zeta);
/// §3.1: Δ_ε = 2λ/ε.
inline double gaussExtraRidge(double eps, double curvature) { return 2.0 * curvature / eps; }

/// §3.2 (Chaudhuri et al. 2011, Alg. 2) with c = λ and mean-form Λ_c.
struct PureObjPert {
    double epsPrime = 0.0; ///< privacy parameter of the noise density exp(−ε'‖b‖/2)
    double extraRidge = 0.0; ///< Δ (mean form)
    bool secondBranch = false; ///< ε' ≤ 0 in step 1: Δ > 0 and ε' = ε/2
};
PureObjPert pureObjPert(double eps, double n, double lambdaMean, double curvature);

/// §3.3: sensitivity 2ζ/(nΛ_c) of the regularised minimiser; Gaussian σ for (ε, δ).
inline double outputSensitivity(double zeta, double n, double lambdaMean) {
    return 2.0 * zeta / (n * lambdaMean);
}
double outputGaussSigma(double eps, double delta, double zeta, double n, double lambdaMean);
} // namespace mechanism_constants

} // namespace elab::core
