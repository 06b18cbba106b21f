#pragma once
// The grid syntax shared by the CLI options --eps and --rho: "A:B:K" (K points from A to B,
// spaced by the caller's rule) or a comma list "a,b,c" (sorted). What the points must satisfy
// is the caller's check.

#include <string>
#include <vector>

namespace elab::core {

enum class GridSpacing { Logarithmic, Linear };

/// k points from a to b, the i-th at a·(b/a)^{i/(k−1)} (Logarithmic) or a + (b − a)·i/(k−1)
/// (Linear); {a} for k = 1; empty for k < 1. The one grid rule of the CLI's "A:B:K" and the GUI.
std::vector<double> spacedGrid(double a, double b, int k, GridSpacing spacing);

/// name ("ε", "ρ") appears in the messages. Throws std::invalid_argument naming the text for a
/// non-number, a malformed A:B:K, K not an integer ≥ 1, or B < A; for Logarithmic also A ≤ 0.
std::vector<double> parseGridText(const std::string& text, GridSpacing spacing, const std::string& name);

} // namespace elab::core
