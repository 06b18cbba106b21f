#pragma once
// What a chart shows, as a plain value: the utility view (issue 4), the stability view
// (issue 5) and the decision regions (issue 11) describe their figures with it; ChartView
// draws it live and chart_export draws the same value onto any export device (one paint
// routine, docs/STYLE.md §7). Built on any thread, drawn on the GUI thread. No Qt Charts types here, so views outside
// ui/charts/ can fill it in.

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>
#include <QStringList>
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
    QString name; ///< legend text; empty: not in the legend
    SeriesKind kind = SeriesKind::Line;
    QVector<QPointF> points;                                 ///< Line / Points: the points; Band: the lower edge
    QVector<QPointF> upper;                                  ///< Band only: the upper edge, same x as points
    double value = std::numeric_limits<double>::quiet_NaN(); ///< Horizontal/VerticalLine
    QColor color;                                            ///< invalid: the palette colour of the series' index
    Qt::PenStyle style = Qt::SolidLine;
    double width = 2.0; ///< pen width (Points: marker size)
    /// Drawn faded (stale or preview results shown while fresh ones are computed).
    bool dimmed = false;
    /// Points only: rings — the colour as the outline (width: marker size), no fill.
    bool hollow = false;
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

/// A picture under every series (Qt Charts has no image series), e.g. a classifier's regions on
/// a grid: the image stretched over the data rectangle [x0, x1] × [y0, y1], row 0 at y1 (the
/// top). Drawn in the plot area only, moved with the axes; exports keep it an image under the
/// vector series (ui/charts/raster_item.h).
struct RasterData {
    QImage image; ///< null: no raster
    double x0 = 0.0, x1 = 1.0, y0 = 0.0, y1 = 1.0;
};

/// A sequential colour scale drawn as a bar right of the plot area: what a raster's colours
/// mean (ui/charts/raster_item.h).
struct ColorScale {
    QString title;
    QVector<QColor> colors; ///< evenly spaced stops from min to max; empty: no bar
    double min = 0.0, max = 1.0;
};

struct ChartData {
    QString title;
    QString xTitle;
    QString yTitle;
    bool logX = true;
    /// Logarithmic y axis: only values > 0 are drawn (a band's pairs with an edge ≤ 0 too).
    bool logY = false;
    double xMin = 1e-3, xMax = 1e2; ///< x axis range (log axes: both > 0)
    /// y range; NaN: fitted to the data with a small margin.
    double yMin = std::numeric_limits<double>::quiet_NaN();
    double yMax = std::numeric_limits<double>::quiet_NaN();
    /// Non-empty (linear y only): the y axis names rows instead of values — label k at y = k
    /// (e.g. one horizontal bar per mechanism); the range is yMin..yMax.
    QStringList yCategories;
    QVector<SeriesData> series; ///< drawn in order (later on top)
    RasterData raster;          ///< under the series; null image: none
    ColorScale colorScale;      ///< beside the plot area; no colours: none
    /// Small text under the plot area in exports (e.g. the privacy guarantee and seed).
    QString footnote;
};

} // namespace elab::ui::charts
