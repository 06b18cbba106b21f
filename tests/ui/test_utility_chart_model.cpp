// The utility chart as data (issue 9): the monotonicity self-check marks every measured point
// that is worse than at a smaller ε beyond noise, with a legend entry; nothing is marked on a
// curve that only improves, or with one repetition (no standard error). The theory's bound on the
// training loss (MATH.md §4.5) is drawn for the training-loss metric only, and the legend says when
// it is off the chart.

#include "ui/charts/chart_export.h"
#include "ui/views/utility/utility_chart_model.h"

#include <QtTest>

using namespace elab;
using namespace elab::ui;

namespace {

UtilityState stateWith(const std::vector<double>& means, double sd, int repeats) {
    UtilityState state;
    for (std::size_t g = 0; g < means.size(); ++g) {
        core::SweepPoint p;
        p.gridIndex = static_cast<Eigen::Index>(g);
        p.eps = 0.1 * std::pow(10.0, static_cast<double>(g));
        p.mean = means[g];
        p.sd = sd;
        p.values.assign(static_cast<std::size_t>(repeats), means[g]);
        state.grid.push_back(p.eps);
        state.points.push_back(p);
    }
    return state;
}

const charts::SeriesData* find(const charts::ChartData& chart, const QString& key) {
    for (const auto& s : chart.series)
        if (s.key == key)
            return &s;
    return nullptr;
}

} // namespace

class TestUtilityChartModel : public QObject {
    Q_OBJECT

private slots:
    void marksPointsWorseAsEpsGrows() {
        UtilitySettings settings;
        settings.metric = core::UtilityMetric::TrainAccuracy;
        // 0.1 → 0.6, 1 → 0.8, 10 → 0.55 (a drop of 25 se), 100 → 0.82.
        const UtilityState state = stateWith({0.6, 0.8, 0.55, 0.82}, 0.03, 10);
        const charts::ChartData chart = buildUtilityChart(settings, state, std::nullopt, QStringLiteral("d"));
        const charts::SeriesData* worse = find(chart, QStringLiteral("worse-as-eps-grows"));
        QVERIFY(worse);
        QCOMPARE(worse->points.size(), 1);
        QCOMPARE(worse->points[0], QPointF(10.0, 0.55));
        QCOMPARE(worse->name, QStringLiteral("worse than at a smaller ε"));
        // For looking at it: ELAB_SCREENSHOT_DIR=dir writes the figure there.
        if (const QString dir = qEnvironmentVariable("ELAB_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(charts::renderChartImage(chart).save(dir + QStringLiteral("/utility-worse-as-eps-grows.png")));
    }

    void nothingMarkedWhenMonotone() {
        UtilitySettings settings;
        settings.metric = core::UtilityMetric::TrainLoss; // a loss falling with ε is fine
        const charts::ChartData chart =
            buildUtilityChart(settings, stateWith({0.9, 0.6, 0.5, 0.45}, 0.02, 10), std::nullopt, QStringLiteral("d"));
        const charts::SeriesData* worse = find(chart, QStringLiteral("worse-as-eps-grows"));
        QVERIFY(worse);
        QVERIFY(worse->points.isEmpty());
        QVERIFY(worse->name.isEmpty()); // no legend entry
        // One repetition: no standard error, so the check does not run and marks nothing.
        settings.metric = core::UtilityMetric::TrainAccuracy;
        const charts::ChartData single =
            buildUtilityChart(settings, stateWith({0.9, 0.5}, 0.0, 1), std::nullopt, QStringLiteral("d"));
        QVERIFY(find(single, QStringLiteral("worse-as-eps-grows"))->points.isEmpty());
    }

    void theBoundIsDrawnForTheTrainingLossOnly() {
        UtilitySettings settings;
        settings.metric = core::UtilityMetric::TrainLoss;
        UtilityState state = stateWith({0.9, 0.6, 0.5, 0.45}, 0.02, 10);
        state.trainLossBound = {40.0, 3.0, 0.7, 0.47};
        const charts::ChartData chart = buildUtilityChart(settings, state, std::nullopt, QStringLiteral("d"));
        const charts::SeriesData* bound = find(chart, QStringLiteral("bound"));
        QVERIFY(bound);
        QCOMPARE(bound->points.size(), 4);
        QCOMPARE(bound->points[1], QPointF(1.0, 3.0));
        QCOMPARE(bound->name, QStringLiteral("theory's bound")); // partly on the chart (which clips 40)
        QVERIFY(chart.yMax < 40.0);                              // the range follows the measurement, not the bound
        state.trainLossBound = {400.0, 300.0, 200.0, 100.0};
        QCOMPARE(
            find(buildUtilityChart(settings, state, std::nullopt, QStringLiteral("d")), QStringLiteral("bound"))->name,
            QStringLiteral("theory's bound (off the chart)"));
        settings.metric = core::UtilityMetric::TrainAccuracy;
        QVERIFY(!find(buildUtilityChart(settings, state, std::nullopt, QStringLiteral("d")), QStringLiteral("bound")));
    }
};

QTEST_MAIN(TestUtilityChartModel)
#include "test_utility_chart_model.moc"
