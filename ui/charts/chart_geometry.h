#pragma once
// The arithmetic behind the chart builder, apart from Qt Charts so that it can be tested
// (and later moved to Qt Graphs) on its own: palette, which points Qt Charts may be handed,
// axis ranges and tick spacing. Pure functions of a ChartData; any thread.

#include "ui/charts/chart_data.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

namespace elab::ui::charts {

struct AxisRange {
    double min = 0.0;
    double max = 1.0;
};

/// Evenly spaced ticks: at anchor + k·interval, labelled with `decimals` decimals.
struct ValueTicks {
    double anchor = 0.0;
    double interval = 0.2;
    int decimals = 1;
};

/// Okabe–Ito colours (readable with every common colour-vision deficiency), cycled by index.
QColor paletteColor(int index);
/// A sequential scale for t in [0, 1] (viridis: perceptually uniform, readable with every
/// common colour-vision deficiency and in grey): dark blue-purple at 0 to yellow at 1.
QColor sequentialColor(double t);
/// What series `index` is drawn in: its own colour or the palette's, faded when dimmed.
QColor seriesColor(const SeriesData& series, int index);
/// Fill of a band: the series colour, mostly transparent (more so when dimmed).
QColor bandFillColor(const SeriesData& series, int index);

/// Finite, and > 0 on a log axis (x or y): a point Qt Charts can draw.
bool isPlottable(const QPointF& point, bool logX, bool logY = false);
/// The plottable points, in order.
QList<QPointF> plottablePoints(const QVector<QPointF>& points, bool logX, bool logY = false);

/// The x range to show: data.xMin/xMax, repaired when not finite, reversed, equal, or ≤ 0 on
/// a log axis.
AxisRange xRange(const ChartData& data);
/// The y range to show: data.yMin/yMax where finite; otherwise fitted to the finite values
/// drawn inside the x range (curves, band edges, markers, horizontal lines) with a 5 %
/// margin. Never empty: constant data gets ±10 % of its value (±1 around 0). On a log y axis
/// the same in log10 (values ≤ 0 ignored, ±0.1 decade for constant data).
AxisRange yRange(const ChartData& data);
/// About `target` ticks at 1, 2 or 5 × 10^k, anchored at 0.
ValueTicks niceTicks(AxisRange range, int target = 6);

/// The points handed to Qt Charts for one series: plottable points (Band: lower edge; the
/// pairs where either edge is not plottable are left out of both), or two points spanning
/// the axis for Horizontal/VerticalLine (none when the value is not plottable).
QList<QPointF> drawnPoints(const SeriesData& series, bool logX, AxisRange x, AxisRange y, bool logY = false);
/// Band only: the upper edge matching drawnPoints().
QList<QPointF> drawnUpper(const SeriesData& series, bool logX, bool logY = false);

/// Same number of series with the same keys and kinds in the same order, same axis type, a
/// colour bar in both or neither: the shown chart can be updated in place.
bool sameStructure(const ChartData& a, const ChartData& b);
/// Same name, colour, pen, dimming and marker fill: the Qt series need no new pen or brush.
bool sameLook(const SeriesData& a, const SeriesData& b);

} // namespace elab::ui::charts
