#pragma once
// The live chart's markers drawn by one item of the chart instead of Qt Charts' scatter items:
// Qt Charts 6.4 creates a graphics item per scatter point (hidden, even with light markers),
// ≈ 40 µs each on the GUI thread whenever a chart is built — 30 ms for the 800 points of a
// decision-regions picture. Here a point costs one mapped image draw at paint time. The
// scatter series stays in the chart, without points, for its legend entry and axes. Exports
// keep vector markers in the scatter series (chart_builder.h: MarkerPainting). GUI thread only.

#include <QImage>
#include <QList>
#include <QPointF>
#include <QVector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace elab::ui::charts {

/// One series' markers: points in data coordinates, each drawn as marker, size × size pixels,
/// centred on the point.
struct PointLayer {
    QList<QPointF> points;
    QImage marker;
    double size = 0.0;
};

/// Draws layers (in order, over every series) on a chart built by buildChart; an empty list
/// hides the item. Points are mapped with the chart's axes at each paint and clipped to the plot area.
void setChartPoints(QChart* chart, QVector<PointLayer> layers);

/// The points of layer k as last set (empty when there is no such layer).
QList<QPointF> chartPoints(QChart* chart, qsizetype k);

} // namespace elab::ui::charts
