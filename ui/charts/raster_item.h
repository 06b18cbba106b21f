#pragma once
// What Qt Charts lacks for pictures such as decision regions (issue 11): an image under every
// series, in the plot area only and moved with the axes (ChartData::raster), and a colour bar
// right of the plot area for a sequential scale (ChartData::colorScale). Both are items of
// the chart, kept in sync with QChart::plotArea() and the axes' value→pixel mapping
// (QChart::mapToPosition) whenever the plot area or the data changes, so that the live view
// and every export (one paint routine) draw them the same way: SVG and PDF keep the raster an
// image under the vector series. GUI thread only.

#include "ui/charts/chart_data.h"

#include <QFont>
#include <QMargins>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace elab::ui::charts {

/// Shows data.raster and data.colorScale on a chart built by buildChart (creates, updates or
/// hides its raster and colour-bar items).
void setChartOverlays(QChart* chart, const ChartData& data);

/// Room the overlays need around the plot area with texts in font (a colour bar: on the right).
QMargins overlayMargins(const ChartData& data, const QFont& font);

/// The image rectangle of raster in chart coordinates (for tests): where its corners map.
QRectF rasterRectOn(QChart* chart, const RasterData& raster);

} // namespace elab::ui::charts
