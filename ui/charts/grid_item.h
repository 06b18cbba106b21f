#pragma once
// The chart's grid as one item: the lines Qt Charts would draw at its axes' ticks (value axes:
// every tick of their anchor and interval, or of their tick count; log axes: every power of the
// base and, when the axis has minor ticks, the minor ones, 2…9 × 10^k), drawn one pixel wide
// without antialiasing under every series. Qt Charts draws each grid line as an antialiased
// QGraphicsLineItem: about half of a repaint of a chart with a log axis (BENCHMARKS.md, sixth
// session of 2026-11-27). Category axes keep no grid. GUI thread only.

#include <QList>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace elab::ui::charts {

/// The grid's lines in axis values (x for vertical lines, y for horizontal ones; minor lines are
/// drawn fainter) and the axes' ranges they are placed in.
struct GridLines {
    QList<double> x, y, minorX, minorY;
    double xMin = 0.0, xMax = 0.0, yMin = 0.0, yMax = 0.0;
    bool operator==(const GridLines&) const = default;
};

/// The lines for the chart's axes as they are set now.
GridLines gridLinesOf(QChart* chart);

/// Hides Qt Charts' own grid lines on the chart's axes and shows gridLinesOf(chart) in a grid
/// item instead (created on first use; repainted only when the lines or the plot area change).
/// Call after the axes' ranges and ticks are set.
void setChartGrid(QChart* chart);

} // namespace elab::ui::charts
