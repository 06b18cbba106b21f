#pragma once
// What the Privacy accounting view draws (issue 12), Qt-free: ε against σ for the three
// accountants at one q, T, δ; the σ each accountant needs for the current ε (and what RDP
// proves for that σ); and ε spent epoch by epoch at the current σ (the chosen accountant's
// calibration). Independent points are computed in parallel; the result does not depend on
// the thread count.

#include "core/accounting/accountant.h"

#include <array>
#include <stop_token>
#include <vector>

namespace elab::core {

inline constexpr std::array<AccountantKind, 3> kAccountants{AccountantKind::Rdp, AccountantKind::AdvancedComposition,
                                                            AccountantKind::ZcdpPublished};

struct AccountingInputs {
    long long rows = 1000;     ///< N training rows
    double batchSize = 64.0;   ///< S: q = min(1, S/N)
    int epochs = 20;           ///< T = epochs·⌈1/q⌉
    double delta = 1e-5;
    double eps = 1.0;          ///< the current ε (finite, > 0)
    AccountantKind accountant = AccountantKind::Rdp; ///< the one that calibrates the current σ
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
    std::vector<double> sigmas;                     ///< log-spaced
    std::array<std::vector<double>, 3> epsBySigma;  ///< per kAccountants entry (+∞: none)
    std::array<Calibration, 3> needed;              ///< σ for inputs.eps, per accountant
    std::array<double, 3> rdpOfNeeded{};            ///< what RDP proves for each needed σ
    double currentSigma = 0.0;                      ///< needed[inputs.accountant]
    std::vector<int> epochs;                        ///< 1 … inputs.epochs (at most 200 points)
    std::array<std::vector<double>, 3> epsByEpoch;  ///< ε spent after each epoch at currentSigma
    bool stopped = false;
};

/// Throws std::invalid_argument on invalid inputs.
AccountingCurves accountingCurves(const AccountingInputs& inputs, std::stop_token stop = {});

/// Index of kind in kAccountants.
std::size_t accountantIndex(AccountantKind kind);

} // namespace elab::core
