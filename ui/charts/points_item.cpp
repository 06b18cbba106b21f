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
    /// New layers. When only some layers' points moved (a slider step moves the probe's
    /// marker), only the rectangles around their markers as last painted and as they will be
    /// are repainted: a whole plot's repaint strokes every curve and grid line again.
    void setLayers(QVector<PointLayer> layers) {
        const bool sameLayers = isVisible() && !layers.isEmpty() && m_plot == m_chart->plotArea() &&
                                sameMarkers(m_layers, layers) && layers.size() == m_painted.size();
        const QVector<QList<QPointF>> mapped = sameLayers ? mappedCentres(layers) : QVector<QList<QPointF>>();
        const bool partial = sameLayers && mapped.size() == m_painted.size(); // (no series: nothing mapped)
        QVector<QRectF> dirty;
        if (partial)
            for (qsizetype k = 0; k < layers.size(); ++k)
                if (mapped[k] != m_painted[k])
                    dirty << extent(m_painted[k], layers[k].size) << extent(mapped[k], layers[k].size);
        m_layers = std::move(layers);
        m_reach = 0.0;
        for (const PointLayer& layer : m_layers)
            m_reach = std::max(m_reach, layer.size / 2.0);
        if (!partial) {
            setVisible(!m_layers.isEmpty());
            sync();
            return;
        }
        const QRectF reachable = m_plot.adjusted(-m_reach, -m_reach, m_reach, m_reach);
        for (const QRectF& r : dirty)
            if (const QRectF shown = r & reachable; !shown.isEmpty())
                update(shown);
    }
    const QVector<PointLayer>& layers() const { return m_layers; }
    QRectF boundingRect() const override { return m_plot; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        if (m_layers.isEmpty() || m_chart->series().isEmpty())
            return;
        const QRectF reachable = m_plot.adjusted(-m_reach, -m_reach, m_reach, m_reach);
        painter->save();
        painter->setClipRect(m_plot); // as Qt Charts clips its series
        painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
        m_painted = mappedCentres(m_layers); // with the axes as they are now
        for (qsizetype k = 0; k < m_layers.size(); ++k) {
            const PointLayer& layer = m_layers[k];
            const double half = layer.size / 2.0;
            for (const QPointF& c : m_painted[k]) {
                if (reachable.contains(c))
                    painter->drawImage(QRectF(c.x() - half, c.y() - half, layer.size, layer.size), layer.marker);
            }
        }
        painter->restore();
    }

private:
    // Where the axes put each layer's points now (item coordinates); empty without series.
    QVector<QList<QPointF>> mappedCentres(const QVector<PointLayer>& layers) const {
        QVector<QList<QPointF>> mapped;
        if (m_chart->series().isEmpty())
            return mapped;
        QAbstractSeries* series = m_chart->series().constFirst();
        for (const PointLayer& layer : layers) {
            QList<QPointF> centres;
            centres.reserve(layer.points.size());
            for (const QPointF& p : layer.points)
                centres.append(m_chart->mapToPosition(p, series));
            mapped.append(std::move(centres));
        }
        return mapped;
    }
    static bool sameMarkers(const QVector<PointLayer>& a, const QVector<PointLayer>& b) {
        if (a.size() != b.size())
            return false;
        for (qsizetype k = 0; k < a.size(); ++k)
            if (a[k].size != b[k].size || a[k].marker.cacheKey() != b[k].marker.cacheKey())
                return false;
        return true;
    }
    // The rectangle covering markers of size centred on centres, with a pixel for antialiasing.
    static QRectF extent(const QList<QPointF>& centres, double size) {
        QRectF r;
        const double half = size / 2.0 + 1.0;
        for (const QPointF& c : centres)
            r |= QRectF(c.x() - half, c.y() - half, 2.0 * half, 2.0 * half);
        return r;
    }

    QVector<PointLayer> m_layers;
    QVector<QList<QPointF>> m_painted; // each layer's centres at the last paint
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
