#include "ui/charts/chart_view.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/points_item.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace elab::ui::charts {

namespace {

// Position p within [lo, hi] of the plot area mapped onto [min, max], log10 on log axes.
double mapAxis(double p, double lo, double hi, double min, double max, bool log, bool flip) {
    double t = (p - lo) / (hi - lo);
    if (flip)
        t = 1.0 - t;
    if (log)
        return std::pow(10.0, std::log10(min) + t * (std::log10(max) - std::log10(min)));
    return min + t * (max - min);
}

} // namespace

ChartView::ChartView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart;
    m_view = new QChartView(m_chart, this);
    applyChartViewStyle(m_view);
    m_view->viewport()->installEventFilter(this);
    m_view->viewport()->setMouseTracking(true); // hovered()
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_items = buildChart(m_chart, m_data, font(), MarkerPainting::Light);
    describeForAccessibility();
}

ChartView::~ChartView() = default;

void ChartView::setData(const ChartData& data) {
    if (sameStructure(m_data, data)) {
        updateChart(m_chart, m_items, m_data, data, MarkerPainting::Light);
    } else {
        m_items = buildChart(m_chart, data, font(), MarkerPainting::Light);
        ++m_rebuilds;
    }
    m_data = data;
    describeForAccessibility();
}

void ChartView::describeForAccessibility() {
    // Screen readers read the chart's title as its name and its axes and series as its
    // description; set only on a change (a slider drag redraws without changing them).
    const QString name = m_data.title.isEmpty() ? tr("Chart") : m_data.title;
    QStringList series;
    for (const SeriesData& s : m_data.series)
        if (!s.name.isEmpty())
            series << s.name;
    QString description = tr("%1 against %2").arg(m_data.yTitle, m_data.xTitle);
    if (!series.isEmpty())
        description += QStringLiteral("; ") + series.join(QStringLiteral(", "));
    if (m_data.xTitle.isEmpty() && m_data.yTitle.isEmpty())
        description = series.isEmpty() ? name : series.join(QStringLiteral(", "));
    if (m_view->accessibleName() != name)
        m_view->setAccessibleName(name);
    if (m_view->accessibleDescription() != description)
        m_view->setAccessibleDescription(description);
}

void ChartView::restyle() {
    m_items = buildChart(m_chart, m_data, font(), MarkerPainting::Light);
    ++m_rebuilds;
}

std::optional<QPointF> ChartView::valueAt(const QPoint& viewportPos) const {
    const QPointF pos = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    const QRectF plot = m_chart->plotArea();
    if (!plot.contains(pos) || plot.width() <= 0.0 || plot.height() <= 0.0)
        return std::nullopt;
    const AxisRange x = xRange(m_data);
    const AxisRange y = yRange(m_data);
    return QPointF(mapAxis(pos.x(), plot.left(), plot.right(), x.min, x.max, m_data.logX, false),
                   mapAxis(pos.y(), plot.top(), plot.bottom(), y.min, y.max, m_data.logY, true));
}

QWidget* ChartView::viewport() const { return m_view->viewport(); }

int ChartView::qtSeriesCount() const { return static_cast<int>(m_chart->series().size()); }

qsizetype ChartView::indexOf(const QString& key) const {
    for (qsizetype i = 0; i < m_data.series.size() && i < m_items.size(); ++i)
        if (m_data.series[i].key == key)
            return i;
    return -1;
}

QObject* ChartView::qtSeries(const QString& key) const {
    const qsizetype i = indexOf(key);
    return i < 0 ? nullptr : m_items[i].series;
}

QList<QPointF> ChartView::shownPoints(const QString& key, bool upper) const {
    const qsizetype i = indexOf(key);
    if (i < 0)
        return {};
    if (upper)
        return m_items[i].upper ? m_items[i].upper->points() : QList<QPointF>();
    if (m_items[i].layer >= 0)
        return chartPoints(m_chart, m_items[i].layer);
    return m_items[i].points->points();
}

bool ChartView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport()) {
        if (event->type() == QEvent::MouseButtonPress) {
            const auto* mouse = static_cast<QMouseEvent*>(event);
            if (mouse->button() == Qt::LeftButton)
                m_pressPos = mouse->position().toPoint();
        } else if (event->type() == QEvent::MouseButtonRelease) {
            const auto* mouse = static_cast<QMouseEvent*>(event);
            const QPoint pos = mouse->position().toPoint();
            // A drag is not a click.
            const bool click = mouse->button() == Qt::LeftButton && m_pressPos &&
                               (pos - *m_pressPos).manhattanLength() <= QApplication::startDragDistance();
            m_pressPos.reset();
            if (click) {
                if (const auto value = valueAt(pos))
                    emit clicked(*value);
            }
        } else if (event->type() == QEvent::MouseMove) {
            if (const auto value = valueAt(static_cast<QMouseEvent*>(event)->position().toPoint()))
                emit hovered(*value);
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace elab::ui::charts
