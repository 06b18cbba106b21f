#pragma once
// What the Privacy accounting view draws (issue 12), Qt-free: ε against σ for every accountant
// (kAccountantKinds) at one q, T, δ; the σ each accountant needs for the current ε (and what RDP
// proves for that σ); and ε spent epoch by epoch at the current σ (the chosen accountant's
// calibration). Add/remove with N public, else replace-one at the fixed N (docs/MATH.md §3.6). Independent points are
// computed in parallel; the result does not depend on the thread count.

#include "core/privacy/accountant.h"

#include <array>
#include <cmath>
#include <stop_token>
#include <vector>

namespace elab::core {

/// The accountants the curves hold, in this order: every one there is.
inline constexpr std::array kAccountants = kAccountantKinds;
inline constexpr std::size_t kAccountantCount = kAccountants.size();

struct AccountingInputs {
    long long rows = 1000;   ///< N training rows
    double batchSize = 64.0; ///< S: q = min(1, S/N)
    int epochs = 20;         ///< T = epochs·⌈1/q⌉
    double delta = 1e-5;
    double eps = 1.0;                                ///< the current ε (finite, > 0)
    AccountantKind accountant = AccountantKind::Rdp; ///< the one that calibrates the current σ
    /// N declared public: every ε is add/remove. Else (N the private training rows) every ε is
    /// the replace-one one at the fixed N (calibrateSigmaReplaceOneWithinLimit, replaceOneEpsilons),
    /// as DP-SGD's guarantee states it.
    bool nPublic = false;
    int sigmaPoints = 61;
    double sigmaMin = 0.3;
    double sigmaMax = 300.0;

    /// "" if valid; else why.
    std::string validate() const;
    double q() const;
    long long stepsPerEpoch() const;
    long long steps() const { return stepsPerEpoch() * epochs; }
};

struct AccountingCurves {
    AccountingInputs inputs;
    std::vector<double> sigmas;                                   ///< log-spaced
    std::array<std::vector<double>, kAccountantCount> epsBySigma; ///< per kAccountants entry (+∞: none)
    /// σ for inputs.eps, per accountant. sigma = +∞ (reachedTarget false, result.epsilon NaN):
    /// no σ up to calibrateSigma's limit (10⁶) reaches inputs.eps with that accountant (e.g. RDP
    /// below ≈ 0.004 on a small dataset with many steps); the other accountants are unaffected.
    std::array<Calibration, kAccountantCount> needed;
    std::array<double, kAccountantCount> rdpOfNeeded{}; ///< what RDP proves for each needed σ (NaN: σ = +∞)
    double currentSigma = 0.0;                          ///< needed[inputs.accountant] (may be +∞)
    std::vector<int> epochs;                            ///< 1 … inputs.epochs (at most 200 points)
    /// ε spent after each epoch at currentSigma (NaN if +∞), per accountant.
    std::array<std::vector<double>, kAccountantCount> epsByEpoch;
    bool stopped = false;

    /// Whether needed[k] found a σ (false: none up to the limit reaches inputs.eps).
    bool reached(std::size_t k) const { return std::isfinite(needed[k].sigma); }
};

/// Throws std::invalid_argument on invalid inputs. reuse: curves computed before, e.g. at the
/// slider's previous ε; when sameSigmaCurves(reuse->inputs, inputs) its σ grid and ε(σ) curves
/// are taken over (they do not depend on ε), leaving the calibrations and the epochs to compute.
AccountingCurves accountingCurves(const AccountingInputs& inputs, std::stop_token stop = {},
                                  const AccountingCurves* reuse = nullptr);

/// Whether a and b give the same σ grid and ε(σ) curves: all but ε and the calibrating
/// accountant agree.
bool sameSigmaCurves(const AccountingInputs& a, const AccountingInputs& b);

/// Index of kind in kAccountants.
std::size_t accountantIndex(AccountantKind kind);

/// The fewest words that tell the accountants apart, for a legend below a narrow chart beside one
/// with accountantShortTitle's: "RDP", "AC", "zCDP (no proof)", "PLD".
std::string accountantAbbreviation(AccountantKind kind);

} // namespace elab::core
