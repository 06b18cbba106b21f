// The Utility view's words as functions of settings and state (ui/views/utility/utility_text.h):
// the readout at the slider's ε, the target box and the verification's summary. The expected
// texts are written from what each line is meant to say, not read off the view.

#include "ui/views/utility/utility_chart_model.h"
#include "ui/views/utility/utility_text.h"

#include <QTest>

#include <cmath>

using elab::ui::ProbeResult;
using elab::ui::UtilityReadoutContext;
using elab::ui::UtilitySettings;
using elab::ui::UtilityState;
namespace core = elab::core;
namespace ui = elab::ui;

namespace {

/// The training loss on every row (no held-out split): the metric the Taylor estimates and the
/// theory's bound apply to (the view's default is test accuracy).
UtilitySettings lossSettings() {
    UtilitySettings s;
    s.metric = core::UtilityMetric::TrainLoss;
    s.testFraction = 0.0;
    return s;
}

} // namespace

class TestUtilityText : public QObject {
    Q_OBJECT
private slots:
    // A full measurement at the slider's ε, the non-private value; objective perturbation with the
    // training loss: estimates apply, but none were measured yet (no line for them).
    void readoutOfAFullProbe() {
        UtilitySettings s = lossSettings(); // objective perturbation (ε, δ), training loss, ε = 1, 10 repetitions
        UtilityState state;
        state.probe = ProbeResult{1.0, 0.5, 0.01, 10, true};
        state.nonPrivate = 0.3;
        const QStringList lines = ui::utilityReadoutLines(s, state, UtilityReadoutContext{false, true, {}});
        QCOMPARE(lines, QStringList({QStringLiteral("ε = 1"), QStringLiteral("measured: 0.5 ± 0.01 (10 repetitions)"),
                                     QStringLiteral("non-private: 0.3")}));
    }

    // While the handle is held, the latest preview is shown at its own ε; an accuracy metric has no
    // Taylor estimates; a failure is the last line.
    void readoutWhileDragging() {
        UtilitySettings s;
        s.metric = core::UtilityMetric::TrainAccuracy;
        s.currentEps = 2.0;
        UtilityState state;
        state.probe = ProbeResult{0.5, 0.8125, 1.5e-5, 1, false};
        const QStringList lines = ui::utilityReadoutLines(s, state, UtilityReadoutContext{true, true, "out of memory"});
        QCOMPARE(lines,
                 QStringList({QStringLiteral("ε = 2"),
                              QStringLiteral("measured at ε = 0.5: 0.8125 ± 1.5e-05 (1 repetition, preview while "
                                             "dragging; all 10 on release)"),
                              QStringLiteral("Taylor estimates: only for Gaussian objective perturbation with a loss "
                                             "metric."),
                              QStringLiteral("Problem: out of memory")}));
    }

    // One feature dominating the rows' norms: a warning naming it, before any failure line.
    void readoutWarnsOfADominantFeature() {
        UtilitySettings s = lossSettings();
        UtilityState state;
        state.dominance = core::NormDominance{"fnlwgt", 0.998};
        const QStringList lines = ui::utilityReadoutLines(s, state, UtilityReadoutContext{false, true, "failed"});
        QVERIFY2(lines.value(lines.size() - 2)
                     .startsWith(QStringLiteral("⚠ Feature 'fnlwgt' holds ≥ 90 % of the "
                                                "squared norm of 99.8 % of the rows")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        QCOMPARE(lines.back(), QStringLiteral("Problem: failed"));
    }

    // A non-private accuracy at the majority rate of the rows it is measured on: a warning naming
    // the class; the training rows' majority does not apply to a test metric; a loss never warns.
    void readoutWarnsOfAModelAtTheMajorityRate() {
        UtilitySettings s; // test accuracy
        UtilityState state;
        state.nonPrivate = 0.754;
        state.majorityTest = core::MajorityClass{"<=50K", 0.754};
        state.majorityTrain = core::MajorityClass{"<=50K", 0.5};
        const QString warning = QStringLiteral("⚠ The non-private model's accuracy 0.754 is no better than always "
                                               "answering '<=50K' (0.754 of the rows)");
        const auto warns = [&] {
            for (const QString& line : ui::utilityReadoutLines(s, state, {}))
                if (line.startsWith(warning))
                    return true;
            return false;
        };
        QVERIFY(warns());
        const auto chart = ui::buildUtilityChart(s, state, std::nullopt, QStringLiteral("adult"));
        bool floor = false;
        for (const auto& series : chart.series)
            floor = floor || (series.key == QStringLiteral("majority") && series.value == 0.754);
        QVERIFY(floor);
        s.metric = core::UtilityMetric::TrainAccuracy; // 0.754 is well above the training rows' 0.5
        QVERIFY(!warns());
        s.metric = core::UtilityMetric::TestLoss;
        QVERIFY(!warns());
    }

    // A probe at another ε once the handle rests is not shown: the new one is on its way.
    void readoutWaitsForTheProbe() {
        UtilitySettings s;
        s.metric = core::UtilityMetric::TrainAccuracy;
        UtilityState state;
        state.probe = ProbeResult{0.5, 0.8, 0.1, 10, true};
        const QStringList lines = ui::utilityReadoutLines(s, state, UtilityReadoutContext{false, true, {}});
        QCOMPARE(lines.value(1), QStringLiteral("measured: computing…"));
        QCOMPARE(ui::utilityReadoutLines(s, state, UtilityReadoutContext{}).size(), 2); // no dataset: no such line
    }

    // The bound of MATH.md §4.5 is interpolated log-log: halfway (in log ε) between 0.4 and 0.1 is
    // their geometric mean 0.2; it is a training-loss line only.
    void trainLossBound() {
        UtilityState state;
        state.grid = {1.0, 10.0};
        state.trainLossBound = {0.4, 0.1};
        const double middle = std::sqrt(10.0);
        QVERIFY(std::abs(ui::trainLossBoundAt(state, middle) - 0.2) < 1e-12);
        QCOMPARE(ui::trainLossBoundAt(state, 1.0), 0.4);
        QVERIFY(std::isnan(ui::trainLossBoundAt(state, 20.0)));
        UtilitySettings s = lossSettings();
        s.currentEps = middle;
        QVERIFY(ui::utilityReadoutLines(s, state, {})
                    .contains(QStringLiteral("theory's bound on the expected loss (MATH.md §4.5): 0.2")));
    }

    void proposal() {
        UtilitySettings s = lossSettings();
        UtilityState state;
        core::ProposedEps none;
        QCOMPARE(ui::utilityProposalText(s, state, none, false).proposal,
                 QStringLiteral("Enter a target to see the smallest ε that meets it."));
        s.target = 0.35; // the grid is 1e-3 … 100: ε below 0.01 in scientific form
        QCOMPARE(ui::utilityProposalText(s, state, none, true).proposal,
                 QStringLiteral("No ε between 1.0e-03 and 100 meets 0.35, by the estimate or the measured curve."));
        core::ProposedEps estimate;
        estimate.eps = 2.0;
        estimate.fromEstimate = true;
        estimate.measureAt = 1.0;
        const ui::ProposalText near = ui::utilityProposalText(s, state, estimate, true);
        QCOMPARE(near.proposal, QStringLiteral("Proposed ε = 2 (inverse-eps measured at ε = 1)"));
        QVERIFY(near.warning.isEmpty());
        core::ProposedEps measured;
        measured.eps = 2.0;
        QCOMPARE(ui::utilityProposalText(s, state, measured, true).proposal,
                 QStringLiteral("Proposed ε = 2 (the estimate never reaches the target; interpolated on the measured "
                                "curve)"));
        QCOMPARE(ui::utilityProposalText(s, state, measured, false).proposal,
                 QStringLiteral("Proposed ε = 2 (interpolated on the measured curve)"));

        // An estimate set aside: the measured curve's ε, and why in the warning; while the sweep
        // runs and nothing measured meets the target, the proposal waits for the measurements.
        core::ProposedEps doubted;
        doubted.measureAt = 1.0;
        doubted.setAside = 2.5;
        doubted.doubt = core::EstimateDoubt::PassesNonPrivate;
        doubted.doubtEps = 3.3;
        state.sweepComplete = false;
        const ui::ProposalText waiting = ui::utilityProposalText(s, state, doubted, true);
        QCOMPARE(waiting.proposal, QStringLiteral("Measuring before proposing: the estimate is in doubt."));
        QCOMPARE(waiting.warning, QStringLiteral("The estimate's ε = 2.5 (measured at ε = 1) is set aside: its line "
                                                 "passes the non-private loss at ε = 3.3, which no noisy model does."));
        doubted.eps = 31.0;
        doubted.setAside = 25.0;
        doubted.doubt = core::EstimateDoubt::FarFromMeasuringPoint;
        const ui::ProposalText far = ui::utilityProposalText(s, state, doubted, true);
        QCOMPARE(far.proposal,
                 QStringLiteral("Proposed ε = 31 (interpolated on the measured curve; the estimate is set aside)"));
        QCOMPARE(far.warning, QStringLiteral("The estimate's ε = 25 (measured at ε = 1) is set aside: more than 10× "
                                             "from the measuring point, too far for a Taylor expansion."));
    }

    void verification() {
        core::ChooseEpsResult r;
        r.reachable = false;
        QCOMPARE(ui::verificationSummary(r, 0.35),
                 QStringLiteral("Even the non-private model misses the target 0.35."));
        r.reachable = true;
        core::ChooseEpsStep step;
        step.eps = 0.5;
        step.measured = 0.34;
        step.meets = true;
        step.trainings = 30;
        r.steps = {step};
        core::ChooseEpsStep bisection;
        bisection.trainings = 50;
        r.bisection = {bisection};
        r.chosenEps = 0.5;
        r.bisectionEps = 0.25;
        QCOMPARE(ui::verificationSummary(r, 0.35),
                 QStringLiteral("Target 0.35 met at ε = 0.5 after 30 trainings (bisection: ε = 0.25 after 50)."));
        QCOMPARE(ui::verificationStepCells(step), QStringList({"0.5", "0.34", "yes", "30"}));
        r.chosenEps = std::nan("");
        QCOMPARE(ui::verificationSummary(r, 0.35), QStringLiteral("Not met within 1 steps."));
    }
};

QTEST_GUILESS_MAIN(TestUtilityText)
#include "test_utility_text.moc"
