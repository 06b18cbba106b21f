#pragma once
// What a chart shows, as a plain value: the utility view (issue 4) and the stability view
// (issue 5) describe their figures with it; ChartView draws it live and chart_export draws
// the same value onto any export device (one paint routine, docs/STYLE.md §7). Built on
// any thread, drawn on the GUI thread. No Qt Charts types here, so views outside
// ui/charts/ can fill it in.

#include <QColor>
#include <QPointF>
#include <QString>
#include <QVector>

#include <limits>

namespace elab::ui::charts {

enum class SeriesKind {
    Line,           ///< polyline through points (ascending x)
    Band,           ///< filled area between points (lower edge) and upper (same x)
    Points,         ///< markers only
    HorizontalLine, ///< y = value across the whole x range
    VerticalLine    ///< x = value across the whole y range
};

struct SeriesData {
    QString name;                 ///< legend text; empty: not in the legend
    SeriesKind kind = SeriesKind::Line;
    QVector<QPointF> points;      ///< Line / Points: the points; Band: the lower edge
    QVector<QPointF> upper;       ///< Band only: the upper edge, same x as points
    double value = std::numeric_limits<double>::quiet_NaN(); ///< Horizontal/VerticalLine
    QColor color;                 ///< invalid: the palette colour of the series' index
    Qt::PenStyle style = Qt::SolidLine;
    double width = 2.0;           ///< pen width (Points: marker size)
    /// Drawn faded (stale or preview results shown while fresh ones are computed).
    bool dimmed = false;
    /// Identifies the series across updates ("measured", "estimate:1:inverse-eps"); the
    /// live view reuses the Qt series whose key matches and only replace()s its points.
    QString key;
};

/// A series with its identity, legend name, kind and colour; the rest at the defaults.
inline SeriesData makeSeries(const QString& key, const QString& name, SeriesKind kind, const QColor& colour) {
    SeriesData s;
    s.key = key;
    s.name = name;
    s.kind = kind;
    s.color = colour;
    return s;
}

struct ChartData {
    QString title;
    QString xTitle;
    QString yTitle;
    bool logX = true;
    /// Logarithmic y axis: only values > 0 are drawn (a band's pairs with an edge ≤ 0 too).
    bool logY = false;
    double xMin = 1e-3, xMax = 1e2;   ///< x axis range (log axes: both > 0)
    /// y range; NaN: fitted to the data with a small margin.
    double yMin = std::numeric_limits<double>::quiet_NaN();
    double yMax = std::numeric_limits<double>::quiet_NaN();
    QVector<SeriesData> series;       ///< drawn in order (later on top)
    /// Small text under the plot area in exports (e.g. the privacy guarantee and seed).
    QString footnote;
};

} // namespace elab::ui::charts
