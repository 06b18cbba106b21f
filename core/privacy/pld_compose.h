#pragma once
// Internal to the PLD accountant (pld.cpp; docs/MATH.md §3.6, accountant 4): the T-fold
// composition of one step's grid PMF by FFT inside a Chernoff window, and ε at δ (δ at ε) of the
// composed PMF.

#include "core/privacy/pld_step.h"

#include <array>
#include <cstddef>
#include <vector>

namespace elab::core::pld_detail {

/// The longest FFT a composition may use (h grows to fit it).
inline constexpr std::size_t kMaxFftLength = std::size_t{1} << 22;

/// The T-fold composition of one or two grid PMFs (two real sequences share one complex FFT:
/// the first in the real part, the second in the imaginary part).
struct Composed {
    long long lo = 0; ///< grid index of out[0]
    std::vector<double> p;
    double inf = 0.0;
};

/// The window [jLo, jHi] of the T-fold sum of grid indices (0 … T(n−1)) outside which the
/// composed PMF has mass ≤ composedTail/2 on each side (Chernoff: P(S ≥ a) ≤ e^{T·K(λ) − λa}).
std::array<long long, 2> chernoffWindow(const GridPmf& g, long long steps, double spreadBins, double composedTail);

/// ε at δ of a composed PMF: the smallest ε ≥ 0 with Σ_{L>ε} p(L)(1 − e^{ε−L}) + p(∞) ≤ δ
/// (dp_accounting's scan from the top).
double epsilonOf(const Composed& c, double h, double delta);

/// δ at ε of a composed PMF.
double deltaOf(const Composed& c, double h, double eps);

/// The T-fold composition of each PMF, two of them per complex FFT; fftLength: the length used.
/// Throws std::length_error when the window needs an FFT longer than kMaxFftLength.
std::vector<Composed> compose(const std::vector<GridPmf>& pmfs, long long steps, double spreadBins, double composedTail,
                              std::size_t& fftLength);

} // namespace elab::core::pld_detail
