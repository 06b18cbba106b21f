#include "ui/charts/points_item.h"

#include "ui/charts/plot_area_item.h"

#include <QAbstractSeries>
#include <QPainter>

#include <algorithm>

namespace elab::ui::charts {

namespace {

// Qt Charts' z order: grid 2, axes 3, series 4, legend 5. Markers lie over every series.
constexpr double kPointsZ = 4.5;
constexpr int kPointsType = QGraphicsItem::UserType + 721;

class PointsItem : public PlotAreaItem {
public:
    explicit PointsItem(QChart* chart) : PlotAreaItem(chart) { setZValue(kPointsZ); }
    int type() const override { return kPointsType; }
    void setLayers(QVector<PointLayer> layers) {
        m_layers = std::move(layers);
        m_reach = 0.0;
        for (const PointLayer& layer : m_layers)
            m_reach = std::max(m_reach, layer.size / 2.0);
        setVisible(!m_layers.isEmpty());
        sync();
    }
    const QVector<PointLayer>& layers() const { return m_layers; }
    QRectF boundingRect() const override { return m_plot; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        if (m_layers.isEmpty() || m_chart->series().isEmpty())
            return;
        QAbstractSeries* series = m_chart->series().constFirst(); // every series shares the two axes
        const QRectF reachable = m_plot.adjusted(-m_reach, -m_reach, m_reach, m_reach);
        painter->save();
        painter->setClipRect(m_plot); // as Qt Charts clips its series
        painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
        for (const PointLayer& layer : m_layers) {
            const double half = layer.size / 2.0;
            for (const QPointF& p : layer.points) {
                const QPointF c = m_chart->mapToPosition(p, series); // with the axes as they are now
                if (reachable.contains(c))
                    painter->drawImage(QRectF(c.x() - half, c.y() - half, layer.size, layer.size), layer.marker);
            }
        }
        painter->restore();
    }

private:
    QVector<PointLayer> m_layers;
    double m_reach = 0.0;
};

} // namespace

void setChartPoints(QChart* chart, QVector<PointLayer> layers) {
    auto* item = itemOf<PointsItem>(chart, kPointsType);
    if (!item && layers.isEmpty())
        return;
    if (!item)
        item = new PointsItem(chart);
    item->setLayers(std::move(layers));
}

QList<QPointF> chartPoints(QChart* chart, qsizetype k) {
    const auto* item = itemOf<PointsItem>(chart, kPointsType);
    if (!item || k < 0 || k >= item->layers().size())
        return {};
    return item->layers()[k].points;
}

} // namespace elab::ui::charts
