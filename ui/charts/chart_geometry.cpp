#include "ui/charts/chart_geometry.h"

#include "ui/charts/palettes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace elab::ui::charts {

namespace {

// Okabe & Ito (2008), "Color Universal Design"; yellow last, it is faint on white (palettes.h).
constexpr const auto& kPalette = palette::kOkabeIto;
// Viridis (van der Walt & Smith, matplotlib) at t = 0, 1/8, …, 1.
constexpr std::array<QRgb, 9> kViridis = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C,
                                          0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};
constexpr double kDimmedAlpha = 0.35;
constexpr double kBandAlpha = 0.18;
constexpr double kMargin = 0.05;

bool finite(double v) { return std::isfinite(v); }

// Lower and upper edge of a band with the pairs where either edge is not drawable removed;
// edges of different lengths (a malformed band) are filtered independently.
std::pair<QList<QPointF>, QList<QPointF>> bandEdges(const SeriesData& series, bool logX, bool logY) {
    if (series.points.size() != series.upper.size())
        return {plottablePoints(series.points, logX, logY), plottablePoints(series.upper, logX, logY)};
    std::pair<QList<QPointF>, QList<QPointF>> edges;
    edges.first.reserve(series.points.size());
    edges.second.reserve(series.upper.size());
    for (qsizetype i = 0; i < series.points.size(); ++i) {
        if (isPlottable(series.points[i], logX, logY) && isPlottable(series.upper[i], logX, logY)) {
            edges.first.append(series.points[i]);
            edges.second.append(series.upper[i]);
        }
    }
    return edges;
}

} // namespace

QColor paletteColor(int index) {
    const auto n = static_cast<int>(kPalette.size());
    return QColor::fromRgb(kPalette[static_cast<std::size_t>(((index % n) + n) % n)]);
}

QColor sequentialColor(double t) {
    const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * static_cast<double>(kViridis.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(x), kViridis.size() - 2);
    const double f = x - static_cast<double>(i);
    const QColor a = QColor::fromRgb(kViridis[i]), b = QColor::fromRgb(kViridis[i + 1]);
    auto mix = [f](int u, int v) { return static_cast<int>(std::lround(u + f * (v - u))); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor seriesColor(const SeriesData& series, int index) {
    QColor colour = series.color.isValid() ? series.color : paletteColor(index);
    if (series.dimmed)
        colour.setAlphaF(static_cast<float>(colour.alphaF() * kDimmedAlpha));
    return colour;
}

QColor bandFillColor(const SeriesData& series, int index) {
    QColor colour = seriesColor(series, index);
    colour.setAlphaF(static_cast<float>(colour.alphaF() * kBandAlpha));
    return colour;
}

bool isPlottable(const QPointF& point, bool logX, bool logY) {
    return finite(point.x()) && finite(point.y()) && (!logX || point.x() > 0.0) && (!logY || point.y() > 0.0);
}

QList<QPointF> plottablePoints(const QVector<QPointF>& points, bool logX, bool logY) {
    QList<QPointF> kept;
    kept.reserve(points.size());
    for (const QPointF& p : points)
        if (isPlottable(p, logX, logY))
            kept.append(p);
    return kept;
}

AxisRange xRange(const ChartData& data) {
    double lo = data.xMin;
    double hi = data.xMax;
    if (data.logX) {
        lo = finite(lo) && lo > 0.0 ? lo : 1e-3;
        hi = finite(hi) && hi > 0.0 ? hi : std::max(lo * 1e5, 1e2);
        if (hi < lo)
            std::swap(lo, hi);
        if (hi / lo < 1.0 + 1e-9)
            return {lo / 10.0, hi * 10.0};
        return {lo, hi};
    }
    lo = finite(lo) ? lo : 0.0;
    hi = finite(hi) ? hi : lo + 1.0;
    if (hi < lo)
        std::swap(lo, hi);
    if (hi - lo <= 1e-12 * std::max(1.0, std::abs(lo)))
        return {lo - 1.0, hi + 1.0};
    return {lo, hi};
}

AxisRange yRange(const ChartData& data) {
    const AxisRange x = xRange(data);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    const auto take = [&](const QPointF& p) {
        if (isPlottable(p, data.logX, data.logY) && p.x() >= x.min && p.x() <= x.max) {
            lo = std::min(lo, p.y());
            hi = std::max(hi, p.y());
        }
    };
    for (const SeriesData& s : data.series) {
        switch (s.kind) {
        case SeriesKind::Line:
        case SeriesKind::Points:
        case SeriesKind::Band:
            std::for_each(s.points.begin(), s.points.end(), take);
            if (s.kind == SeriesKind::Band)
                std::for_each(s.upper.begin(), s.upper.end(), take);
            break;
        case SeriesKind::HorizontalLine:
            if (finite(s.value) && (!data.logY || s.value > 0.0)) {
                lo = std::min(lo, s.value);
                hi = std::max(hi, s.value);
            }
            break;
        case SeriesKind::VerticalLine: break;
        }
    }
    if (data.logY) {
        // The same fitting in decades: a 5 % margin of the log span, fixed ends where > 0.
        if (lo > hi) {
            lo = 0.1;
            hi = 1.0;
        }
        double a = std::log10(lo), b = std::log10(hi);
        const double margin = b > a ? kMargin * (b - a) : 0.1;
        a -= margin;
        b += margin;
        if (finite(data.yMin) && data.yMin > 0.0)
            a = std::log10(data.yMin);
        if (finite(data.yMax) && data.yMax > 0.0)
            b = std::log10(data.yMax);
        if (!(b > a))
            b = a + 0.2;
        return {std::pow(10.0, a), std::pow(10.0, b)};
    }
    if (lo > hi) { // no data
        lo = 0.0;
        hi = 1.0;
    } else {
        const double margin = kMargin * (hi - lo);
        lo -= margin;
        hi += margin;
    }
    const bool fixedLo = finite(data.yMin);
    const bool fixedHi = finite(data.yMax);
    if (fixedLo)
        lo = data.yMin;
    if (fixedHi)
        hi = data.yMax;
    if (fixedLo && fixedHi && hi < lo)
        std::swap(lo, hi);
    const double centre = 0.5 * (lo + hi);
    if (hi - lo <= 1e-12 * std::max(1.0, std::abs(centre))) {
        const double half = centre != 0.0 ? 0.1 * std::abs(centre) : 1.0;
        if (fixedLo && !fixedHi)
            return {lo, lo + 2.0 * half};
        if (fixedHi && !fixedLo)
            return {hi - 2.0 * half, hi};
        return {centre - half, centre + half};
    }
    if (hi < lo) // one end fixed beyond the fitted other end
        return fixedLo ? AxisRange{lo, lo + (lo - hi)} : AxisRange{hi - (lo - hi), hi};
    return {lo, hi};
}

ValueTicks niceTicks(AxisRange range, int target) {
    const double span = range.max - range.min;
    if (!(span > 0.0) || !finite(span))
        return {};
    const double raw = span / std::max(1, target - 1);
    const double exponent = std::floor(std::log10(raw));
    const double magnitude = std::pow(10.0, exponent);
    const double normalised = raw / magnitude;
    const double step = normalised < 1.5 ? 1.0 : normalised < 3.0 ? 2.0 : normalised < 7.0 ? 5.0 : 10.0;
    const int decimals = std::max(0, -static_cast<int>(exponent) - (step >= 10.0 ? 1 : 0));
    return {0.0, step * magnitude, decimals};
}

QList<QPointF> drawnPoints(const SeriesData& series, bool logX, AxisRange x, AxisRange y, bool logY) {
    switch (series.kind) {
    case SeriesKind::Line:
    case SeriesKind::Points: return plottablePoints(series.points, logX, logY);
    case SeriesKind::Band: return bandEdges(series, logX, logY).first;
    case SeriesKind::HorizontalLine:
        if (!finite(series.value) || (logY && series.value <= 0.0))
            return {};
        return {QPointF(x.min, series.value), QPointF(x.max, series.value)};
    case SeriesKind::VerticalLine:
        if (!finite(series.value) || (logX && series.value <= 0.0))
            return {};
        return {QPointF(series.value, y.min), QPointF(series.value, y.max)};
    }
    return {};
}

QList<QPointF> drawnUpper(const SeriesData& series, bool logX, bool logY) {
    if (series.kind != SeriesKind::Band)
        return {};
    return bandEdges(series, logX, logY).second;
}

bool sameStructure(const ChartData& a, const ChartData& b) {
    if (a.logX != b.logX || a.logY != b.logY || a.series.size() != b.series.size() ||
        a.colorScale.colors.isEmpty() != b.colorScale.colors.isEmpty() || // a colour bar takes a margin
        a.yCategories != b.yCategories)
        return false;
    for (qsizetype i = 0; i < a.series.size(); ++i)
        if (a.series[i].key != b.series[i].key || a.series[i].kind != b.series[i].kind)
            return false;
    return true;
}

bool sameLook(const SeriesData& a, const SeriesData& b) {
    return a.name == b.name && a.color == b.color && a.style == b.style && a.width == b.width && a.dimmed == b.dimmed &&
           a.hollow == b.hollow;
}

} // namespace elab::ui::charts
