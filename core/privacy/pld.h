#pragma once
// The privacy loss distribution (PLD) accountant for DP-SGD (docs/MATH.md §3.6, accountant 4):
// the Poisson-subsampled Gaussian mechanism (noise multiplier σ, sampling rate q) composed over
// T steps, ε at a given δ. The tightest of the accountants: ε(δ) of the discretised PLD is an
// upper bound on the exact ε of the composition, close to it.
//
//  - One step: the pair of output distributions (P, Q) that dominates the step (sensitivity 1,
//    noise sd σ): under add/remove the "remove" pair P = (1−q)N(0, σ²) + qN(−1, σ²), Q = N(0, σ²)
//    and the "add" pair P = N(0, σ²), Q = (1−q)N(0, σ²) + qN(1, σ²), both accounted (ε is the
//    larger); under replace-one P = (1−q)N(0, σ²) + qN(−1, σ²), Q = (1−q)N(0, σ²) + qN(1, σ²).
//    The privacy loss L = log(P/Q)(X), X ~ P, is discretised on the grid hℤ by the pessimistic
//    "connect the dots" construction (Doroshenko et al. 2022): its hockey-stick curve δ(ε) equals
//    the exact one at every grid point and lies above it in between, so every δ, and so every ε,
//    it reports for a composition is ≥ the exact one.
//  - T steps: the T-fold convolution of the grid PMF by FFT (one forward transform, the
//    spectrum raised to the T-th power, one inverse), on a window that Chernoff bounds show holds
//    all but max(10⁻¹⁵, 10⁻⁶δ) of the mass; the upper tail's share is counted at +∞ and the lower
//    one wraps into the window (both only raise δ). One step's loss range is cut where the noise
//    tail is max(e^{−50}/2, 10⁻⁷δ/T); connect the dots keeps that pessimistic (the mass above the
//    range at +∞, below it on the bottom grid point). Together the truncations raise δ by at most
//    ~10⁻⁶δ.
//  - h (the grid step) is chosen from the spread s₁ of one step's loss: h = s₁·√(8r) with r =
//    1e-4, the relative excess of ε that the discretisation's added variance T·h²/4 causes
//    (≈ h²/(8s₁²)), then raised by up to √2 where that lets the composed window fit an FFT of half
//    the length (so the excess stays below ~2r), unless given.
//
// The same construction as Google's dp_accounting PLD accountant (connect the dots, pessimistic),
// with the grid step chosen per run instead of fixed at 1e-4.

#include <cstddef>
#include <optional>

namespace elab::core {

/// Which neighbouring datasets the guarantee is about.
enum class PldNeighbours {
    AddRemove, ///< one row added or removed (the remove and add pairs, ε the larger)
    ReplaceOne ///< one row replaced by another (the replace pair)
};

struct PldSettings {
    /// The grid step h of the privacy loss; 0: chosen from the step's loss spread (h = s₁·√(8r)).
    double discretization = 0.0;
    /// r: the relative excess of ε the automatic h aims at.
    double relativeAccuracy = 1e-4;
};

/// What the PLD accountant reports for one run.
struct PldEpsilon {
    double epsilon = 0.0;        ///< +∞ where the mass at +∞ exceeds δ (σ = 0, or far too little noise)
    double delta = 0.0;          ///< the δ asked for
    double discretization = 0.0; ///< h used
    double infinityMass = 0.0;   ///< the composed PLD's mass at +∞ (δ's part that no ε removes)
    double stepLossSd = 0.0;     ///< s₁: the sd of one step's privacy loss (the larger pair's)
    std::size_t fftLength = 0;   ///< the length of the transforms (0: no composition needed)
};

/// ε at δ ∈ (0, 1) after steps ≥ 0 steps of the subsampled Gaussian (σ ≥ 0 finite, q ∈ (0, 1]).
/// Throws std::invalid_argument for parameters outside those ranges.
PldEpsilon pldEpsilon(double sigma, double q, long long steps, double delta,
                      PldNeighbours neighbours = PldNeighbours::AddRemove, const PldSettings& settings = {});

/// δ at ε (the hockey-stick divergence of the composed discretised PLD; the larger pair's under
/// add/remove): an upper bound on the exact δ(ε). Same parameter checks as pldEpsilon.
double pldDelta(double sigma, double q, long long steps, double epsilon,
                PldNeighbours neighbours = PldNeighbours::AddRemove, const PldSettings& settings = {});

/// The exact hockey-stick divergence δ(ε) = P(L > ε) − e^ε Q(L > ε) of ONE step's pair
/// (before discretisation): the values the grid PMF reproduces at its grid points. Under
/// add/remove the larger of the remove and add pairs'.
double pldStepDelta(double sigma, double q, double epsilon, PldNeighbours neighbours = PldNeighbours::AddRemove);

/// The calibrated noise: the σ found with ε(σ) ≤ target.
struct PldCalibration {
    double sigma = 0.0;
    PldEpsilon result;         ///< at sigma: result.epsilon ≤ target
    bool reachedTarget = true; ///< false when ε(σ) stays more than 0.1 % below the target
};

/// σ ≤ maxSigma with ε(σ) ≤ targetEps, within 1e-5 relative of the target in ε: a bracket found
/// by secant steps in (log σ, log ε), then the Illinois variant of regula falsi in those
/// coordinates — first on a grid 10 times coarser (to 1e-4), then on the grid of `settings` from
/// the coarse root and slope (3–4 evaluations, where bisection needs twenty). nullopt if even
/// maxSigma does not reach the target. Throws std::invalid_argument for invalid parameters.
std::optional<PldCalibration> pldCalibrateSigma(double targetEps, double q, long long steps, double delta,
                                                PldNeighbours neighbours, double maxSigma,
                                                const PldSettings& settings = {});

} // namespace elab::core
