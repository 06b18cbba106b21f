// The live chart: data of the same structure moves the existing Qt series with replace()
// (same objects, no point added or removed one by one), other data rebuilds the chart, and
// a left click inside the plot area reports the data coordinates under the mouse, also on
// the log axis.

#include "tests/support/test_support.h"
#include "ui/charts/chart_view.h"

#include <QChart>
#include <QGraphicsView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPaintEvent>
#include <QPointer>
#include <QRegion>
#include <QScatterSeries>
#include <QScreen>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace elab::ui::charts;

namespace {

SeriesData series(SeriesKind kind, const QString& key, QVector<QPointF> points = {}) {
    SeriesData s;
    s.kind = kind;
    s.key = key;
    s.name = key;
    s.points = std::move(points);
    return s;
}

// Utility-like data: a curve, its band, an estimate and the ε marker at `eps`.
ChartData utility(double eps, double shift = 0.0) {
    ChartData d;
    d.title = QStringLiteral("utility");
    d.yMin = 0.0;
    d.yMax = 1.0;
    QVector<QPointF> curve;
    QVector<QPointF> lower;
    QVector<QPointF> upper;
    for (int k = -3; k <= 2; ++k) {
        const double x = std::pow(10.0, k);
        const double y = 0.5 + 0.06 * (k + 3) + shift;
        curve.append({x, y});
        lower.append({x, y - 0.05});
        upper.append({x, y + 0.05});
    }
    SeriesData band = series(SeriesKind::Band, QStringLiteral("band"), lower);
    band.upper = upper;
    d.series = {band, series(SeriesKind::Line, QStringLiteral("measured"), curve),
                series(SeriesKind::VerticalLine, QStringLiteral("eps"))};
    d.series[2].value = eps;
    return d;
}

QGraphicsView* graphicsView(ChartView& view) { return qobject_cast<QGraphicsView*>(view.viewport()->parentWidget()); }

// Shows view at 640 × 420 with data, and waits until its plot area is laid out.
bool showLaidOut(ChartView& view, const ChartData& data) {
    view.resize(640, 420);
    view.setData(data);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return false;
    QChart* chart = view.chart();
    return QTest::qWaitFor([chart] { return chart->plotArea().width() > 300 && chart->plotArea().height() > 150; });
}

// Where Qt Charts draws value (axes of series), in the coordinates of view's widget `in`.
QPoint pixelOf(ChartView& view, QPointF value, QObject* series, const QWidget* in) {
    const QPointF inChart = view.chart()->mapToPosition(value, qobject_cast<QAbstractSeries*>(series));
    const QPoint pos = graphicsView(view)->mapFromScene(view.chart()->mapToScene(inChart));
    return graphicsView(view)->viewport()->mapTo(in, pos);
}

// Whether shot (of a widget, at its device pixel ratio) is red at the widget's pixel p.
bool isRedAt(const QImage& shot, QPoint p) {
    const double ratio = shot.devicePixelRatio();
    const QRgb c = shot.pixel(qRound(p.x() * ratio), qRound(p.y() * ratio));
    return qRed(c) > 150 && qGreen(c) < 90 && qBlue(c) < 90;
}

} // namespace

class TestChartView : public QObject {
    Q_OBJECT
private slots:
    void sameStructureUpdatesInPlace() {
        ChartView view;
        view.setData(utility(0.1));
        const int builds = view.rebuildCount();
        QCOMPARE(view.qtSeriesCount(), 3);
        QPointer<QObject> band = view.qtSeries(QStringLiteral("band"));
        QPointer<QObject> measured = view.qtSeries(QStringLiteral("measured"));
        QPointer<QObject> eps = view.qtSeries(QStringLiteral("eps"));
        QVERIFY(band && measured && eps);
        auto* epsLine = qobject_cast<QXYSeries*>(eps.data());
        auto* measuredLine = qobject_cast<QXYSeries*>(measured.data());
        QVERIFY(epsLine && measuredLine);
        QSignalSpy epsReplaced(epsLine, &QXYSeries::pointsReplaced);
        QSignalSpy epsAdded(epsLine, &QXYSeries::pointAdded);
        QSignalSpy epsRemoved(epsLine, &QXYSeries::pointRemoved);
        QSignalSpy measuredReplaced(measuredLine, &QXYSeries::pointsReplaced);

        // A slider step: only the ε marker moves.
        view.setData(utility(0.5));
        QCOMPARE(view.rebuildCount(), builds);
        QCOMPARE(view.qtSeries(QStringLiteral("band")), band.data());
        QCOMPARE(view.qtSeries(QStringLiteral("measured")), measured.data());
        QCOMPARE(view.qtSeries(QStringLiteral("eps")), eps.data());
        QCOMPARE(view.qtSeriesCount(), 3);
        QCOMPARE(epsReplaced.count(), 1);
        QCOMPARE(epsAdded.count(), 0);
        QCOMPARE(epsRemoved.count(), 0);
        QCOMPARE(measuredReplaced.count(), 0); // unchanged points are left alone
        QCOMPARE(view.shownPoints(QStringLiteral("eps")), (QList<QPointF>{{0.5, 0.0}, {0.5, 1.0}}));

        // New results: curve and band move, still the same objects.
        view.setData(utility(0.5, 0.1));
        QCOMPARE(view.rebuildCount(), builds);
        QCOMPARE(view.qtSeries(QStringLiteral("measured")), measured.data());
        QCOMPARE(measuredReplaced.count(), 1);
        ELAB_FUZZY(view.shownPoints(QStringLiteral("measured")).first().y(), 0.6, 1e-12);
        ELAB_FUZZY(view.shownPoints(QStringLiteral("band"), true).first().y(), 0.65, 1e-12);
        QCOMPARE(view.data().series[1].points.first().y(), 0.6);

        // Results turned stale: drawn faded, still the same objects.
        ChartData stale = utility(0.5, 0.1);
        stale.series[1].dimmed = true;
        view.setData(stale);
        QCOMPARE(view.rebuildCount(), builds);
        QCOMPARE(view.qtSeries(QStringLiteral("measured")), measured.data());
        QVERIFY(measuredLine->pen().color().alpha() < 128);
    }

    void inPlaceUpdateMovesAxes() {
        ChartView view;
        view.setData(utility(0.1));
        ChartData d = utility(0.1);
        d.xMin = 1e-2;
        d.yMax = 2.0;
        d.title = QStringLiteral("changed");
        view.setData(d);
        auto* x = qobject_cast<QLogValueAxis*>(view.chart()->axes(Qt::Horizontal).value(0));
        auto* y = qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(x && y);
        ELAB_FUZZY(x->min(), 1e-2, 1e-2 * 1e-8);
        QCOMPARE(y->max(), 2.0);
        QCOMPARE(view.chart()->title(), QStringLiteral("changed"));
        // The vertical line follows the new y range.
        QCOMPARE(view.shownPoints(QStringLiteral("eps")).last().y(), 2.0);
    }

    void otherStructureRebuilds_data() {
        QTest::addColumn<ChartData>("next");
        ChartData renamed = utility(0.1);
        renamed.series[1].key = QStringLiteral("other");
        QTest::newRow("key changed") << renamed;
        ChartData kind = utility(0.1);
        kind.series[1].kind = SeriesKind::Points;
        QTest::newRow("kind changed") << kind;
        ChartData added = utility(0.1);
        added.series.append(series(SeriesKind::Line, QStringLiteral("estimate"), {{1, 0.5}}));
        QTest::newRow("series added") << added;
        ChartData swapped = utility(0.1);
        std::swap(swapped.series[1], swapped.series[2]);
        QTest::newRow("order changed") << swapped;
        ChartData linear = utility(0.1);
        linear.logX = false;
        QTest::newRow("axis type changed") << linear;
    }

    void otherStructureRebuilds() {
        QFETCH(ChartData, next);
        ChartView view;
        view.setData(utility(0.1));
        const int builds = view.rebuildCount();
        QPointer<QObject> measured = view.qtSeries(QStringLiteral("measured"));
        view.setData(next);
        QCOMPARE(view.rebuildCount(), builds + 1);
        QVERIFY(measured.isNull()); // the old series are gone
        QCOMPARE(view.qtSeriesCount(), int(next.series.size()));
        QCOMPARE(view.data().series.size(), next.series.size());
    }

    void clickReportsDataCoordinates_data() {
        QTest::addColumn<QPointF>("value");
        QTest::newRow("low eps") << QPointF(0.003, 0.2);
        QTest::newRow("eps 1") << QPointF(1.0, 0.5);
        QTest::newRow("high eps") << QPointF(50.0, 0.9);
    }

    void clickReportsDataCoordinates() {
        QFETCH(QPointF, value);
        ChartView view;
        QVERIFY(showLaidOut(view, utility(0.1)));
        QChart* chart = view.chart();

        // Where Qt Charts itself draws the value, in viewport pixels.
        const QPoint pos = pixelOf(view, value, view.qtSeries(QStringLiteral("measured")), view.viewport());
        QSignalSpy clicked(&view, &ChartView::clicked);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(clicked.count(), 1);
        const auto got = clicked.first().first().toPointF();

        // One pixel, in data units: x in decades on the log axis.
        const QRectF plot = chart->plotArea();
        const double decadesPerPixel = 5.0 / plot.width();
        const double yPerPixel = 1.0 / plot.height();
        ELAB_FUZZY(std::log10(got.x()), std::log10(value.x()), decadesPerPixel);
        ELAB_FUZZY(got.y(), value.y(), yPerPixel);
    }

    void otherClicksAreIgnored() {
        ChartView view;
        QVERIFY(showLaidOut(view, utility(0.1)));
        QChart* chart = view.chart();
        QSignalSpy clicked(&view, &ChartView::clicked);
        const QPoint centre = graphicsView(view)->mapFromScene(chart->mapToScene(chart->plotArea().center()));
        QTest::mouseClick(view.viewport(), Qt::RightButton, {}, centre);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(2, 2)); // outside plot
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, centre);       // a drag
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, centre + QPoint(60, 0));
        QCOMPARE(clicked.count(), 0);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, centre);
        QCOMPARE(clicked.count(), 1);
    }

    // Points are drawn by the chart's points item, not by Qt Charts' per-point items: the
    // scatter series holds none (its legend entry stays), and each marker is painted where the
    // axes put its point, also after an in-place update moves the points.
    void pointsAreDrawnByThePointsItem() {
        ChartData d = utility(0.1);
        SeriesData dots = series(SeriesKind::Points, QStringLiteral("dots"), {{0.01, 0.25}, {10.0, 0.75}});
        dots.color = QColor(200, 0, 0);
        dots.width = 12.0;
        d.series.append(dots);
        ChartView view;
        QVERIFY(showLaidOut(view, d));
        auto* scatter = qobject_cast<QScatterSeries*>(view.qtSeries(QStringLiteral("dots")));
        QVERIFY(scatter);
        QCOMPARE(scatter->count(), 0);
        QCOMPARE(view.shownPoints(QStringLiteral("dots")), (QList<QPointF>{{0.01, 0.25}, {10.0, 0.75}}));

        auto redAt = [&](QPointF value) {
            return isRedAt(view.grab().toImage(), pixelOf(view, value, scatter, &view));
        };
        QVERIFY(redAt({0.01, 0.25}));
        QVERIFY(redAt({10.0, 0.75}));
        QVERIFY(!redAt({0.01, 0.75})); // nothing drawn where no point is

        d.series.last().points = {{0.01, 0.75}};
        view.setData(d);
        QCOMPARE(view.rebuildCount(), 1); // the first setData built it; this one updated in place
        QCOMPARE(scatter->count(), 0);
        QVERIFY(redAt({0.01, 0.75}));
        QVERIFY(!redAt({0.01, 0.25}));
    }

    // A slider step moves the ε line and the probe's marker: only strips around them are
    // painted again (not the whole plot, whose every curve and grid line would be stroked
    // again at every step), and what is on screen afterwards (the window's backing store, not
    // a fresh grab) shows the marker at its new place and nothing at its old one.
    void aSliderStepRepaintsOnlyWhatMoved() {
        auto data = [](double eps) {
            ChartData d = utility(eps);
            SeriesData dots = series(SeriesKind::Points, QStringLiteral("dots"), {{0.01, 0.53}, {10.0, 0.83}});
            dots.width = 7.0;
            // Beside the line (not on it as in the Utility view) so that its own repaint is tested.
            SeriesData probe = series(SeriesKind::Points, QStringLiteral("probe"), {{3.0 * eps, 0.3}});
            probe.color = QColor(200, 0, 0);
            probe.width = 12.0;
            d.series << dots << probe;
            return d;
        };
        ChartView view;
        QVERIFY(showLaidOut(view, data(0.1)));
        QChart* chart = view.chart();
        // A fixed wait, kept on purpose here and below: the repaints are Qt's own (scene → view →
        // backing store, through posted events and the platform's update timer), and nothing
        // signals that the last of them has run. This one lets the first show's paints finish
        // before the log starts.
        QTest::qWait(50);

        struct PaintLog : QObject {
            QRegion painted;
            bool eventFilter(QObject*, QEvent* e) override {
                if (e->type() == QEvent::Paint)
                    painted += static_cast<QPaintEvent*>(e)->region();
                return false;
            }
        } log;
        view.viewport()->installEventFilter(&log);
        view.setData(data(1.0));
        QTRY_VERIFY(!log.painted.isEmpty());
        QTest::qWait(50); // any further repaint of this step (no signal marks the last one) is logged too
        view.viewport()->removeEventFilter(&log);

        double area = 0.0;
        for (const QRect& r : log.painted)
            area += static_cast<double>(r.width()) * r.height();
        const QRectF plot = chart->plotArea();
        QVERIFY2(
            area < 0.2 * plot.width() * plot.height(),
            qPrintable(QStringLiteral("painted %1 px² of a %2 px² plot").arg(area).arg(plot.width() * plot.height())));

        auto* probe = view.qtSeries(QStringLiteral("probe"));
        QVERIFY(probe);
        const QImage screen = view.screen()->grabWindow(view.winId()).toImage();
        QVERIFY(!screen.isNull());
        auto redAt = [&](QPointF value) { return isRedAt(screen, pixelOf(view, value, probe, view.window())); };
        QVERIFY(redAt({3.0, 0.3}));
        QVERIFY(!redAt({0.3, 0.3}));
    }
};

QTEST_MAIN(TestChartView)
#include "test_chart_view.moc"
