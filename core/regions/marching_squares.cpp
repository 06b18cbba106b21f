#include "core/regions/marching_squares.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace elab::core {

namespace {

// A crossing lies on one grid edge: horizontal edge (ix, iy)–(ix+1, iy) has id 2·(iy·nx + ix),
// vertical edge (ix, iy)–(ix, iy+1) has id 2·(iy·nx + ix) + 1.
struct Segment {
    std::int64_t a, b;
};

} // namespace

std::vector<Polyline> zeroContours(const std::vector<double>& field, int nx, int ny, double x0, double y0, double dx,
                                   double dy) {
    auto at = [&](int ix, int iy) { return field[static_cast<std::size_t>(iy) * nx + ix]; };
    auto positive = [](double v) { return v > 0.0; };
    std::unordered_map<std::int64_t, std::array<double, 2>> points;
    auto crossing = [&](int ix, int iy, bool horizontal) -> std::int64_t {
        const std::int64_t id = 2 * (static_cast<std::int64_t>(iy) * nx + ix) + (horizontal ? 0 : 1);
        if (points.find(id) == points.end()) {
            const double v0 = at(ix, iy), v1 = horizontal ? at(ix + 1, iy) : at(ix, iy + 1);
            const double t = v0 == v1 ? 0.5 : v0 / (v0 - v1);
            const double x = x0 + (ix + (horizontal ? t : 0.0)) * dx;
            const double y = y0 + (iy + (horizontal ? 0.0 : t)) * dy;
            points.emplace(id, std::array<double, 2>{x, y});
        }
        return id;
    };
    std::vector<Segment> segments;
    for (int iy = 0; iy + 1 < ny; ++iy)
        for (int ix = 0; ix + 1 < nx; ++ix) {
            const bool s0 = positive(at(ix, iy)), s1 = positive(at(ix + 1, iy));
            const bool s2 = positive(at(ix + 1, iy + 1)), s3 = positive(at(ix, iy + 1));
            const int code = s0 | (s1 << 1) | (s2 << 2) | (s3 << 3);
            if (code == 0 || code == 15)
                continue;
            // Edges: bottom (ix,iy)h, right (ix+1,iy)v, top (ix,iy+1)h, left (ix,iy)v.
            auto bottom = [&] { return crossing(ix, iy, true); };
            auto right = [&] { return crossing(ix + 1, iy, false); };
            auto top = [&] { return crossing(ix, iy + 1, true); };
            auto left = [&] { return crossing(ix, iy, false); };
            switch (code) {
            case 1:
            case 14: segments.push_back({left(), bottom()}); break;
            case 2:
            case 13: segments.push_back({bottom(), right()}); break;
            case 3:
            case 12: segments.push_back({left(), right()}); break;
            case 4:
            case 11: segments.push_back({right(), top()}); break;
            case 6:
            case 9: segments.push_back({bottom(), top()}); break;
            case 7:
            case 8: segments.push_back({left(), top()}); break;
            case 5:
            case 10: {
                // Saddle: corners 0 and 2 share a sign. If the centre has their sign, they are
                // connected and the two segments cut off corners 1 and 3; else corners 0 and 2.
                const double centre = 0.25 * (at(ix, iy) + at(ix + 1, iy) + at(ix + 1, iy + 1) + at(ix, iy + 1));
                if (positive(centre) == s0) {
                    segments.push_back({bottom(), right()});
                    segments.push_back({top(), left()});
                } else {
                    segments.push_back({left(), bottom()});
                    segments.push_back({right(), top()});
                }
                break;
            }
            default: break;
            }
        }

    // Join segments into chains: each crossing belongs to at most two segments.
    std::unordered_map<std::int64_t, std::vector<std::size_t>> touching;
    for (std::size_t s = 0; s < segments.size(); ++s) {
        touching[segments[s].a].push_back(s);
        touching[segments[s].b].push_back(s);
    }
    std::vector<bool> used(segments.size(), false);
    std::vector<Polyline> chains;
    auto walk = [&](std::size_t first, std::int64_t start) {
        Polyline chain{points.at(start)};
        std::size_t s = first;
        std::int64_t at_ = start;
        while (true) {
            used[s] = true;
            const std::int64_t next = segments[s].a == at_ ? segments[s].b : segments[s].a;
            chain.push_back(points.at(next));
            at_ = next;
            std::size_t following = segments.size();
            for (std::size_t t : touching[at_])
                if (!used[t])
                    following = t;
            if (following == segments.size())
                break;
            s = following;
        }
        chains.push_back(std::move(chain));
    };
    // Open chains start at a crossing on one segment only (the grid's border), in scan order.
    for (std::size_t s = 0; s < segments.size(); ++s)
        for (std::int64_t end : {segments[s].a, segments[s].b})
            if (!used[s] && touching[end].size() == 1)
                walk(s, end);
    for (std::size_t s = 0; s < segments.size(); ++s)
        if (!used[s])
            walk(s, segments[s].a);
    return chains;
}

Polyline simplifyChain(const Polyline& chain, double dx, double dy, double tolerance) {
    const std::size_t n = chain.size();
    if (n <= 2)
        return chain;
    // Distance in cells from point p to the segment a–b.
    auto distance = [&](const std::array<double, 2>& p, const std::array<double, 2>& a,
                        const std::array<double, 2>& b) {
        const double px = (p[0] - a[0]) / dx, py = (p[1] - a[1]) / dy;
        const double bx = (b[0] - a[0]) / dx, by = (b[1] - a[1]) / dy;
        const double length2 = bx * bx + by * by;
        double t = length2 > 0.0 ? (px * bx + py * by) / length2 : 0.0;
        t = std::min(1.0, std::max(0.0, t));
        return std::hypot(px - t * bx, py - t * by);
    };
    std::vector<bool> keep(n, false);
    keep.front() = keep.back() = true;
    std::vector<std::pair<std::size_t, std::size_t>> spans{{0, n - 1}};
    while (!spans.empty()) {
        const auto [first, last] = spans.back();
        spans.pop_back();
        double farthest = -1.0;
        std::size_t at = first;
        for (std::size_t i = first + 1; i < last; ++i) {
            const double d = distance(chain[i], chain[first], chain[last]);
            if (d > farthest) {
                farthest = d;
                at = i;
            }
        }
        if (at == first || farthest <= tolerance)
            continue;
        keep[at] = true;
        spans.push_back({first, at});
        spans.push_back({at, last});
    }
    Polyline out;
    for (std::size_t i = 0; i < n; ++i)
        if (keep[i])
            out.push_back(chain[i]);
    return out;
}

} // namespace elab::core
