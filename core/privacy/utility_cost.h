#pragma once
// What the difference between accountants costs in utility (issue 12, the Privacy accounting
// table), read off a measured DP-SGD sweep: the sweep trained at each ε with the σ its own
// accountant A calibrated. Accountant k needs σ_k for the target ε (at the sweep's q, T, δ); the
// sweep's model with noise σ_k is the one it trained at ε' = ε_A(σ_k), so the utility accountant
// k buys is the measured curve at ε' (interpolated linearly in log ε), and the cost is the
// difference from the curve at ε. Outside the sweep's ε range: no figure.

#include "core/privacy/accountant.h"

#include <optional>
#include <vector>

namespace elab::core {

/// A measured curve: ε ascending (finite, > 0) and the mean metric at each.
struct MeasuredCurve {
    std::vector<double> eps;
    std::vector<double> value;

    /// The curve at e, linear in log ε; nullopt outside [eps.front(), eps.back()].
    std::optional<double> at(double e) const;
};

struct UtilityCost {
    double sigma = 0.0;          ///< σ_k for the target ε; +∞: none ≤ kMaxCalibratedSigma reaches it
    double equivalentEps = 0.0;  ///< ε_A(σ_k): the sweep's ε with that noise (NaN when σ_k = +∞)
    std::optional<double> value; ///< the measured metric there (nullopt: outside the sweep)
    std::optional<double> cost;  ///< value at the target ε minus value (higher is better) or the reverse
};

/// Per accountant in kind, for the target ε; schedule: the sweep's q, T, δ (σ ignored). nPublic:
/// the sweep's ε are add/remove (N declared public); else replace-one at the fixed N, σ_k and
/// ε' in those terms (calibrateSigmaReplaceOneWithinLimit, replaceOneEpsilon).
UtilityCost utilityCost(const MeasuredCurve& curve, AccountantKind sweepAccountant, const SgdPrivacyParams& schedule,
                        AccountantKind kind, double eps, bool higherIsBetter, bool nPublic = true);

} // namespace elab::core
