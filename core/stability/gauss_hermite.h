#pragma once
// Gauss–Hermite quadrature for Gaussian expectations (Golub & Welsch 1969; docs/MATH.md §3.5):
//   E_{z~N(0,1)} f(z) ≈ Σ_k w_k f(z_k),  z_k = √2 t_k,  w_k = ω_k / √π,
// with t_k, ω_k the physicists' Hermite nodes and weights. Exact for polynomials of degree
// ≤ 2N − 1. Used by deterministic dropout (docs/MATH.md §3.5, Wang & Manning 2013) with N ≥ 20.

#include <vector>

namespace elab::core {

struct GaussHermiteRule {
    std::vector<double> nodes;   ///< z_k, for a standard normal, ascending
    std::vector<double> weights; ///< w_k, summing to 1
};

/// The N-node rule for E over N(0, 1), N in [1, 200]; throws std::invalid_argument otherwise.
/// Nodes are the eigenvalues of the symmetric Jacobi matrix with off-diagonal √(k/2),
/// weights √π·v_{k,0}² (Golub–Welsch). Thread: any.
GaussHermiteRule gaussHermiteRule(int nodes);

} // namespace elab::core
