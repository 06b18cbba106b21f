#pragma once
// Contours of a scalar field sampled on a regular grid at level 0 (marching squares; docs/MATH.md
// §6), joined into polylines. Used for every model's decision boundaries in the regions view.

#include <array>
#include <vector>

namespace elab::core {

using Polyline = std::vector<std::array<double, 2>>;

/// field: nx × ny samples, row-major by y (index iy·nx + ix), sample (ix, iy) at
/// (x0 + ix·dx, y0 + iy·dy). Returns the zero-level curves as chains of points (closed chains
/// repeat their first point at the end). Crossings are linearly interpolated on the grid edges;
/// a saddle square is resolved by the mean of its corners. Deterministic (scan order).
std::vector<Polyline> zeroContours(const std::vector<double>& field, int nx, int ny, double x0, double y0, double dx,
                                   double dy);

/// The chain without the points that lie within `tolerance` grid cells of the segment joining the
/// points kept on either side (Douglas–Peucker; distances measured in cells, x in units of dx and
/// y of dy). The first and last points always stay, so a closed chain stays closed. On a linear
/// field the contour's points are collinear, and a straight boundary becomes its two ends.
/// Deterministic.
Polyline simplifyChain(const Polyline& chain, double dx, double dy, double tolerance);

} // namespace elab::core
