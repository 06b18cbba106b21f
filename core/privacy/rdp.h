#pragma once
// Rényi differential privacy of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar &
// Zhang 2019) at integer and fractional orders, and its conversion to (ε, δ)-DP (Canonne,
// Kamath & Steinke 2020 Prop. 12; Asoodeh et al. 2020) — docs/MATH.md §3.6, accountant 3.
// Adjacency: add/remove one row; σ is the noise multiplier (noise sd / L2 sensitivity).

#include <vector>

namespace elab::core {

/// The orders dp_accounting's RdpAccountant uses by default: 1.1 … 10.9 by 0.1, 11 … 63, 128,
/// 256, 512, 1024.
const std::vector<double>& defaultRdpOrders();

/// RDP at order alpha > 1 of one step: the Gaussian mechanism with noise multiplier sigma on a
/// Poisson sample of rate q ∈ [0, 1]. q = 1: α/(2σ²); q = 0: 0; σ = 0: +∞.
double rdpSubsampledGaussian(double q, double sigma, double alpha);

/// An (ε, δ) from RDP, and the order that gave it.
struct RdpConversion {
    double epsilon = 0.0;
    double order = 0.0;
};

/// ε = min over orders of  RDP(α) + log((α−1)/α) − (log δ + log α)/(α−1)  (clamped at 0; 0
/// where the KL bound δ² + expm1(−RDP) > 0 already gives it; orders ≤ 1.01 skipped, as
/// dp_accounting does). rdp[i] belongs to orders[i]; delta ∈ (0, 1).
RdpConversion rdpToEpsilon(const std::vector<double>& orders, const std::vector<double>& rdp, double delta);

/// ε after `steps` steps of the subsampled Gaussian, over the given orders.
RdpConversion rdpEpsilon(double sigma, double q, long long steps, double delta,
                         const std::vector<double>& orders = defaultRdpOrders());

/// rdpEpsilon(sigma, q, steps[j], delta, orders) for every j, bit for bit, with the one step's
/// RDP at each order computed once (RDP composes by addition: T steps are T times one step).
std::vector<RdpConversion> rdpEpsilons(double sigma, double q, const std::vector<long long>& steps, double delta,
                                       const std::vector<double>& orders = defaultRdpOrders());

/// The same by summing every order's series (rdpEpsilons skips the fractional orders that
/// provably cannot give the minimum, and returns exactly this): the reference for its test
/// and benchmark.
std::vector<RdpConversion> rdpEpsilonsExhaustive(double sigma, double q, const std::vector<long long>& steps,
                                                 double delta, const std::vector<double>& orders = defaultRdpOrders());

} // namespace elab::core
