#include "ui/charts/grid_item.h"

#include "ui/charts/chart_theme.h"
#include "ui/charts/plot_area_item.h"

#include <QChart>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>

#include <cmath>
#include <tuple>

namespace elab::ui::charts {

namespace {

// Qt Charts stacks its items by z: plot area 0, shades 1, grid 2, axes 3, series 4.
constexpr double kGridZ = 2.0;

enum GridItemType { GridType = QGraphicsItem::UserType + 713 };

/// Ticks of a value axis, as Qt Charts places them.
void valueTicks(const QValueAxis* axis, QList<double>& out) {
    const double min = axis->min(), max = axis->max();
    if (!(max > min))
        return;
    if (axis->tickType() == QValueAxis::TicksDynamic) {
        const double interval = axis->tickInterval();
        if (!(interval > 0.0) || (max - min) / interval > 1000.0)
            return;
        const double slack = 1e-9 * interval;
        double value = axis->tickAnchor() + std::ceil((min - axis->tickAnchor()) / interval - 1e-9) * interval;
        for (; value <= max + slack; value += interval)
            if (value >= min - slack)
                out << value;
        return;
    }
    const int count = axis->tickCount();
    for (int i = 0; i < count && count > 1; ++i)
        out << min + (max - min) * i / (count - 1);
}

/// Ticks of a log axis: the powers of its base in range, and its minor ticks between them.
void logTicks(const QLogValueAxis* axis, QList<double>& major, QList<double>& minor) {
    const double min = axis->min(), max = axis->max(), base = axis->base();
    if (!(min > 0.0) || !(max > min) || !(base > 1.0))
        return;
    const double logBase = std::log(base);
    const int first = static_cast<int>(std::floor(std::log(min) / logBase));
    const int last = static_cast<int>(std::ceil(std::log(max) / logBase));
    if (last - first > 100)
        return;
    int minorCount = axis->minorTickCount();
    if (minorCount < 0)
        minorCount = std::max(static_cast<int>(std::floor(base)) - 2, 0);
    for (int k = first; k <= last; ++k) {
        const double power = std::pow(base, k);
        if (power >= min && power <= max)
            major << power;
        const double step = (std::pow(base, k + 1) - power) / (minorCount + 1);
        for (int j = 1; j <= minorCount; ++j)
            if (const double value = power + j * step; value >= min && value <= max)
                minor << value;
    }
}

/// A value axis (not a category axis, which derives from QValueAxis) or a log axis: the axes
/// with a grid.
bool hasGrid(const QAbstractAxis* axis) {
    return axis && (axis->type() == QAbstractAxis::AxisTypeValue || axis->type() == QAbstractAxis::AxisTypeLogValue);
}

void ticksOf(const QAbstractAxis* axis, QList<double>& major, QList<double>& minor, double& min, double& max) {
    if (!hasGrid(axis))
        return;
    if (const auto* value = qobject_cast<const QValueAxis*>(axis)) {
        valueTicks(value, major);
        min = value->min();
        max = value->max();
    } else if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) {
        logTicks(log, major, minor);
        min = log->min();
        max = log->max();
    }
}

/// Where value lies along [min, max] of the axis, from 0 to 1 (log axes: in log scale).
double fraction(const QAbstractAxis* axis, double value) {
    if (const auto* log = qobject_cast<const QLogValueAxis*>(axis))
        return std::log(value / log->min()) / std::log(log->max() / log->min());
    const auto* linear = static_cast<const QValueAxis*>(axis);
    return (value - linear->min()) / (linear->max() - linear->min());
}

class GridItem : public PlotAreaItem {
public:
    explicit GridItem(QChart* chart) : PlotAreaItem(chart) { setZValue(kGridZ); }
    int type() const override { return GridType; }
    void setLines(const GridLines& lines) {
        if (lines == m_lines && m_plot == m_chart->plotArea())
            return;
        m_lines = lines;
        sync();
    }
    QRectF boundingRect() const override { return m_plot.adjusted(-1.0, -1.0, 1.0, 1.0); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        const QAbstractAxis* x = axisOf(Qt::Horizontal);
        const QAbstractAxis* y = axisOf(Qt::Vertical);
        if (m_plot.isEmpty())
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false); // pixel lines, as fine as Qt Charts' own
        QVector<QLineF> lines;
        auto vertical = [&](const QList<double>& values) {
            lines.clear();
            for (double v : values)
                if (const double t = fraction(x, v); t >= 0.0 && t <= 1.0) {
                    const double px = m_plot.left() + t * m_plot.width();
                    lines << QLineF(px, m_plot.top(), px, m_plot.bottom());
                }
        };
        auto horizontal = [&](const QList<double>& values) {
            lines.clear();
            for (double v : values)
                if (const double t = fraction(y, v); t >= 0.0 && t <= 1.0) {
                    const double py = m_plot.bottom() - t * m_plot.height();
                    lines << QLineF(m_plot.left(), py, m_plot.right(), py);
                }
        };
        const QPen minorPen(themeGridColor(true), 0.0), majorPen(themeGridColor(false), 0.0);
        for (const auto& [pen, values, isX] :
             {std::tuple{minorPen, &m_lines.minorX, true}, std::tuple{minorPen, &m_lines.minorY, false},
              std::tuple{majorPen, &m_lines.x, true}, std::tuple{majorPen, &m_lines.y, false}}) {
            if ((isX && !x) || (!isX && !y))
                continue;
            isX ? vertical(*values) : horizontal(*values);
            painter->setPen(pen);
            painter->drawLines(lines);
        }
        painter->restore();
    }

private:
    const QAbstractAxis* axisOf(Qt::Orientation orientation) const {
        const auto axes = m_chart->axes(orientation);
        if (axes.isEmpty())
            return nullptr;
        const QAbstractAxis* axis = axes.first();
        return hasGrid(axis) ? axis : nullptr;
    }

    GridLines m_lines;
};

} // namespace

GridLines gridLinesOf(QChart* chart) {
    GridLines lines;
    if (const auto axes = chart->axes(Qt::Horizontal); !axes.isEmpty())
        ticksOf(axes.first(), lines.x, lines.minorX, lines.xMin, lines.xMax);
    if (const auto axes = chart->axes(Qt::Vertical); !axes.isEmpty())
        ticksOf(axes.first(), lines.y, lines.minorY, lines.yMin, lines.yMax);
    return lines;
}

void setChartGrid(QChart* chart) {
    for (QAbstractAxis* axis : chart->axes()) {
        if (axis->isGridLineVisible())
            axis->setGridLineVisible(false);
        if (axis->isMinorGridLineVisible())
            axis->setMinorGridLineVisible(false);
    }
    auto* grid = itemOf<GridItem>(chart, GridType);
    if (!grid)
        grid = new GridItem(chart);
    grid->setLines(gridLinesOf(chart));
}

} // namespace elab::ui::charts
