#pragma once
// A mechanism as a user chooses it: its kind (which selects the learner through
// core/mechanisms/mechanism_catalog.h), the model it trains (loss and Λ) and its privacy
// parameters. The linear ERM mechanisms' constants are in core/learners/linear_erm/erm_mechanisms.h.
//
// Regulariser convention (user-facing Λ, as in Li et al. eq. 1): J = L(θ) + (Λ/2n)‖θ‖²,
// i.e. Λ is the sum-form coefficient.

#include "core/learner/sgd_spec.h"
#include "core/model/loss.h"
#include "core/privacy/guarantee.h"
#include "core/util/option_names.h"

#include <string>

namespace elab::core {

/// The mechanism a user chooses. It selects the learner (core/mechanisms/mechanism_catalog.h): the
/// first five are the linear ERM mechanisms of §3.1–3.3 (one-vs-rest for K classes); GaussianLm is
/// the corrected DP large-margin Gaussian classifier of §3.4 (natively multiclass); Dpsgd is
/// gradient perturbation (DP-SGD) of a softmax-linear model or a one-hidden-layer network (§3.6).
enum class MechanismKind { NonPrivate, ObjPertGauss, ObjPertPure, OutPertPure, OutPertGauss, GaussianLm, Dpsgd };

const char* toString(MechanismKind kind);               ///< "nonprivate", "objpert-gauss", ...
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

    /// "" if valid; else why (e.g. output perturbation needs Λ > 0): the model's checks, then the
    /// mechanism's own (MechanismInfo::validate). This and usesDelta are defined by the catalog
    /// (core/mechanisms/mechanism_catalog.cpp), which knows every mechanism: code below the
    /// catalog (a learner's folder) checks with its own folder's function instead.
    std::string validate() const;
    /// The kind's guarantee is (ε, δ), so privacy.delta is used (MechanismInfo::usesDelta).
    bool usesDelta() const;
    double effectiveDelta() const { return usesDelta() ? privacy.delta : 0.0; }
};

/// The same mechanism, model (loss and its parameters, Λ), δ and SGD settings: a fit of one is a
/// fit of the other.
bool sameMechanism(const MechanismSpec& a, const MechanismSpec& b);

} // namespace elab::core
