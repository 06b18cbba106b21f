#include "ui/charts/chart_style.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFont>
#include <QGraphicsScene>
#include <QLegend>
#include <QPainter>

#include <algorithm>

namespace elab::ui {

void applyChartStyle(QChart* chart) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 8, 4));
    chart->legend()->setVisible(false);
    QFont title = QApplication::font();
    title.setBold(true);
    chart->setTitleFont(title);
}

void applyChartViewStyle(QChartView* view) {
    view->setRenderHint(QPainter::Antialiasing);
    // A chart's scene holds a few hundred items (axes, labels, grid, series) that change
    // together at each update: a BSP index of them is rebuilt more often than it is searched.
    view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    view->setMinimumSize(240, 200);
}

QList<QPointF> histogramOutline(const core::Histogram& histogram) {
    QList<QPointF> points;
    const auto bins = static_cast<qsizetype>(histogram.counts.size());
    if (bins == 0)
        return points;
    const double width = (histogram.hi - histogram.lo) / static_cast<double>(bins);
    points.reserve(2 * bins + 2);
    points.append(QPointF(histogram.lo, 0.0));
    for (qsizetype b = 0; b < bins; ++b) {
        const double left = histogram.lo + width * static_cast<double>(b);
        const auto count = static_cast<double>(histogram.counts[static_cast<std::size_t>(b)]);
        points.append(QPointF(left, count));
        points.append(QPointF(left + width, count));
    }
    points.append(QPointF(histogram.hi, 0.0));
    return points;
}

qint64 histogramPeak(const core::Histogram& histogram) {
    if (histogram.counts.empty())
        return 0;
    return static_cast<qint64>(*std::max_element(histogram.counts.begin(), histogram.counts.end()));
}

} // namespace elab::ui
