// The generic chart layer, without a widget: palette, which points reach Qt Charts (NaN,
// infinities and x ≤ 0 on a log axis never do), y range fitting, axes, bands, lines that
// span the axes, and the legend showing named series only.

#include "tests/support/test_support.h"
#include "ui/charts/chart_builder.h"
#include "ui/charts/chart_geometry.h"
#include "ui/charts/grid_item.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QTest>
#include <QValueAxis>

#include <limits>

using namespace elab::ui::charts;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

SeriesData series(SeriesKind kind, const QString& key, QVector<QPointF> points = {}, const QString& name = QString()) {
    SeriesData s;
    s.kind = kind;
    s.key = key;
    s.name = name;
    s.points = std::move(points);
    return s;
}

ChartData lineChart(QVector<QPointF> points, bool logX = true) {
    ChartData d;
    d.logX = logX;
    d.series = {series(SeriesKind::Line, QStringLiteral("line"), std::move(points))};
    return d;
}

} // namespace

class TestChartBuilder : public QObject {
    Q_OBJECT
private slots:
    void paletteCyclesAndDims() {
        QCOMPARE(paletteColor(0), QColor(0x00, 0x72, 0xB2));
        QCOMPARE(paletteColor(8), paletteColor(0));
        QVERIFY(paletteColor(0) != paletteColor(1));
        SeriesData s;
        QCOMPARE(seriesColor(s, 2), paletteColor(2));
        s.color = QColor(Qt::red);
        QCOMPARE(seriesColor(s, 2), QColor(Qt::red));
        s.dimmed = true;
        QCOMPARE(seriesColor(s, 2).rgb(), QColor(Qt::red).rgb());
        QVERIFY(seriesColor(s, 2).alpha() < 128);
        QVERIFY(bandFillColor(s, 2).alpha() < seriesColor(s, 2).alpha());
    }

    void unplottablePointsAreSkipped_data() {
        QTest::addColumn<bool>("logX");
        QTest::addColumn<QPointF>("point");
        QTest::addColumn<bool>("kept");
        QTest::newRow("finite, log") << true << QPointF(0.5, 0.7) << true;
        QTest::newRow("NaN y") << true << QPointF(0.5, kNaN) << false;
        QTest::newRow("NaN x") << true << QPointF(kNaN, 0.7) << false;
        QTest::newRow("+inf y") << true << QPointF(0.5, kInf) << false;
        QTest::newRow("-inf x") << false << QPointF(-kInf, 0.7) << false;
        QTest::newRow("x = 0, log") << true << QPointF(0.0, 0.7) << false;
        QTest::newRow("x < 0, log") << true << QPointF(-1.0, 0.7) << false;
        QTest::newRow("x < 0, linear") << false << QPointF(-1.0, 0.7) << true;
    }

    void unplottablePointsAreSkipped() {
        QFETCH(bool, logX);
        QFETCH(QPointF, point);
        QFETCH(bool, kept);
        const QPointF a(1.0, 0.25);
        const QPointF b(2.0, 0.75);
        QChart chart;
        const auto items = buildChart(&chart, lineChart({a, point, b}, logX), QFont());
        QCOMPARE(items.size(), 1);
        const QList<QPointF> expected = kept ? QList<QPointF>{a, point, b} : QList<QPointF>{a, b};
        QCOMPARE(items[0].points->points(), expected);
    }

    void logAxisWithDecadeLabels() {
        QChart chart;
        buildChart(&chart, lineChart({{0.01, 0.5}, {10.0, 0.9}}), QFont());
        const auto horizontal = chart.axes(Qt::Horizontal);
        QCOMPARE(horizontal.size(), 1);
        auto* x = qobject_cast<QLogValueAxis*>(horizontal.first());
        QVERIFY(x);
        QCOMPARE(x->base(), 10.0);
        // Widened by a hair so that Qt Charts keeps the ticks at both ends.
        ELAB_FUZZY(x->min(), 1e-3, 1e-3 * 1e-8);
        ELAB_FUZZY(x->max(), 1e2, 1e2 * 1e-8);
        QVERIFY(x->min() < 1e-3);
        QCOMPARE(x->tickCount(), 6); // 0.001, 0.01, 0.1, 1, 10, 100
        // printf %g: 0.001, 0.01, …, 100 rather than 1e-03 or 0.001000.
        QCOMPARE(x->labelFormat(), QStringLiteral("%g"));
        QCOMPARE(QString::asprintf("%g", 1e-3), QStringLiteral("0.001"));
        QVERIFY(qobject_cast<QValueAxis*>(chart.axes(Qt::Vertical).value(0)));
        QCOMPARE(chart.animationOptions(), QChart::NoAnimation);
    }

    // The grid is one item of ours at the axes' ticks (Qt Charts' own grid lines are hidden): every
    // power of ten and 2…9 × 10^k on a log axis, the dynamic ticks of a value axis; drawn where Qt
    // Charts maps those values.
    void gridLinesAtTheAxesTicks() {
        auto* chart = new QChart; // owned by the scene
        QGraphicsScene scene;
        scene.addItem(chart);
        ChartData d = lineChart({{0.01, 0.5}, {10.0, 0.9}});
        d.xMin = 1e-3;
        d.xMax = 1e2;
        d.yMin = 0.0;
        d.yMax = 1.0;
        const auto items = buildChart(chart, d, QFont());
        for (QAbstractAxis* axis : chart->axes())
            QVERIFY(!axis->isGridLineVisible() && !axis->isMinorGridLineVisible());
        const GridLines g = gridLinesOf(chart);
        QCOMPARE(g.x.size(), 6); // 0.001 … 100
        for (qsizetype i = 0; i < g.x.size(); ++i)
            ELAB_FUZZY(g.x[i], std::pow(10.0, -3.0 + static_cast<double>(i)), 1e-12);
        QCOMPARE(g.minorX.size(), 5 * 8); // 2 … 9 in each of five decades
        ELAB_FUZZY(g.minorX.front(), 0.002, 1e-15);
        ELAB_FUZZY(g.minorX.back(), 90.0, 1e-12);
        auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y && y->tickType() == QValueAxis::TicksDynamic);
        QVERIFY(g.minorY.isEmpty());
        QVERIFY(g.y.size() >= 3);
        for (double v : g.y) { // on the axis' ticks, within its range
            const double k = (v - y->tickAnchor()) / y->tickInterval();
            QVERIFY(std::abs(k - std::round(k)) < 1e-9);
            QVERIFY(v >= y->min() - 1e-12 && v <= y->max() + 1e-12);
        }
        ELAB_FUZZY(g.y.back() - g.y.front(), y->tickInterval() * static_cast<double>(g.y.size() - 1), 1e-12);

        // A range that starts and ends inside decades: the minor lines of the partial decades too.
        ChartData partial = d;
        partial.xMin = 0.3;
        partial.xMax = 300.0;
        updateChart(chart, items, d, partial);
        const GridLines p = gridLinesOf(chart);
        QCOMPARE(p.x.size(), 3);                  // 1, 10, 100
        QCOMPARE(p.minorX.size(), 7 + 8 + 8 + 2); // 0.3 … 0.9, 2 … 9, 20 … 90, 200 and 300

        // Painted where Qt Charts maps the values: a minor line at x = 0.5 (no series there, near
        // the top of the plot), in the minor grid's grey on the white plot.
        chart->resize(640, 420);
        QCoreApplication::sendPostedEvents();
        chart->layout()->activate();
        QImage image(640, 420, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            scene.render(&painter, QRectF(0, 0, 640, 420), QRectF(0, 0, 640, 420));
        }
        const QPointF at = chart->mapToPosition(QPointF(0.5, 0.95 * p.yMax), chart->series().first());
        QVERIFY(chart->plotArea().contains(at));
        const int row = static_cast<int>(at.y());
        int greyColumns = 0;
        for (int col = static_cast<int>(at.x()) - 1; col <= static_cast<int>(at.x()) + 1; ++col)
            greyColumns += qRed(image.pixel(col, row)) == 0xef && qGreen(image.pixel(col, row)) == 0xef;
        QCOMPARE(greyColumns, 1); // one pixel wide, not antialiased
        QCOMPARE(image.pixel(static_cast<int>(at.x()) + 4, row), qRgb(255, 255, 255));

        // A category axis (rows of labels, derived from QValueAxis) keeps no grid.
        QChart rows;
        ChartData c = lineChart({{1.0, 0.0}, {2.0, 1.0}}, false);
        c.yCategories = {QStringLiteral("a"), QStringLiteral("b")};
        buildChart(&rows, c, QFont());
        QVERIFY(gridLinesOf(&rows).y.isEmpty());
        QVERIFY(!gridLinesOf(&rows).x.isEmpty());
    }

    void logYAxisDropsNonPositiveValuesAndFitsDecades() {
        ChartData d = lineChart({{0.01, 0.5}, {0.1, 0.0}, {1.0, -2.0}, {10.0, 50.0}});
        d.logY = true;
        SeriesData level;
        level.kind = SeriesKind::HorizontalLine;
        level.key = QStringLiteral("level");
        level.value = -1.0; // not drawable on a log axis
        d.series.append(level);
        QChart chart;
        const auto items = buildChart(&chart, d, QFont());
        QCOMPARE(items[0].points->points(), (QList<QPointF>{{0.01, 0.5}, {10.0, 50.0}}));
        QVERIFY(items[1].points->points().isEmpty());
        auto* y = qobject_cast<QLogValueAxis*>(chart.axes(Qt::Vertical).value(0));
        QVERIFY(y);
        // 0.5 … 50 is two decades; a 5 % margin of that in log10 on each side.
        const AxisRange r = elab::ui::charts::yRange(d);
        ELAB_FUZZY(std::log10(r.min), std::log10(0.5) - 0.1, 1e-12);
        ELAB_FUZZY(std::log10(r.max), std::log10(50.0) + 0.1, 1e-12);
        ChartData linear = d;
        linear.logY = false;
        QVERIFY(!sameStructure(d, linear)); // switching the axis rebuilds the chart
    }

    void linearAxisWhenNotLog() {
        QChart chart;
        auto data = lineChart({{1.0, 0.5}, {3.0, 0.9}}, false);
        data.xMin = 0.0;
        data.xMax = 4.0;
        buildChart(&chart, data, QFont());
        auto* x = qobject_cast<QValueAxis*>(chart.axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->min(), 0.0);
        QCOMPARE(x->max(), 4.0);
    }

    void bandHasLowerAndUpperEdges() {
        ChartData d;
        SeriesData band =
            series(SeriesKind::Band, QStringLiteral("sd"), {{0.1, 0.5}, {1.0, 0.6}, {10.0, kNaN}, {20.0, 0.8}});
        band.upper = {{0.1, 0.7}, {1.0, kInf}, {10.0, 0.9}, {20.0, 0.95}};
        d.series = {band};
        QChart chart;
        const auto items = buildChart(&chart, d, QFont());
        auto* area = qobject_cast<QAreaSeries*>(items[0].series);
        QVERIFY(area);
        QCOMPARE(area->lowerSeries(), items[0].points);
        QCOMPARE(area->upperSeries(), items[0].upper);
        // Only the pairs where both edges are finite.
        QCOMPARE(area->lowerSeries()->points(), (QList<QPointF>{{0.1, 0.5}, {20.0, 0.8}}));
        QCOMPARE(area->upperSeries()->points(), (QList<QPointF>{{0.1, 0.7}, {20.0, 0.95}}));
        QCOMPARE(area->brush().color().rgb(), paletteColor(0).rgb());
        QVERIFY(area->brush().color().alpha() < 80); // light: the curves stay readable
    }

    void kindsMapToQtSeries() {
        ChartData d;
        d.series = {series(SeriesKind::Line, QStringLiteral("l"), {{1, 1}, {2, 2}}),
                    series(SeriesKind::Points, QStringLiteral("p"), {{1, 1}}),
                    series(SeriesKind::HorizontalLine, QStringLiteral("h")),
                    series(SeriesKind::VerticalLine, QStringLiteral("v"))};
        d.series[2].value = 0.5;
        d.series[3].value = 0.3;
        d.yMin = 0.0;
        d.yMax = 2.0;
        QChart chart;
        const auto items = buildChart(&chart, d, QFont());
        QCOMPARE(chart.series().size(), 4);
        QCOMPARE(items[0].series->type(), QAbstractSeries::SeriesTypeLine);
        QCOMPARE(items[1].series->type(), QAbstractSeries::SeriesTypeScatter);
        // Horizontal and vertical lines span the whole axis ranges.
        QCOMPARE(items[2].points->points(), (QList<QPointF>{{1e-3, 0.5}, {1e2, 0.5}}));
        QCOMPARE(items[3].points->points(), (QList<QPointF>{{0.3, 0.0}, {0.3, 2.0}}));
        // Styled: own pen width and style, palette colour by index.
        QCOMPARE(items[0].points->pen().color(), paletteColor(0));
        QCOMPARE(items[0].points->pen().widthF(), 2.0);
    }

    void verticalLineAtZeroOnLogAxisIsEmpty() {
        ChartData d;
        d.series = {series(SeriesKind::VerticalLine, QStringLiteral("v"))};
        d.series[0].value = 0.0;
        QChart chart;
        QVERIFY(buildChart(&chart, d, QFont())[0].points->points().isEmpty());
    }

    void legendShowsNamedSeriesOnly() {
        ChartData d;
        d.series = {series(SeriesKind::Line, QStringLiteral("a"), {{1, 1}}, QStringLiteral("named")),
                    series(SeriesKind::Line, QStringLiteral("b"), {{1, 1}})};
        QGraphicsScene scene; // legend items only count as visible once laid out in a scene
        auto* chart = new QChart;
        scene.addItem(chart);
        const auto items = buildChart(chart, d, QFont());
        chart->resize(600, 400);
        chart->layout()->activate();
        QVERIFY(chart->legend()->isVisible());
        QCOMPARE(chart->legend()->markers(items[0].series).value(0)->isVisible(), true);
        QCOMPARE(chart->legend()->markers(items[1].series).value(0)->isVisible(), false);

        d.series[0].name.clear();
        buildChart(chart, d, QFont());
        QVERIFY(!chart->legend()->isVisible());
    }

    void yRange_data() {
        QTest::addColumn<ChartData>("data");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("fitted, 5% margin") << lineChart({{0.1, 0.5}, {1, 0.9}}) << 0.48 << 0.92;
        QTest::newRow("NaN and inf ignored")
            << lineChart({{0.1, 0.5}, {0.2, kNaN}, {0.3, kInf}, {1, 0.9}}) << 0.48 << 0.92;
        QTest::newRow("outside x range ignored")
            << lineChart({{0.1, 0.5}, {1, 0.9}, {1e4, 50.0}, {-1, -50.0}}) << 0.48 << 0.92;
        QTest::newRow("constant") << lineChart({{0.1, 0.8}, {1, 0.8}}) << 0.72 << 0.88;
        QTest::newRow("constant zero") << lineChart({{0.1, 0.0}, {1, 0.0}}) << -1.0 << 1.0;
        QTest::newRow("no data") << lineChart({}) << 0.0 << 1.0;
        auto fixed = lineChart({{0.1, 0.5}, {1, 0.9}});
        fixed.yMin = 0.0;
        fixed.yMax = 1.0;
        QTest::newRow("given") << fixed << 0.0 << 1.0;
        auto low = lineChart({{0.1, 0.5}, {1, 0.9}});
        low.yMin = 0.0;
        QTest::newRow("min given") << low << 0.0 << 0.92;
        auto equal = lineChart({});
        equal.yMin = equal.yMax = 2.0;
        QTest::newRow("given, equal") << equal << 1.8 << 2.2;
        auto withLine = lineChart({{0.1, 0.5}, {1, 0.9}});
        withLine.series.append(series(SeriesKind::HorizontalLine, QStringLiteral("h")));
        withLine.series.last().value = 0.1;
        withLine.series.append(series(SeriesKind::VerticalLine, QStringLiteral("v")));
        withLine.series.last().value = 0.5;
        QTest::newRow("horizontal line counts") << withLine << 0.06 << 0.94;
    }

    void yRange() {
        QFETCH(ChartData, data);
        QFETCH(double, min);
        QFETCH(double, max);
        const AxisRange r = elab::ui::charts::yRange(data);
        ELAB_FUZZY(r.min, min, 1e-12);
        ELAB_FUZZY(r.max, max, 1e-12);
        QChart chart;
        buildChart(&chart, data, QFont());
        auto* y = qobject_cast<QValueAxis*>(chart.axes(Qt::Vertical).value(0));
        QVERIFY(y);
        ELAB_FUZZY(y->min(), min, 1e-12);
        ELAB_FUZZY(y->max(), max, 1e-12);
        QCOMPARE(y->tickType(), QValueAxis::TicksDynamic);
    }

    void niceTicks_data() {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("interval");
        QTest::addColumn<int>("decimals");
        QTest::newRow("0.48..0.92") << 0.48 << 0.92 << 0.1 << 1;
        QTest::newRow("0..1") << 0.0 << 1.0 << 0.2 << 1;
        QTest::newRow("0..100") << 0.0 << 100.0 << 20.0 << 0;
        QTest::newRow("0.72..0.88") << 0.72 << 0.88 << 0.05 << 2;
        QTest::newRow("-1..1") << -1.0 << 1.0 << 0.5 << 1;
    }

    void niceTicks() {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(double, interval);
        QFETCH(int, decimals);
        const ValueTicks t = elab::ui::charts::niceTicks({min, max});
        ELAB_FUZZY(t.interval, interval, 1e-12);
        QCOMPARE(t.decimals, decimals);
    }

    void xRangeRepairsBadInput() {
        ChartData d;
        d.xMin = -1.0; // not on a log axis
        d.xMax = 10.0;
        QCOMPARE(xRange(d).min, 1e-3);
        d.xMin = 100.0; // reversed
        QCOMPARE(xRange(d).min, 10.0);
        QCOMPARE(xRange(d).max, 100.0);
    }

    void structureComparison() {
        ChartData a = lineChart({{1, 1}});
        ChartData b = lineChart({{2, 2}, {3, 3}});
        b.series[0].name = QStringLiteral("renamed");
        QVERIFY(sameStructure(a, b));
        b.series[0].kind = SeriesKind::Points;
        QVERIFY(!sameStructure(a, b));
        b = a;
        b.logX = false;
        QVERIFY(!sameStructure(a, b));
        b = a;
        b.series[0].key = QStringLiteral("other");
        QVERIFY(!sameStructure(a, b));
    }
};

QTEST_MAIN(TestChartBuilder)
#include "test_chart_builder.moc"
