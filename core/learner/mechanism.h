#pragma once
// The private linear-model mechanisms of docs/MATH.md §3.1–3.3, each reduced to one mean-form
// problem  J(θ) = L(θ) + (μ/2)‖θ‖² + cᵀθ  (core/model/linear_objective.h) plus optional
// output noise. This file is the ONE place where the papers' constants are converted.
//
// Regulariser convention (user-facing Λ, as in Li et al. eq. 1): J = L(θ) + (Λ/2n)‖θ‖²,
// i.e. Λ is the sum-form coefficient. Chaudhuri et al.'s mean-form coefficient is Λ/n.
// Every guarantee assumes rows clipped to ‖x‖₂ ≤ 1 (docs/MATH.md §1).

#include "core/dpsgd/sgd_spec.h"
#include "core/model/loss.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/privacy/mechanism_parameter.h"
#include "core/privacy/noise.h"
#include "core/util/option_names.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace elab::core {

/// The mechanism a user chooses. It selects the learner (core/learner/mechanism_catalog.h): the
/// first five are the linear ERM mechanisms of §3.1–3.3 (one-vs-rest for K classes); GaussianLm is
/// the corrected DP large-margin Gaussian classifier of §3.4 (natively multiclass); Dpsgd is
/// gradient perturbation (DP-SGD) of a softmax-linear model or a one-hidden-layer network (§3.6).
enum class MechanismKind { NonPrivate, ObjPertGauss, ObjPertPure, OutPertPure, OutPertGauss, GaussianLm, Dpsgd };

const char* toString(MechanismKind kind); ///< "nonprivate", "objpert-gauss", ...
const OptionNames<MechanismKind>& mechanismKindNames(); ///< the names toString / mechanismKindFromString use
/// Throws std::invalid_argument for an unknown name.
MechanismKind mechanismKindFromString(const std::string& name);

/// What is learned, whatever the mechanism: the loss and the L2 regulariser. (The model family
/// follows from the mechanism kind: linear for §3.1–3.3, the Gaussian classifier for §3.4.)
struct ModelSpec {
    Loss loss{LossKind::Logistic};
    double lambda = 1e-2; ///< Λ ≥ 0, sum form (see above)

    /// "" if valid; else why.
    std::string validate() const;
};

/// How the model is made private, beyond the mechanism's kind: its privacy parameters other than ε.
struct PrivacySpec {
    double delta = 1e-5; ///< δ ∈ (0, 1) for the (ε, δ) mechanisms (usesDelta), ignored otherwise
};

/// A mechanism as chosen: its kind, the model it trains and its privacy parameters.
struct MechanismSpec {
    MechanismKind kind = MechanismKind::ObjPertGauss;
    ModelSpec model;
    PrivacySpec privacy;
    SgdSpec sgd{}; ///< the network and schedule of Dpsgd (ignored otherwise)

    /// "" if valid; else why (e.g. output perturbation needs Λ > 0).
    std::string validate() const;
    /// The kind's guarantee is (ε, δ), so privacy.delta is used.
    bool usesDelta() const;
    /// δ as guaranteed: privacy.delta for the (ε, δ) mechanisms, 0 for the pure-ε ones.
    double effectiveDelta() const { return usesDelta() ? privacy.delta : 0.0; }
};


/// The same mechanism, model (loss and its parameters, Λ), δ and SGD settings: a fit of one is a
/// fit of the other.
bool sameMechanism(const MechanismSpec& a, const MechanismSpec& b);

/// Which datasets are neighbours: one row replaced (the ERM mechanisms, the Gaussian
/// classifier) or one row added or removed (DP-SGD with Poisson sampling). The audit builds its
/// neighbours this way (core/audit/mechanism_audit.h).
enum class Adjacency { ReplaceOne, AddRemove };

/// "replace-one", "add-remove".
const char* toString(Adjacency adjacency);

struct PrivacyGuarantee {
    bool isPrivate = false;
    Adjacency adjacency = Adjacency::ReplaceOne;
    double epsilon = 0.0;    ///< the ε actually guaranteed
    double delta = 0.0;      ///< 0 for pure ε-DP
    std::string notion;      ///< "(ε, δ)-DP", "ε-DP" or "none"
    std::string source;      ///< paper and theorem
    std::vector<std::string> assumptions;
    std::vector<std::string> notes; ///< branch taken, validity ranges
    std::string branch;             ///< which branch a branching mechanism took ("" if none)
    std::vector<MechanismParameter> parameters; ///< the constants used (one-vs-rest: each model's, at ε/K)
    /// Pipeline steps that read the private data outside a mechanism (core/privacy/composition.h):
    /// non-empty only when they turned the guarantee off (isPrivate false, ε = ∞).
    std::vector<std::string> assumptionsNotMet;
    /// Conditions on the release, not on the data: the seed's mode, what a composite output is.
    std::vector<std::string> conditions;
    /// True when a mechanism's guarantee was voided by the pipeline (not a non-private mechanism).
    bool voided() const { return !isPrivate && !assumptionsNotMet.empty(); }

    /// The parameter called name, or NaN.
    double parameter(const std::string& name) const;
};

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
PerturbedProblem perturbedProblem(const MechanismSpec& spec, Eigen::Index n, double eps,
                                  const NoiseDraw& noise);

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
    double eps1 = 0.0;     ///< ε₁ of step 1 (−∞ when Λ_c = 0)
    double epsPrime = 0.0; ///< privacy parameter of the noise density exp(−ε'‖b‖/2)
    double extraRidge = 0.0; ///< Δ (mean form)
    bool secondBranch = false; ///< ε₁ < ε/2: Δ > 0 and ε' = ε/2
};
PureObjPert pureObjPert(double eps, double n, double lambdaMean, double curvature);

/// §3.3: sensitivity 2ζ/(nΛ_c) of the regularised minimiser; Gaussian σ for (ε, δ): the analytic
/// Gaussian mechanism's smallest σ with exact δ(ε, σ) ≤ δ (analytic_gaussian.h), valid at every ε.
inline double outputSensitivity(double zeta, double n, double lambdaMean) {
    return 2.0 * zeta / (n * lambdaMean);
}
double outputGaussSigma(double eps, double delta, double zeta, double n, double lambdaMean);
} // namespace mechanism_constants

} // namespace elab::core
