#pragma once
// The DP-SGD accountants of docs/MATH.md §3.6, side by side, behind one interface: ε for
// a noise multiplier σ, sampling rate q, T steps and δ; and σ for a target ε (calibration that
// never overshoots: bracket, then bisect on the accountant's own ε, returning a σ whose ε is
// ≤ the target).
//
// Adjacency for all three: add/remove one row with L2 sensitivity C (the clip norm), σ the noise
// multiplier (noise sd = σC). Replace-one follows by group privacy: (2ε, (1 + e^ε)δ). The paper
// (Ermis & Cemgil) applies the same formulas to replace-one adjacency with sensitivity 2C, i.e.
// twice the noise for the same σ.
//
//  - Rdp (default): the Poisson-subsampled Gaussian's RDP at integer and fractional orders,
//    converted to (ε, δ) (core/privacy/rdp.h). Rigorous, the tightest of the three.
//  - AdvancedComposition (the paper's DPD-AC): per step the classical Gaussian mechanism
//    (ε_it, δ_it) with σ = √(2 log(1.25/δ_it))/ε_it — valid for ε_it < 1 only — amplified by
//    sampling to ε₁ = log(1 + q(e^{ε_it} − 1)), δ₁ = qδ_it, composed over T steps:
//    ε = √(2T log(1/δ'))ε₁ + Tε₁(e^{ε₁} − 1), δ = Tδ₁ + δ'. The split of δ between δ' and the
//    steps is free; we take the one giving the smallest ε (any split is a valid guarantee). Where
//    no split keeps ε_it < 1 (σ too small), there is no guarantee: ε = +∞.
//  - Pld: the privacy loss distribution of the subsampled Gaussian, discretised pessimistically
//    and composed by FFT (core/privacy/pld.h). Rigorous up to floating point, and the tightest:
//    its ε is within ~1e-4 relative above the exact ε. Replace-one directly from the PLD of the
//    replace pair (not by group privacy, which would double ε).
//  - ZcdpPublished (the paper's DPD-zCDP, "as published"): maps a total (ε, δ) to σ by
//    ρ + 2√(ρ log(1/δ)) = ε, τ/Δ² = T/(2ρ), ε' = Δ√(2 log(1.25/δ')/τ) with δ' = δ (the paper
//    does not say which δ'; this is our reading), then "amplification" backwards:
//    ε_iter = log(1 + (e^{ε'} − 1)/q), δ_iter = δ'/q, σ = √(2 log(1.25/δ_iter))/ε_iter. It
//    converts a per-step (ε, δ) guarantee into zCDP, which is not valid in general, so it is NOT
//    a proven guarantee (valid = false); ε for a σ inverts the map.

#include "core/privacy/mechanism_parameter.h"
#include "core/util/option_names.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

enum class AccountantKind { Rdp, AdvancedComposition, ZcdpPublished, Pld };

/// Every accountant, in the order accountantKindNames() lists them: what the CLI's `--accountant
/// all`, the GUI's menus and the Privacy accounting tab show. A new accountant is added here (and
/// named, titled below); the tab follows this list.
inline constexpr std::array kAccountantKinds{AccountantKind::Rdp, AccountantKind::AdvancedComposition,
                                             AccountantKind::ZcdpPublished, AccountantKind::Pld};

const OptionNames<AccountantKind>& accountantKindNames(); ///< "rdp", "ac", "zcdp-published", "pld"
const char* toString(AccountantKind kind);
/// Throws std::invalid_argument for an unknown name.
AccountantKind accountantKindFromString(const std::string& name);
/// For people: "RDP (Mironov et al. 2019)", "advanced composition (paper's DPD-AC)", ...
std::string accountantTitle(AccountantKind kind);
/// For a chart legend: "RDP", "PLD", "advanced composition (DPD-AC)", "zCDP as published (no proof)".
std::string accountantShortTitle(AccountantKind kind);
/// Whether its ε is a proven guarantee (false for the published zCDP procedure).
bool accountantIsProof(AccountantKind kind);

/// What an accountant needs to know of a DP-SGD run.
struct SgdPrivacyParams {
    double sigma = 1.0;  ///< noise multiplier: noise sd / L2 sensitivity, ≥ 0
    double q = 0.01;     ///< Poisson sampling rate S/N ∈ (0, 1]
    long long steps = 1; ///< T ≥ 0
    double delta = 1e-5; ///< δ ∈ (0, 1)

    /// "" if valid; else why.
    std::string validate() const;
};

/// What an accountant says about a run.
struct AccountantResult {
    AccountantKind kind = AccountantKind::Rdp;
    double epsilon = 0.0;                       ///< +∞: no guarantee at these settings
    double delta = 0.0;                         ///< the δ guaranteed (the one asked for)
    bool proven = true;                         ///< false for the published zCDP procedure
    std::vector<MechanismParameter> parameters; ///< e.g. the optimal RDP order, δ', ε_it, ε₁
    std::vector<std::string> notes;

    /// The parameter called name, or NaN.
    double parameter(const std::string& name) const;
};

/// ε for params (throws std::invalid_argument on invalid params).
AccountantResult accountEpsilon(AccountantKind kind, const SgdPrivacyParams& params);
/// accountEpsilon(kind, params with steps = steps[j]) for every j (params.steps ignored), the
/// same results; RDP computes its one-step orders once for all j (rdpEpsilons).
std::vector<AccountantResult> accountEpsilons(AccountantKind kind, SgdPrivacyParams params,
                                              const std::vector<long long>& steps);

/// The calibrated noise: the smallest σ found (to 1e-4 relative in ε) with ε(σ) ≤ target.
struct Calibration {
    double sigma = 0.0;
    AccountantResult result; ///< at sigma: result.epsilon ≤ target
    /// False when ε(σ) jumps past the target, so that the σ found certifies an ε well below it
    /// (more than 0.1 %): AC where ε_it reaches 1 (no σ it can analyse gives a larger ε); RDP past
    /// the KL bound, where ε drops to 0 (a tiny target on a small dataset).
    bool reachedTarget = true;
};

/// The largest σ calibration tries: beyond it the noise drowns any signal.
inline constexpr double kMaxCalibratedSigma = 1e6;
/// σ for a target ε > 0 (params.sigma is ignored). Throws std::invalid_argument on invalid
/// input and std::runtime_error if no σ ≤ kMaxCalibratedSigma reaches the target.
Calibration calibrateSigma(AccountantKind kind, double targetEps, const SgdPrivacyParams& params);
/// calibrateSigma, with nullopt instead of the std::runtime_error: for callers that show every
/// accountant and where one of them not reaching a tiny ε is a finding, not a failure (e.g. RDP
/// with orders ≤ 1024 certifies no ε below ≈ 0.004 at δ = 10⁻⁵ but ε = 0 past the KL bound,
/// which on a small dataset with many steps lies beyond 10⁶).
std::optional<Calibration> calibrateSigmaWithinLimit(AccountantKind kind, double targetEps,
                                                     const SgdPrivacyParams& params);

/// The replace-one guarantee implied by an add/remove (ε, δ) guarantee: (2ε, (1 + e^ε)δ).
struct EpsDelta {
    double epsilon = 0.0;
    double delta = 0.0;
};
EpsDelta replaceOneEquivalent(double epsilon, double delta);

// Replace-one guarantees at a fixed N (docs/MATH.md §3.6). Replacing a row is removing it and
// adding another with q and T unchanged (N = |D| on both sides), so an add/remove (ε_a, δ_a)
// gives replace-one (2ε_a, (1 + e^{ε_a})δ_a) by group privacy.

/// The add/remove target whose replace-one equivalent is ≤ (ε, δ): ε_a = ε/2 and
/// δ_a = δ/(1 + e^{ε/2}), lowered where rounding would make (1 + e^{ε/2})·δ_a exceed δ in
/// floating point. Calibrating σ to it gives the smallest σ whose replace-one ε at δ is ≤ ε.
EpsDelta addRemoveTargetForReplaceOne(double epsilon, double delta);
/// An add/remove result restated as replace-one: epsilon 2ε_a, delta (1 + e^{ε_a})δ_a, the add/remove
/// figures kept as the parameters "eps_add_remove" and "delta_add_remove".
AccountantResult asReplaceOne(const AccountantResult& addRemove);
/// calibrateSigma for a replace-one target (ε, δ): σ for addRemoveTargetForReplaceOne(ε, δ),
/// result restated by asReplaceOne (result.epsilon ≤ ε, result.delta ≤ δ). Pld: σ for (ε, δ)
/// under the replace pair's PLD directly (no add/remove figures in the result).
std::optional<Calibration> calibrateSigmaReplaceOneWithinLimit(AccountantKind kind, double targetEps,
                                                               const SgdPrivacyParams& params);
/// The replace-one ε at δ = params.delta that group privacy gives for params.sigma: the least ε
/// (to 1e-9 relative) with 2·ε_a(σ, δ/(1 + e^{ε/2})) ≤ ε, restated by asReplaceOne (epsilon ≤
/// that ε, delta ≤ params.delta). The same as calibration's: σ meets a replace-one target ε iff
/// this ε is ≤ it. For every entry of steps (params.steps ignored), like accountEpsilons. Pld:
/// ε at δ of the replace pair's PLD directly (tighter than group privacy; no add/remove figures).
std::vector<AccountantResult> replaceOneEpsilons(AccountantKind kind, SgdPrivacyParams params,
                                                 const std::vector<long long>& steps);
AccountantResult replaceOneEpsilon(AccountantKind kind, const SgdPrivacyParams& params);

/// The AC bound for one split of δ: δ' = deltaPrime, the rest shared by the T steps (+∞ where
/// ε_it ≥ 1); exposed for tests. accountEpsilon takes the best split.
double advancedCompositionEpsilon(const SgdPrivacyParams& params, double deltaPrime);

/// The published zCDP procedure's σ for a total (ε, δ) (see above); exposed for tests.
double zcdpPublishedSigma(double epsTotal, double delta, double q, long long steps);

} // namespace elab::core
