#pragma once
// The linear ERM mechanisms' noise (docs/MATH.md §3.1–3.3): each reduces to one mean-form
// problem J(θ) = L(θ) + (μ/2)‖θ‖² + cᵀθ (core/model/linear_objective.h) plus optional output
// noise. This file is the ONE place where the papers' constants are converted.
//
// Regulariser convention (user-facing Λ, as in Li et al. eq. 1): J = L(θ) + (Λ/2n)‖θ‖²,
// i.e. Λ is the sum-form coefficient. Chaudhuri et al.'s mean-form coefficient is Λ/n.
// Every guarantee assumes rows clipped to ‖x‖₂ ≤ 1 (docs/MATH.md §1).

#include "core/learner/mechanism.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/util/noise.h"

#include <Eigen/Core>

#include <optional>

namespace elab::core {

/// "" if spec is valid for the linear ERM mechanisms (and the non-private reference); else why:
/// the model's checks, a margin loss (a bounded ζ), δ ∈ (0, 1) for the Gaussian ones, Λ > 0 for
/// output perturbation. The catalog's validate for these kinds.
std::string validateLinearErm(const MechanismSpec& spec);

/// The problem to solve at ε for one repetition's noise draw.
struct PerturbedProblem {
    double mu = 0.0;             ///< mean-form L2 coefficient
    Eigen::VectorXd linear;      ///< c (empty: none)
    Eigen::VectorXd outputNoise; ///< added to the minimiser (empty: none)
    PrivacyGuarantee guarantee;
};

/// The noise's second moments at ε that the utility bound of docs/MATH.md §4.5 needs, for the
/// linear mechanisms: the perturbed objective is L(θ) + ((Λ/n + a)/2)‖θ‖² + cᵀθ, the released
/// model θ + b (b = 0 unless output perturbation).
struct NoiseMoments {
    double extraRidge = 0.0;   ///< a (mean form): μ − Λ/n
    double linearEnergy = 0.0; ///< E‖c‖²
    double outputEnergy = 0.0; ///< E‖b‖²
};
/// n rows, p features; nullopt for the mechanisms without a perturbed linear objective or output
/// (non-private, Gaussian classifier, DP-SGD). Throws std::invalid_argument as perturbedProblem.
std::optional<NoiseMoments> noiseMoments(const MechanismSpec& spec, Eigen::Index n, Eigen::Index p, double eps);

/// n rows; eps > 0 (ignored for NonPrivate). Throws std::invalid_argument on an invalid spec.
PerturbedProblem perturbedProblem(const MechanismSpec& spec, Eigen::Index n, double eps, const NoiseDraw& noise);

namespace mechanism_constants {
/// §3.1: s(ε) = ζ·√(8 log(2/δ) + 4ε)/ε and its first two derivatives in ε.
double gaussNoiseScale(double eps, double delta, double zeta);
double gaussNoiseScaleD1(double eps, double delta, double zeta);
double gaussNoiseScaleD2(double eps, double delta, double zeta);
/// §3.1: Δ_ε = 2λ/ε.
inline double gaussExtraRidge(double eps, double curvature) { return 2.0 * curvature / eps; }

/// §3.2 (Chaudhuri et al. 2011, Alg. 2) with c = λ and mean-form Λ_c, with docs/MATH.md's
/// corrected branch rule (docs/MATH.md §3.2): ε₁ = ε − 2·log(1 + c/(nΛ_c)); the first branch (Δ = 0, ε' = ε₁) only
/// when ε₁ ≥ ε/2, else the second (Δ = c/(n(e^{ε/4} − 1)) − Λ_c > 0, ε' = ε/2). The branch with
/// the larger ε' is taken, so ε' = max(ε₁, ε/2) is continuous and non-decreasing in ε. (The
/// paper's test "ε₁ > 0" kept the first branch with a tiny ε' — far more noise — for
/// 0 < ε₁ < ε/2: accuracy fell as ε grew, issue 9.)
struct PureObjPert {
    double eps1 = 0.0;         ///< ε₁ of step 1 (−∞ when Λ_c = 0)
    double epsPrime = 0.0;     ///< privacy parameter of the noise density exp(−ε'‖b‖/2)
    double extraRidge = 0.0;   ///< Δ (mean form)
    bool secondBranch = false; ///< ε₁ < ε/2: Δ > 0 and ε' = ε/2
};
PureObjPert pureObjPert(double eps, double n, double lambdaMean, double curvature);

/// §3.3: sensitivity 2ζ/(nΛ_c) of the regularised minimiser; Gaussian σ for (ε, δ): the analytic
/// Gaussian mechanism's smallest σ with exact δ(ε, σ) ≤ δ (analytic_gaussian.h), valid at every ε.
inline double outputSensitivity(double zeta, double n, double lambdaMean) { return 2.0 * zeta / (n * lambdaMean); }
double outputGaussSigma(double eps, double delta, double zeta, double n, double lambdaMean);
} // namespace mechanism_constants

} // namespace elab::core
