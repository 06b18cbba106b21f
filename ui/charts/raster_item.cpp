#include "ui/charts/raster_item.h"

#include "ui/charts/plot_area_item.h"

#include <QAbstractSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace elab::ui::charts {

namespace {

// Qt Charts stacks its items by z: plot area 0, shades 1, grid 2, axes 3, series 4. The raster
// lies on the grid (hiding it where opaque) and under the axes' lines and every series.
constexpr double kRasterZ = 2.5;
constexpr double kColorBarZ = 3.0;
constexpr double kBarGap = 14.0; // plot area → bar
constexpr double kBarWidth = 14.0;
constexpr double kLabelGap = 4.0; // bar → tick labels → title
const QColor kTickText(0x20, 0x20, 0x20);
const QColor kBarBorder(0x80, 0x80, 0x80);

enum RasterItemType { RasterType = QGraphicsItem::UserType + 711, ColorBarType };

QString tickTickText(double v) { return QString::number(v, 'g', 2); }

class RasterItem : public PlotAreaItem {
public:
    explicit RasterItem(QChart* chart) : PlotAreaItem(chart) { setZValue(kRasterZ); }
    int type() const override { return RasterType; }
    void setRaster(const RasterData& raster) {
        m_raster = raster;
        setVisible(!raster.image.isNull());
        sync();
    }
    QRectF boundingRect() const override { return m_plot; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        if (m_raster.image.isNull() || m_chart->series().isEmpty())
            return;
        // Mapped now, with the axes as they are at this paint (ranges may have moved since sync).
        const QRectF target = rasterRectOn(m_chart, m_raster);
        painter->save();
        painter->setClipRect(m_plot);
        painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
        painter->drawImage(target, m_raster.image);
        painter->restore();
    }

private:
    RasterData m_raster;
};

class ColorBarItem : public PlotAreaItem {
public:
    explicit ColorBarItem(QChart* chart) : PlotAreaItem(chart) { setZValue(kColorBarZ); }
    int type() const override { return ColorBarType; }
    void setScale(const ColorScale& scale) {
        // Every regions picture sets its scale again; an unchanged bar is not repainted.
        if (m_plot == m_chart->plotArea() && isVisible() == !scale.colors.isEmpty() && scale.title == m_scale.title &&
            scale.colors == m_scale.colors && scale.min == m_scale.min && scale.max == m_scale.max)
            return;
        m_scale = scale;
        setVisible(!scale.colors.isEmpty());
        sync();
    }
    QRectF boundingRect() const override {
        const QMargins room = overlayMarginsFor(m_scale, m_chart->legend()->font());
        return QRectF(left(), m_plot.top() - 20.0, room.right(), m_plot.height() + 40.0);
    }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        if (m_scale.colors.isEmpty() || m_plot.height() <= 0.0)
            return;
        const QFont font = m_chart->legend()->font();
        const QFontMetricsF metrics(font);
        const QRectF bar(left() + kBarGap, m_plot.top(), kBarWidth, m_plot.height());
        QLinearGradient gradient(bar.bottomLeft(), bar.topLeft()); // min at the bottom
        const auto n = m_scale.colors.size();
        for (qsizetype i = 0; i < n; ++i)
            gradient.setColorAt(n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1), m_scale.colors[i]);
        painter->save();
        painter->setPen(QPen(kBarBorder, 1.0));
        painter->setBrush(gradient);
        painter->drawRect(bar);
        painter->setFont(font);
        painter->setPen(kTickText);
        double labelWidth = 0.0;
        for (int k = 0; k <= 2; ++k) {
            const double v = m_scale.min + 0.5 * k * (m_scale.max - m_scale.min);
            const double y = bar.bottom() - 0.5 * k * bar.height();
            const QString text = tickTickText(v);
            labelWidth = std::max(labelWidth, metrics.horizontalAdvance(text));
            painter->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3.0, y));
            painter->drawText(QPointF(bar.right() + kLabelGap + 1.0, y + 0.35 * metrics.ascent()), text);
        }
        // The title reads bottom to top beside the labels, centred on the bar.
        const double titleX = bar.right() + 2.0 * kLabelGap + labelWidth + metrics.ascent();
        painter->translate(titleX, bar.center().y());
        painter->rotate(-90.0);
        const double width = metrics.horizontalAdvance(m_scale.title);
        painter->drawText(QPointF(-0.5 * std::min(width, bar.height()), 0.0),
                          metrics.elidedText(m_scale.title, Qt::ElideRight, bar.height()));
        painter->restore();
    }

    static QMargins overlayMarginsFor(const ColorScale& scale, const QFont& font) {
        if (scale.colors.isEmpty())
            return {};
        const QFontMetricsF metrics(font);
        double labels = 0.0;
        for (int k = 0; k <= 2; ++k)
            labels = std::max(labels,
                              metrics.horizontalAdvance(tickTickText(scale.min + 0.5 * k * (scale.max - scale.min))));
        const double width = kBarGap + kBarWidth + 2.0 * kLabelGap + labels + metrics.height() + kLabelGap;
        return QMargins(0, 0, static_cast<int>(std::ceil(width)), 0);
    }

private:
    /// The bar's room is the inner part of the chart's right margin (overlayMargins), right of
    /// the plot area and of a legend placed there.
    double left() const { return m_chart->size().width() - m_chart->margins().right(); }

    ColorScale m_scale;
};

} // namespace

QRectF rasterRectOn(QChart* chart, const RasterData& raster) {
    if (chart->series().isEmpty())
        return {};
    QAbstractSeries* series = chart->series().constFirst(); // every series shares the two axes
    const QPointF topLeft = chart->mapToPosition(QPointF(raster.x0, raster.y1), series);
    const QPointF bottomRight = chart->mapToPosition(QPointF(raster.x1, raster.y0), series);
    return QRectF(topLeft, bottomRight).normalized();
}

QMargins overlayMargins(const ChartData& data, const QFont& font) {
    return ColorBarItem::overlayMarginsFor(data.colorScale, font);
}

void setChartOverlays(QChart* chart, const ChartData& data) {
    auto* raster = itemOf<RasterItem>(chart, RasterType);
    if (!raster && !data.raster.image.isNull())
        raster = new RasterItem(chart);
    if (raster)
        raster->setRaster(data.raster);
    auto* bar = itemOf<ColorBarItem>(chart, ColorBarType);
    if (!bar && !data.colorScale.colors.isEmpty())
        bar = new ColorBarItem(chart);
    if (bar)
        bar->setScale(data.colorScale);
}

} // namespace elab::ui::charts
