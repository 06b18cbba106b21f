#pragma once
// The live chart of a ChartData (utility vs ε, stability): redrawn in place while a slider
// moves, and clickable to pick a point in data coordinates. Wraps a QChartView so that
// code outside ui/charts/ needs no Qt Charts header. GUI thread only.

#include "ui/charts/chart_builder.h"
#include "ui/charts/chart_data.h"

#include <QList>
#include <QPoint>
#include <QPointF>
#include <QVector>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace elab::ui::charts {

class ChartView : public QWidget {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);
    ~ChartView() override;

    /// Shows data. When it has the same series keys and kinds in the same order (and the
    /// same axis type) as the shown data, the Qt series are kept and only their points are
    /// replace()d (cheap enough for every slider step); otherwise the chart is rebuilt.
    void setData(const ChartData& data);
    const ChartData& data() const { return m_data; }
    /// Rebuilds the chart from the data shown, with the current chart theme (chart_theme.h) and
    /// the widget's font: after presentation mode is entered or left.
    void restyle();

    /// Data coordinates of a position in viewport() coordinates (x in data units on the log
    /// axis too); nothing outside the plot area.
    std::optional<QPointF> valueAt(const QPoint& viewportPos) const;

    /// The chart, owned by the view and kept for its lifetime (a rebuild empties and refills it).
    QChart* chart() const { return m_chart; }
    /// The widget that receives the mouse (for tests driving clicks).
    QWidget* viewport() const;
    /// Qt series in the chart (a band counts once).
    int qtSeriesCount() const;
    /// The Qt series drawing the series with key, as a QObject so that callers need no Qt
    /// Charts header; nullptr if there is none.
    QObject* qtSeries(const QString& key) const;
    /// The points drawn for the series with key (Band: the lower edge; upper: the band's upper
    /// edge; Points: those of the chart's points item).
    QList<QPointF> shownPoints(const QString& key, bool upper = false) const;
    /// How many times setData() rebuilt the chart rather than updating it in place.
    int rebuildCount() const { return m_rebuilds; }

signals:
    /// Left click inside the plot area, in data coordinates.
    void clicked(QPointF value);
    /// The mouse moved over the plot area (mouse tracking is on), in data coordinates.
    void hovered(QPointF value);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    qsizetype indexOf(const QString& key) const;
    /// The chart's accessible name (its title) and description (its axes and series).
    void describeForAccessibility();

    QChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    QVector<SeriesItems> m_items;
    ChartData m_data;
    std::optional<QPoint> m_pressPos;
    int m_rebuilds = 0;
};

} // namespace elab::ui::charts
