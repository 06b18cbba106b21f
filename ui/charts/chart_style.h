#pragma once
// Shared look of the Data tab's charts, and the step outline of a histogram (so that
// histograms sit on a real value axis and can carry markers such as "norm = 1").
// GUI thread only (Qt Charts objects).

#include "core/data/dataset_summary.h"

#include <QList>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace elab::ui {

/// No animation, no rounded background, small margins, readable fonts, no legend.
void applyChartStyle(QChart* chart);
/// Antialiasing and a sensible minimum size.
void applyChartViewStyle(QChartView* view);
/// Outline of the bars: (lo,0) (lo,c0) (lo+w,c0) (lo+w,c1) … (hi,0).
QList<QPointF> histogramOutline(const core::Histogram& histogram);
/// Largest bin count (0 if empty).
qint64 histogramPeak(const core::Histogram& histogram);

} // namespace elab::ui
