#pragma once
// Base of the items ui/charts adds to a QChart (raster, colour bar, points): a child of the
// chart that keeps a copy of its plot area, updated when the plot area changes. GUI thread only.

#include <QChart>
#include <QGraphicsObject>

namespace elab::ui::charts {

class PlotAreaItem : public QGraphicsObject {
public:
    explicit PlotAreaItem(QChart* chart) : QGraphicsObject(chart), m_chart(chart) {
        setAcceptedMouseButtons(Qt::NoButton); // clicks reach the chart view as before
        QObject::connect(chart, &QChart::plotAreaChanged, this, [this](const QRectF&) { sync(); });
    }
    void sync() {
        prepareGeometryChange();
        m_plot = m_chart->plotArea();
        update();
    }

protected:
    QChart* m_chart;
    QRectF m_plot;
};

/// The chart's child item of this type(), if it has one.
template <class Item>
Item* itemOf(QChart* chart, int type) {
    for (QGraphicsItem* child : chart->childItems())
        if (child->type() == type)
            return static_cast<Item*>(child);
    return nullptr;
}

} // namespace elab::ui::charts
