#pragma once
// Turns a ChartData into Qt Charts series and axes, and moves an existing chart to new data
// of the same structure with replace() only (docs/STYLE.md §7: no clear-then-append, no
// animation). ChartView uses it for the live chart and chart_export for off-screen ones.
// Thread that owns the chart: the GUI thread.

#include "ui/charts/chart_data.h"

#include <QFont>
#include <QVector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QLineSeries;
class QXYSeries;
QT_END_NAMESPACE

namespace elab::ui::charts {

/// The Qt series drawing one SeriesData (all owned by the chart).
struct SeriesItems {
    QAbstractSeries* series = nullptr; ///< the one in the chart: line, scatter or area series
    QXYSeries* points = nullptr;       ///< holds the points (Band: the lower edge)
    QLineSeries* upper = nullptr;      ///< Band only: the upper edge
    /// Points with light markers: the layer of the chart's points item that draws them
    /// (points_item.h; `points` then holds none); −1 otherwise.
    qsizetype layer = -1;
};

/// How points are painted. Vector: each marker a path of the scatter series (crisp in SVG/PDF;
/// export). Light: each marker one pre-rendered image drawn by the chart's points item
/// (points_item.h), many times cheaper to build and repaint — the live view, where thousands of
/// points are repainted with every slider step.
enum class MarkerPainting { Vector, Light };

/// Empties chart and fills it from data: axes (log x with decade labels, or linear),
/// one Qt series per data series in order, legend at the bottom with the named series only,
/// no animation, texts in font (setChartFonts). Returns the Qt series index for index with
/// data.series.
QVector<SeriesItems> buildChart(QChart* chart, const ChartData& data, const QFont& font,
                                MarkerPainting markers = MarkerPainting::Vector);

/// Moves a chart built by buildChart(chart, shown) to data; sameStructure(shown, data)
/// must hold. Titles and ranges are updated, series whose points changed are replace()d,
/// pens and brushes are only touched when the look of a series changed.
void updateChart(QChart* chart, const QVector<SeriesItems>& items, const ChartData& shown, const ChartData& data,
                 MarkerPainting markers = MarkerPainting::Vector);

/// A plain text as Qt Charts shows it: titles, axis titles, category labels and legend names are
/// rich text there, so a class or column name such as "<=50K" or "x1·x2 < 0" would vanish or be
/// cut. Every text buildChart and updateChart hand to Qt Charts goes through this (HTML-escaped).
QString chartText(const QString& text);

/// Sets every text of the chart from font: tick labels, axis titles and legend as given,
/// title bold and a little larger.
void setChartFonts(QChart* chart, const QFont& font);

} // namespace elab::ui::charts
