// The Decision regions chart model: class colours shared by regions and points, the regions
// shaded by the draws' agreement (faint where they disagree), the agreement map's colour bar,
// one boundary series per draw and chain with fixed keys, the non-private boundary dashed and
// dark, test rows hollow, misclassified points ringed, and the picture's ε in the title.

#include "ui/views/regions/regions_chart_model.h"

#include "ui/charts/chart_builder.h"
#include "ui/charts/chart_geometry.h"

#include "tests/support/generated_data.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QTextDocument>
#include <QValueAxis>
#include <QtTest>

using namespace elab;
using namespace elab::ui;

namespace {

/// A 2×2 grid by hand: class 0 on the left, 1 on the right; the top row unanimous, the bottom
/// row split evenly between two draws.
core::RegionsResult handMade() {
    core::RegionsResult r;
    r.eps = 1.0;
    r.majority = {0, 1, 0, 1};
    r.agreement = {0.5f, 0.5f, 1.0f, 1.0f};
    r.nonPrivate.cellClass = {0, 1, 0, 1};
    core::RegionsModel a, b;
    a.cellClass = {0, 1, 0, 1};
    b.cellClass = {1, 0, 0, 1};
    r.draws = {a, b};
    return r;
}

const charts::SeriesData* byKey(const charts::ChartData& chart, const QString& key) {
    for (const auto& s : chart.series)
        if (s.key == key)
            return &s;
    return nullptr;
}

RegionsState computed(RegionsSettings& s, double eps, const char* generator = "moons", int classes = 2) {
    const auto moons = test::generated(generator, 120, classes, 0.25, 3);
    s.draws = 4;
    s.gridSize = 48;
    s.currentEps = eps;
    RegionsState state;
    state.problem = std::make_shared<const core::RegionsProblem>(*moons, std::nullopt, s.toSpec());
    state.problemSettings = s;
    state.resultProblem = state.problem;
    state.result = std::make_shared<const core::RegionsResult>(core::evaluateRegions(*state.problem, eps));
    return state;
}

} // namespace

/// What Qt Charts shows for a text it was given: it renders titles and legend labels as rich text.
QString shownText(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

class TestRegionsChartModel : public QObject {
    Q_OBJECT

private slots:
    void tenClassesTenColours() {
        // Up to 8 classes: the charts' palette; digits' 10 classes: 10 distinct colours, none of
        // them near another (every pair at least 50 apart in RGB distance; the nearest, rose and
        // purple, are 59 apart).
        for (int k = 0; k < 8; ++k)
            QCOMPARE(regionsClassColor(k, 8), elab::ui::charts::paletteColor(k));
        for (int a = 0; a < 10; ++a)
            for (int b = a + 1; b < 10; ++b) {
                const QColor x = regionsClassColor(a, 10), y = regionsClassColor(b, 10);
                const double d = std::hypot(x.red() - y.red(), x.green() - y.green(), x.blue() - y.blue());
                QVERIFY2(d >= 50.0, qPrintable(QStringLiteral("classes %1 and %2: %3").arg(a).arg(b).arg(d)));
            }
    }

    void regionsTakeTheClassColoursShadedByAgreement() {
        const core::RegionsResult r = handMade();
        const QImage image = regionsImage(r, 2, 2, RegionsFill::Majority, 0);
        QCOMPARE(image.size(), QSize(2, 2));
        // Row 0 of the image is the top of the plane (iy = 1): unanimous cells.
        const QColor topLeft = image.pixelColor(0, 0), topRight = image.pixelColor(1, 0);
        const QColor bottomLeft = image.pixelColor(0, 1);
        QCOMPARE(topLeft.rgb() & 0xffffff, regionsClassColor(0).rgb() & 0xffffff);
        QCOMPARE(topRight.rgb() & 0xffffff, regionsClassColor(1).rgb() & 0xffffff);
        QCOMPARE(bottomLeft.rgb() & 0xffffff, regionsClassColor(0).rgb() & 0xffffff);
        // Where the draws split evenly the region is much fainter than where they agree.
        QVERIFY2(bottomLeft.alphaF() < 0.25 * topLeft.alphaF(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(bottomLeft.alphaF()).arg(topLeft.alphaF())));
        QVERIFY(std::abs(topLeft.alphaF() - agreementOpacity(1.0, 2)) < 0.01);
        QVERIFY(agreementOpacity(0.75, 2) > agreementOpacity(0.5, 2));
        QVERIFY(agreementOpacity(1.0, 3) > agreementOpacity(0.5, 3));
    }

    void oneDrawAndTheAgreementMap() {
        const core::RegionsResult r = handMade();
        // Draw 1 (second) puts class 1 bottom left, at full strength.
        const QImage draw = regionsImage(r, 2, 2, RegionsFill::Draw, 1);
        QCOMPARE(draw.pixelColor(0, 1).rgb() & 0xffffff, regionsClassColor(1).rgb() & 0xffffff);
        QCOMPARE(draw.pixelColor(0, 1).alpha(), draw.pixelColor(0, 0).alpha());
        // The map: the sequential scale's ends at the split and the unanimous cells.
        const QImage map = regionsImage(r, 2, 2, RegionsFill::Agreement, 0);
        QCOMPARE(map.pixelColor(0, 0).rgb() & 0xffffff, charts::sequentialColor(1.0).rgb() & 0xffffff);
        QCOMPARE(map.pixelColor(0, 1).rgb() & 0xffffff, charts::sequentialColor(0.0).rgb() & 0xffffff);
        // A result that does not fit the grid draws nothing.
        QVERIFY(regionsImage(r, 3, 2, RegionsFill::Majority, 0).isNull());
    }

    void seriesBoundariesPointsAndMarker() {
        RegionsSettings s;
        const RegionsState state = computed(s, 0.5);
        const charts::ChartData chart = buildRegionsChart(s, state, QStringLiteral("moons"));
        QVERIFY(chart.title.contains(QStringLiteral("ε = 0.5"))); // the marker: the picture's ε
        // While the handle is held the title stays put (the readout states each picture's ε);
        // only the title differs.
        const charts::ChartData held = buildRegionsChart(s, state, QStringLiteral("moons"), true);
        QVERIFY2(!held.title.contains(QStringLiteral("ε = ")), qPrintable(held.title));
        QCOMPARE(held.title, buildRegionsChart(s, computed(s, 2.0), QStringLiteral("moons"), true).title);
        QVERIFY(charts::sameStructure(held, chart));
        QCOMPARE(held.footnote, chart.footnote);
        QVERIFY(!chart.raster.image.isNull());
        QCOMPARE(chart.raster.image.width(), 48);
        QCOMPARE(chart.raster.x0, state.problem->x0());
        QCOMPARE(chart.raster.y1, state.problem->y1());
        QVERIFY(chart.colorScale.colors.isEmpty());
        QCOMPARE(chart.xTitle, QString::fromStdString(state.problem->axisName(0)));

        // Boundaries: the same number of series per draw (a chain capacity), the non-private ones dashed and dark.
        int perDraw = 0, nonPrivate = 0;
        for (const auto& series : chart.series) {
            if (series.key.startsWith(QStringLiteral("boundary:0:")))
                ++perDraw;
            if (series.key.startsWith(QStringLiteral("boundary:nonprivate:"))) {
                ++nonPrivate;
                QCOMPARE(series.style, Qt::DashLine);
                QVERIFY(series.color.lightnessF() < 0.2);
                QCOMPARE(series.kind, charts::SeriesKind::Line);
            }
        }
        QVERIFY(perDraw >= 2);
        QCOMPARE(nonPrivate, perDraw);
        for (int d = 0; d < s.draws; ++d)
            for (int c = 0; c < perDraw; ++c) {
                const auto* b = byKey(chart, QStringLiteral("boundary:%1:%2").arg(d).arg(c));
                QVERIFY(b);
                QCOMPARE(b->style, Qt::SolidLine);
                QVERIFY(b->color.alphaF() < 1.0); // semi-transparent
            }
        QVERIFY(!byKey(chart, QStringLiteral("boundary:0:0"))->points.isEmpty());
        QVERIFY(!byKey(chart, QStringLiteral("boundary:nonprivate:0"))->points.isEmpty());

        // Points: per class, in the class colours; training filled and named, test hollow.
        for (int k = 0; k < 2; ++k) {
            const auto* train = byKey(chart, QStringLiteral("train:%1").arg(k));
            const auto* test = byKey(chart, QStringLiteral("test:%1").arg(k));
            QVERIFY(train && test);
            QCOMPARE(train->color, regionsClassColor(k));
            QCOMPARE(test->color, regionsClassColor(k));
            QVERIFY(!train->hollow);
            QVERIFY(test->hollow);
            QCOMPARE(train->name, QString::fromStdString(state.problem->classNames()[static_cast<std::size_t>(k)]));
        }
        const auto* wrong = byKey(chart, QStringLiteral("misclassified"));
        QVERIFY(wrong && wrong->hollow);
        int mostlyWrong = 0;
        for (Eigen::Index i = 0; i < state.result->trainMisclassified.size(); ++i)
            mostlyWrong += state.result->trainMisclassified(i) > 0.5;
        for (Eigen::Index i = 0; i < state.result->testMisclassified.size(); ++i)
            mostlyWrong += state.result->testMisclassified(i) > 0.5;
        QCOMPARE(wrong->points.size(), mostlyWrong);

        // The same keys at another ε: the live chart updates in place.
        RegionsSettings t = s;
        const RegionsState other = computed(t, 0.05);
        QVERIFY(charts::sameStructure(chart, buildRegionsChart(t, other, QStringLiteral("moons"))));
    }

    // A dataset switch empties the chart while the new plane is prepared, then shows it: the empty
    // chart and pictures of two or three classes keep the same series (the Qt chart is updated in
    // place, not rebuilt); the empty chart has no points, boundaries or fill.
    void emptyChartAndOtherClassCountsKeepTheSeries() {
        RegionsSettings s;
        const charts::ChartData two = buildRegionsChart(s, computed(s, 1.0), QStringLiteral("moons"));
        RegionsSettings t;
        const RegionsState threeState = computed(t, 1.0, "blobs", 3);
        QCOMPARE(threeState.problem->classes(), 3);
        const charts::ChartData three = buildRegionsChart(t, threeState, QStringLiteral("blobs"));
        const charts::ChartData empty = buildRegionsChart(s, RegionsState{}, QStringLiteral("blobs"));
        QVERIFY(charts::sameStructure(two, three));
        QVERIFY(charts::sameStructure(two, empty));
        for (const auto& series : empty.series)
            QVERIFY2(series.points.isEmpty(), qPrintable(series.key));
        QVERIFY(empty.raster.image.isNull());
        QCOMPARE(empty.title, QStringLiteral("Decision regions"));
        // The slots beyond the classes are there, empty and unnamed (no legend entry).
        const auto* third = byKey(two, QStringLiteral("train:2"));
        QVERIFY(third && third->points.isEmpty() && third->name.isEmpty());
        const auto* thirdOfThree = byKey(three, QStringLiteral("train:2"));
        QVERIFY(thirdOfThree && !thirdOfThree->points.isEmpty() && !thirdOfThree->name.isEmpty());
        // Every training row drawn lands in its class's series (120 rows, split train/test).
        qsizetype drawn = 0;
        for (int k = 0; k < 4; ++k)
            drawn += byKey(three, QStringLiteral("train:%1").arg(k))->points.size();
        QCOMPARE(drawn, static_cast<qsizetype>(threeState.problem->trainPoints().rows()));
    }

    // Class and column names with markup characters ("<=50K", XOR's "x1·x2 < 0", "a & b") show as
    // written in the legend, the axis titles and the title — in the window and in exports, which
    // both go through buildChart. They vanished before: Qt Charts took them for HTML.
    void userNamesWithMarkupShowAsWritten() {
        auto data = std::make_shared<core::Dataset>(*test::generated("moons", 120, 2, 0.25, 3));
        const std::vector<std::string> classes{"x1·x2 < 0", "<=50K & >50K"};
        data->targets.classNames = classes;
        data->featureNames = {"a<b>", "c & d"};
        RegionsSettings s;
        s.draws = 2;
        s.gridSize = 24;
        s.currentEps = 1.0;
        RegionsState state;
        state.problem = std::make_shared<const core::RegionsProblem>(*data, std::nullopt, s.toSpec());
        state.problemSettings = s;
        state.resultProblem = state.problem;
        state.result = std::make_shared<const core::RegionsResult>(core::evaluateRegions(*state.problem, 1.0));
        const charts::ChartData chart = buildRegionsChart(s, state, QStringLiteral("data <&> set"), false);

        QGraphicsScene scene;
        auto* qchart = new QChart;
        scene.addItem(qchart);
        charts::buildChart(qchart, chart, QFont());
        QStringList legend;
        for (QLegendMarker* marker : qchart->legend()->markers())
            legend << shownText(marker->label());
        for (const std::string& name : classes)
            QVERIFY2(std::any_of(legend.begin(), legend.end(),
                                 [&](const QString& label) { return label.contains(QString::fromStdString(name)); }),
                     qPrintable(QStringLiteral("%1 not in the legend: %2")
                                    .arg(QString::fromStdString(name), legend.join(QStringLiteral(" | ")))));
        const auto axes = qchart->axes();
        QStringList titles;
        for (QAbstractAxis* axis : axes)
            titles << shownText(axis->titleText());
        QVERIFY2(titles.contains(QStringLiteral("a<b>")) && titles.contains(QStringLiteral("c & d")),
                 qPrintable(titles.join(QStringLiteral(" | "))));
        QCOMPARE(shownText(qchart->title()), chart.title);
        // The chart data keeps the names as written (CSV and JSON exports read it, not Qt's HTML).
        QVERIFY(chart.footnote.contains(QStringLiteral("data <&> set")));
    }

    void fillModes() {
        RegionsSettings s;
        RegionsState state = computed(s, 2.0);
        s.fill = RegionsFill::Agreement;
        const charts::ChartData map = buildRegionsChart(s, state, QStringLiteral("moons"));
        QCOMPARE(map.colorScale.colors.size(), 9);
        QCOMPARE(map.colorScale.min, 0.5);
        QCOMPARE(map.colorScale.max, 1.0);
        s.fill = RegionsFill::Draw;
        s.fillDraw = 2;
        const charts::ChartData draw = buildRegionsChart(s, state, QStringLiteral("moons"));
        QVERIFY(draw.colorScale.colors.isEmpty());
        QVERIFY(byKey(draw, QStringLiteral("boundary:2:0"))->width >
                byKey(draw, QStringLiteral("boundary:1:0"))->width);
    }
};

QTEST_MAIN(TestRegionsChartModel)
#include "test_regions_chart_model.moc"
