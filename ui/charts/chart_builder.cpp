#include "ui/charts/chart_builder.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/grid_item.h"
#include "ui/charts/points_item.h"
#include "ui/charts/raster_item.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace elab::ui::charts {

namespace {

// A marker of two pixels is invisible; SeriesData::width defaults to a pen width.
constexpr double kMinMarkerSize = 5.0;
constexpr double kRingWidth = 1.6;
constexpr double kLogSlack = 1e-9;
constexpr double kBandLegendAlpha = 0.45;
constexpr int kMaxBottomLegendEntries = 5;

QString tickFormat(const ValueTicks& ticks, AxisRange range) {
    const double largest = std::max(std::abs(range.min), std::abs(range.max));
    if (ticks.decimals > 6 || largest >= 1e6)
        return QStringLiteral("%.3g");
    return QStringLiteral("%.%1f").arg(ticks.decimals);
}

void styleAxis(QAbstractAxis* axis, const QString& title) {
    axis->setTitleText(chartText(title));
    axis->setTitleBrush(themeTextColor());
    axis->setLabelsBrush(themeTextColor());
    axis->setLinePenColor(themeAxisColor());
}

void setValueAxis(QValueAxis* axis, AxisRange range) {
    const ValueTicks ticks = niceTicks(range);
    // Qt Charts lays out every tick label (a rich-text item each) after each setter. Setting
    // a much wider range under the old, small interval first (e.g. [0.41, 0.45] by 0.01 →
    // [0, 12.4]: 1,240 labels) blocked the GUI thread for ~170 ms during a sweep; so a
    // growing interval is set before the range, a shrinking one after it, and a new axis
    // becomes dynamic only once both are set.
    if (axis->tickType() != QValueAxis::TicksDynamic) {
        axis->setRange(range.min, range.max);
        axis->setTickAnchor(ticks.anchor);
        axis->setTickInterval(ticks.interval);
        axis->setTickType(QValueAxis::TicksDynamic);
    } else if (ticks.interval > axis->tickInterval()) {
        axis->setTickAnchor(ticks.anchor);
        axis->setTickInterval(ticks.interval);
        axis->setRange(range.min, range.max);
    } else {
        axis->setRange(range.min, range.max);
        axis->setTickAnchor(ticks.anchor);
        axis->setTickInterval(ticks.interval);
    }
    // Qt Charts 6.4 re-lays out the axis at every setLabelFormat, even with the format it has.
    if (const QString format = tickFormat(ticks, range); axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

QAbstractAxis* xAxisOf(QChart* chart) {
    const auto axes = chart->axes(Qt::Horizontal);
    return axes.isEmpty() ? nullptr : axes.first();
}

QAbstractAxis* yAxisOf(QChart* chart) {
    const auto axes = chart->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : axes.first();
}

void setRanges(QChart* chart, const ChartData& data, AxisRange x, AxisRange y) {
    // Qt Charts places log ticks from ceil(ln(min)/ln(10)), which for 0.001 is a hair above
    // −3 and loses the first decade's tick and label; widen by an invisible 1e-9.
    if (auto* log = qobject_cast<QLogValueAxis*>(xAxisOf(chart)))
        log->setRange(x.min * (1.0 - kLogSlack), x.max * (1.0 + kLogSlack));
    else if (auto* linear = qobject_cast<QValueAxis*>(xAxisOf(chart)))
        setValueAxis(linear, x);
    if (auto* log = qobject_cast<QLogValueAxis*>(yAxisOf(chart)))
        log->setRange(y.min * (1.0 - kLogSlack), y.max * (1.0 + kLogSlack));
    else if (auto* rows = qobject_cast<QCategoryAxis*>(yAxisOf(chart)))
        rows->setRange(y.min, y.max); // its labels sit on the rows, not on value ticks
    else if (auto* linear = qobject_cast<QValueAxis*>(yAxisOf(chart)))
        setValueAxis(linear, y);
    // Only changes are set: Qt Charts invalidates the chart's layout at every setTitle, and
    // the relayout repaints every axis and grid line (a slider step must repaint only what moved).
    if (QAbstractAxis* axis = xAxisOf(chart); axis && axis->titleText() != chartText(data.xTitle))
        axis->setTitleText(chartText(data.xTitle));
    if (QAbstractAxis* axis = yAxisOf(chart); axis && axis->titleText() != chartText(data.yTitle))
        axis->setTitleText(chartText(data.yTitle));
    if (chart->title() != chartText(data.title))
        chart->setTitle(chartText(data.title));
}

/// One marker as an image: a filled disc with a thin white border, or a ring (hollow), the
/// same look as the vector markers, rendered at twice the size for high-DPI screens.
QImage lightMarker(const QColor& colour, qreal size, bool hollow) {
    constexpr qreal kScale = 2.0;
    const int px = static_cast<int>(std::ceil(size * kScale));
    QImage image(px, px, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(kScale, kScale);
    if (hollow) {
        QPen ring(colour);
        ring.setWidthF(kRingWidth);
        painter.setPen(ring);
        painter.setBrush(Qt::NoBrush);
        const qreal inset = kRingWidth / 2.0;
        painter.drawEllipse(QRectF(inset, inset, size - 2.0 * inset, size - 2.0 * inset));
    } else {
        QColor border(Qt::white);
        border.setAlpha(colour.alpha());
        painter.setPen(QPen(border, 1.0));
        painter.setBrush(colour);
        painter.drawEllipse(QRectF(0.5, 0.5, size - 1.0, size - 1.0));
    }
    return image;
}

/// lightMarker, remembered: the live chart asks for the same few markers at every slider step.
/// GUI thread only (as every chart).
QImage cachedLightMarker(const QColor& colour, qreal size, bool hollow) {
    static std::map<std::tuple<QRgb, qreal, bool>, QImage> cache;
    const auto key = std::make_tuple(colour.rgba(), size, hollow);
    if (const auto it = cache.find(key); it != cache.end())
        return it->second;
    if (cache.size() >= 256) // a bound, never reached by the palette's colours
        cache.clear();
    return cache.emplace(key, lightMarker(colour, size, hollow)).first->second;
}

/// Light markers of Points series are drawn by the chart's points item (points_item.h), not by
/// Qt Charts' per-point items.
bool drawnByPointsItem(const SeriesData& series, MarkerPainting markers) {
    return markers == MarkerPainting::Light && series.kind == SeriesKind::Points;
}

/// The points item's layers: one per series drawnByPointsItem, in series order.
QVector<PointLayer> pointLayers(const ChartData& data, MarkerPainting markers, AxisRange xr, AxisRange yr) {
    QVector<PointLayer> layers;
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        const SeriesData& series = data.series[i];
        if (!drawnByPointsItem(series, markers))
            continue;
        const double size = std::max(series.width, kMinMarkerSize) * chartTheme().markerScale;
        layers.append({drawnPoints(series, data.logX, xr, yr, data.logY),
                       cachedLightMarker(seriesColor(series, static_cast<int>(i)), size, series.hollow), size});
    }
    return layers;
}

// Pen, brush and name of the Qt series for series number `index`.
void applyLook(const SeriesItems& items, const SeriesData& series, int index, MarkerPainting markers) {
    const QColor colour = seriesColor(series, index);
    items.series->setName(chartText(series.name));
    if (auto* area = qobject_cast<QAreaSeries*>(items.series)) {
        area->setPen(Qt::NoPen);
        area->setBrush(bandFillColor(series, index));
    } else if (auto* scatter = qobject_cast<QScatterSeries*>(items.series)) {
        scatter->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        scatter->setMarkerSize(std::max(series.width, kMinMarkerSize) * chartTheme().markerScale);
        const bool light = markers == MarkerPainting::Light;
        scatter->setPointsVisible(
            !light); // Light: no points here (the points item draws them); the look is the legend's
        scatter->setLightMarker(light ? lightMarker(colour, scatter->markerSize(), series.hollow) : QImage());
        if (series.hollow) {
            scatter->setColor(Qt::transparent);
            QPen ring(colour);
            ring.setWidthF(kRingWidth);
            scatter->setPen(ring);
        } else {
            scatter->setColor(colour);
            QColor border(Qt::white);
            border.setAlpha(colour.alpha());
            scatter->setBorderColor(border);
        }
    } else if (auto* line = qobject_cast<QLineSeries*>(items.series)) {
        QPen pen(colour);
        pen.setWidthF(series.width * chartTheme().lineScale);
        pen.setStyle(series.style);
        pen.setCapStyle(Qt::FlatCap);
        pen.setJoinStyle(Qt::RoundJoin);
        line->setPen(pen);
    }
}

void updateLegend(QChart* chart, const QVector<SeriesItems>& items, const ChartData& data) {
    bool any = false;
    int named = 0;
    for (const SeriesData& series : data.series)
        named += !series.name.isEmpty();
    // Qt Charts does not wrap a legend: below the plot it truncates the names once there are
    // more than a few; then the legend goes to the right, one name per line.
    chart->legend()->setAlignment(named > kMaxBottomLegendEntries ? Qt::AlignRight : Qt::AlignBottom);
    for (qsizetype i = 0; i < items.size(); ++i) {
        const SeriesData& series = data.series[i];
        const bool isNamed = !series.name.isEmpty();
        any = any || isNamed;
        for (QLegendMarker* marker : chart->legend()->markers(items[i].series)) {
            marker->setVisible(isNamed);
            if (series.kind == SeriesKind::Band) {
                // Qt 6.4 draws a band's "from series" marker as an empty black square, and
                // sizes it only after the first layout (truncating the label): a filled
                // rectangle of the band's colour, a little stronger than the band.
                const QColor colour = seriesColor(series, static_cast<int>(i));
                QColor fill = colour;
                fill.setAlphaF(static_cast<float>(colour.alphaF() * kBandLegendAlpha));
                marker->setShape(QLegend::MarkerShapeRectangle);
                marker->setBrush(fill);
                marker->setPen(QPen(colour, 1.0));
            }
        }
    }
    chart->legend()->setVisible(any);
}

void removeEverything(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

SeriesItems createSeries(const SeriesData& series) {
    SeriesItems items;
    switch (series.kind) {
    case SeriesKind::Band: {
        auto* lower = new QLineSeries;
        auto* upper = new QLineSeries;
        auto* area = new QAreaSeries(upper, lower);
        lower->setParent(area); // QAreaSeries does not own its edges
        upper->setParent(area);
        items = {area, lower, upper};
        break;
    }
    case SeriesKind::Points: {
        auto* scatter = new QScatterSeries;
        items = {scatter, scatter, nullptr};
        break;
    }
    case SeriesKind::Line:
    case SeriesKind::HorizontalLine:
    case SeriesKind::VerticalLine: {
        auto* line = new QLineSeries;
        items = {line, line, nullptr};
        break;
    }
    }
    return items;
}

} // namespace

QString chartText(const QString& text) { return text.toHtmlEscaped(); }

QVector<SeriesItems> buildChart(QChart* chart, const ChartData& data, const QFont& font, MarkerPainting markers) {
    removeEverything(chart);
    applyChartStyle(chart);
    chart->setMargins(chart->margins() + overlayMargins(data, font));
    chart->setDropShadowEnabled(false);
    chart->setTitleBrush(themeTextColor());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart->legend()->setLabelColor(themeTextColor());

    QAbstractAxis* x = nullptr;
    if (data.logX) {
        auto* log = new QLogValueAxis;
        log->setBase(10.0);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(8); // 2, 3, …, 9 within each decade
        x = log;
    } else {
        x = new QValueAxis;
    }
    QAbstractAxis* y = nullptr;
    if (data.logY) {
        auto* log = new QLogValueAxis;
        log->setBase(10.0);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(8);
        y = log;
    } else if (!data.yCategories.isEmpty()) {
        auto* rows = new QCategoryAxis;
        rows->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (qsizetype k = 0; k < data.yCategories.size(); ++k)
            rows->append(chartText(data.yCategories[k]), static_cast<qreal>(k));
        rows->setGridLineVisible(false);
        y = rows;
    } else {
        y = new QValueAxis;
    }
    styleAxis(x, data.xTitle);
    styleAxis(y, data.yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const AxisRange xr = xRange(data);
    const AxisRange yr = yRange(data);
    setRanges(chart, data, xr, yr);
    setChartGrid(chart);

    QVector<SeriesItems> items;
    items.reserve(data.series.size());
    qsizetype layers = 0;
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        const SeriesData& series = data.series[i];
        SeriesItems created = createSeries(series);
        if (drawnByPointsItem(series, markers))
            created.layer = layers++;
        else
            created.points->replace(drawnPoints(series, data.logX, xr, yr, data.logY));
        if (created.upper)
            created.upper->replace(drawnUpper(series, data.logX, data.logY));
        chart->addSeries(created.series);
        created.series->attachAxis(x);
        created.series->attachAxis(y);
        applyLook(created, series, static_cast<int>(i), markers);
        items.append(created);
    }
    updateLegend(chart, items, data);
    setChartFonts(chart, font);
    setChartOverlays(chart, data);
    setChartPoints(chart, pointLayers(data, markers, xr, yr));
    return items;
}

void updateChart(QChart* chart, const QVector<SeriesItems>& items, const ChartData& shown, const ChartData& data,
                 MarkerPainting markers) {
    const AxisRange xr = xRange(data);
    const AxisRange yr = yRange(data);
    setRanges(chart, data, xr, yr);
    setChartGrid(chart);
    bool lookChanged = false;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const SeriesData& series = data.series[i];
        if (items[i].layer < 0) {
            const QList<QPointF> points = drawnPoints(series, data.logX, xr, yr, data.logY);
            if (items[i].points->points() != points)
                items[i].points->replace(points);
        }
        if (items[i].upper) {
            const QList<QPointF> upper = drawnUpper(series, data.logX, data.logY);
            if (items[i].upper->points() != upper)
                items[i].upper->replace(upper);
        }
        if (!sameLook(shown.series[i], series)) {
            applyLook(items[i], series, static_cast<int>(i), markers);
            lookChanged = true;
        }
    }
    if (lookChanged)
        updateLegend(chart, items, data);
    setChartOverlays(chart, data);
    setChartPoints(chart, pointLayers(data, markers, xr, yr));
}

void setChartFonts(QChart* chart, const QFont& font) {
    QFont title = font;
    title.setBold(true);
    if (font.pixelSize() > 0)
        title.setPixelSize(qRound(font.pixelSize() * 1.2));
    else
        title.setPointSizeF(font.pointSizeF() * 1.2);
    chart->setTitleFont(title);
    chart->legend()->setFont(font);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
}

} // namespace elab::ui::charts
