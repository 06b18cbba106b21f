// UtilityController: coalescing of settings bursts, stale results dropped, cancel keeping
// finished points, delivery on the GUI thread, preview vs full probes, the numbers equal
// the core's, and the proposed ε for a target.

#include "ui/views/utility/utility_controller.h"

#include "tests/support/generated_data.h"

#include "tests/support/gui_test_support.h"
#include <QSignalSpy>
#include <QThread>

#include <QtTest>

#include <cmath>

using namespace elab;
using elab::ui::UtilityController;
using elab::ui::UtilitySettings;

namespace {

std::shared_ptr<const core::Dataset> moons(core::Index rows = 300) { return elab::test::generated("moons", rows); }

UtilitySettings smallSettings() {
    UtilitySettings s;
    s.metric = core::UtilityMetric::TrainLoss; // the metric the Taylor estimates apply to
    s.testFraction = 0.0;
    s.preprocess.intercept = true;
    s.repeats = 4;
    s.gridPoints = 8;
    s.epsMin = 0.05;
    s.epsMax = 20.0;
    s.measureAt = {1.0};
    s.estimators = {core::Estimator::InverseEps, core::Estimator::FirstOrder};
    s.seed = 17;
    return s;
}

using elab::test::waitIdle;

} // namespace

class TestUtilityController : public QObject {
    Q_OBJECT

private slots:
    void sweepMatchesCoreAndDeliversOnGuiThread() {
        UtilityController c;
        QThread* gui = QThread::currentThread();
        bool offThread = false;
        connect(&c, &UtilityController::stateChanged, this, [&] { offThread |= QThread::currentThread() != gui; });
        c.setSettings(smallSettings());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QVERIFY(!offThread);
        const auto& st = c.state();
        QVERIFY(st.sweepComplete);
        QCOMPARE(st.completedPoints(), std::size_t(8));
        QVERIFY(st.nonPrivate.has_value());
        QCOMPARE(st.measuring.size(), std::size_t(1));

        // The same numbers as the core called directly on the same prepared data.
        core::UtilitySweepSpec spec;
        spec.mechanism = c.settings().mechanism;
        spec.grid = c.settings().grid();
        spec.repeats = 4;
        spec.seed = 17;
        const auto& d = *st.data;
        const auto direct = core::runUtilitySweep({d.train.features, d.train.targets.values}, spec);
        for (std::size_t g = 0; g < direct.points.size(); ++g)
            QCOMPARE(st.points[g]->values, direct.points[g].values);
        QCOMPARE(*st.nonPrivate, direct.nonPrivate);
    }

    void burstOfSettingsCoalescesIntoOneSweep() {
        UtilityController c;
        QSignalSpy sweeps(c.sweepSlot(), &ui::JobSlot::started);
        c.setDataset(moons());
        UtilitySettings s = smallSettings();
        for (int k = 0; k < 10; ++k) {
            s.mechanism.model.lambda = 0.01 * (k + 1);
            c.setSettings(s);
        }
        QVERIFY(waitIdle(c));
        QCOMPARE(sweeps.count(), 1);
        QCOMPARE(c.settings().mechanism.model.lambda, 0.1);
    }

    void estimatorOrTargetChangeStartsNoJob() {
        UtilityController c;
        c.setSettings(smallSettings());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QSignalSpy sweeps(c.sweepSlot(), &ui::JobSlot::started);
        QSignalSpy measuring(c.measuringSlot(), &ui::JobSlot::started);
        UtilitySettings s = smallSettings();
        s.estimators = {core::Estimator::Anchored};
        s.target = 0.5;
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(sweeps.count(), 0);
        QCOMPARE(measuring.count(), 0);
        QVERIFY(std::isfinite(c.estimateAt(0, core::Estimator::Anchored, 2.0)));
        // A new measuring point runs only the measuring job.
        s.measureAt = {1.0, 5.0};
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(sweeps.count(), 0);
        QCOMPARE(measuring.count(), 1);
        QCOMPARE(c.state().measuring.size(), std::size_t(2));
    }

    void cancelKeepsFinishedPoints() {
        UtilityController c;
        UtilitySettings s = smallSettings();
        s.repeats = 6;
        s.gridPoints = 60;
        s.epsMin = 1e-3;
        s.epsMax = 100.0;
        c.setSettings(s);
        // Cancel from the GUI thread as soon as the first point has streamed in.
        bool cancelled = false;
        connect(&c, &UtilityController::stateChanged, this, [&] {
            if (!cancelled && c.state().completedPoints() >= 1) {
                cancelled = true;
                c.cancel();
            }
        });
        c.setDataset(moons(3000));
        QTRY_VERIFY_WITH_TIMEOUT(cancelled, 30000);
        QVERIFY(!c.isBusy());
        QVERIFY(c.state().sweepCancelled);
        const std::size_t kept = c.state().completedPoints();
        QVERIFY2(kept >= 1 && kept < 60, qPrintable(QString::number(kept)));
        QVERIFY(test::waitForLateDeliveries(c)); // the stopped job's deliveries arrived (dropped)
        QCOMPARE(c.state().completedPoints(), kept);
        for (const auto& p : c.state().points)
            if (p)
                QCOMPARE(p->values.size(), std::size_t(6)); // only complete points
    }

    void probePreviewThenFull() {
        UtilityController c;
        c.setSettings(smallSettings());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        c.setCurrentEps(0.3, true);
        QVERIFY(waitIdle(c));
        QVERIFY(c.state().probe.has_value());
        QCOMPARE(c.state().probe->eps, 0.3);
        QCOMPARE(c.state().probe->repeats, 3);
        QVERIFY(!c.state().probe->full);
        c.setCurrentEps(0.3, false);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.state().probe->repeats, 4);
        QVERIFY(c.state().probe->full);
        // A burst of drag positions in one event-loop turn: the first starts, the rest wait as one.
        QSignalSpy probes(c.probeSlot(), &ui::JobSlot::started);
        for (double e : {0.4, 0.5, 0.6, 0.7})
            c.setCurrentEps(e, true);
        QVERIFY(waitIdle(c));
        QCOMPARE(probes.count(), 2);
        QCOMPARE(c.state().probe->eps, 0.7);
        QVERIFY(!c.state().probe->full);
        // A release joining a settings change that waits for its frame still measures in full.
        UtilitySettings s = c.settings();
        s.target = 0.5; // keeps the sweep
        c.setSettings(s);
        c.setCurrentEps(0.7, false); // the handle let go where it is
        QVERIFY(waitIdle(c));
        QCOMPARE(c.settings().target, std::optional<double>(0.5));
        QCOMPARE(c.state().probe->eps, 0.7);
        QVERIFY(c.state().probe->full);
        c.setCurrentEps(UtilitySettings::nonPrivateEps(), false);
        QCOMPARE(c.state().probe->mean, *c.state().nonPrivate);
    }

    void aDragShowsMeasuredValuesThenTheFullOneOnRelease() {
        // A step every frame, each arriving while a probe may still run: a running probe is never
        // cancelled by a step (its value is shown at its ε), the latest step waits for it.
        UtilityController c;
        UtilitySettings s = smallSettings();
        s.repeats = 8;
        c.setSettings(s);
        c.setDataset(moons(40000)); // a preview probe takes longer than a frame here
        QVERIFY(waitIdle(c));
        QSignalSpy started(c.probeSlot(), &ui::JobSlot::started);
        QSignalSpy finished(c.probeSlot(), &ui::JobSlot::finished);
        QSignalSpy dropped(c.probeSlot(), &ui::JobSlot::staleResultDropped);
        std::vector<double> shown; // each new probe value, at its ε, while the handle is held
        const double before = c.state().probe->eps;
        connect(&c, &UtilityController::stateChanged, this, [&] {
            const auto& probe = c.state().probe;
            if (c.dragging() && probe && probe->eps != before && (shown.empty() || shown.back() != probe->eps))
                shown.push_back(probe->eps);
        });
        double eps = 0.0;
        for (int k = 1; k <= 40; ++k) {
            eps = 0.1 * std::pow(50.0, k / 40.0);
            c.setCurrentEps(eps, true);
            QTest::qWait(16);
        }
        QVERIFY(c.dragging());
        // The release restarts a preview still running (on a loaded machine): the full one is
        // what counts then; so the drag's own probes are counted before it.
        const qsizetype startedWhileHeld = started.size();
        const bool runningAtRelease = c.probeSlot()->isBusy();
        c.setCurrentEps(eps, false); // released where the last step left it
        QVERIFY(waitIdle(c));
        c.waitForIdle();
        QCoreApplication::processEvents(); // what a superseded worker still delivers: dropped
        QCOMPARE(dropped.size(), runningAtRelease ? 1 : 0);
        for (qsizetype k = 0; k < finished.size(); ++k)
            QVERIFY2(!finished.at(k).at(0).toBool(), "a slider step cancelled the running probe");
        // Every probe started during the drag was shown (a superseded one would not), then the full one.
        QVERIFY2(shown.size() >= 2, qPrintable(QString::number(shown.size())));
        QCOMPARE(static_cast<qsizetype>(shown.size()) + (runningAtRelease ? 1 : 0), startedWhileHeld);
        QCOMPARE(started.size(), startedWhileHeld + 1);
        QCOMPARE(c.state().probe->eps, eps);
        QVERIFY(c.state().probe->full);
        QCOMPARE(c.state().probe->repeats, 8);
    }

    void proposedEpsMeetsTarget() {
        UtilityController c;
        UtilitySettings s = smallSettings();
        c.setSettings(s);
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        const double atOne = c.estimateAt(0, core::Estimator::InverseEps, 1.0);
        s.target = atOne; // the estimate at ε = 1 meets it exactly: the proposal is ≈ 1
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        const auto proposed = c.proposedEps();
        QVERIFY(proposed.has_value());
        QVERIFY2(std::abs(*proposed - 1.0) < 1e-6, qPrintable(QString::number(*proposed, 'g', 17)));
        QVERIFY(c.proposalFromEstimate());
        s.target = *c.state().nonPrivate - 1.0; // better than the non-private model: unreachable
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QVERIFY(!c.proposedEps().has_value());
    }

    void verifyListsSteps() {
        UtilityController c;
        UtilitySettings s = smallSettings();
        c.setSettings(s);
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        s.target = c.state().points[5]->mean; // measured at ε ≈ 3.4: reachable
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        c.verifyTarget();
        QVERIFY(waitIdle(c));
        QVERIFY(c.state().verification.has_value());
        QVERIFY(c.state().verification->reachable);
        QVERIFY(!c.state().verification->steps.empty());
        QVERIFY(std::isfinite(c.state().verification->chosenEps));
    }

    void multiclassRunsOneVsRest() {
        UtilityController c;
        core::GeneratorOptions options;
        options.classes = 3;
        options.rows = 300;
        UtilitySettings s = smallSettings();
        s.metric = core::UtilityMetric::TrainAccuracy;
        s.measureAt.clear();
        c.setSettings(s);
        c.setDataset(std::make_shared<const core::Dataset>(core::generateDataset("blobs", options)));
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.state().sweepComplete);
        const auto& notes = c.state().guaranteeAtMax.notes;
        QVERIFY(!notes.empty());
        QVERIFY2(QString::fromStdString(notes.front()).contains(QStringLiteral("one-vs-rest over 3 classes")),
                 notes.front().c_str());
        QVERIFY(c.state().points.back()->mean > 0.8); // ε = 20: close to the non-private accuracy
    }

    void regressionFailsWithMessage() {
        UtilityController c;
        QSignalSpy failed(&c, &UtilityController::failed);
        core::Dataset regression = core::generateDataset("moons", {});
        Eigen::VectorXd values = regression.targets.values;
        regression.targets = core::Targets::regression(values);
        c.setSettings(smallSettings());
        c.setDataset(std::make_shared<const core::Dataset>(std::move(regression)));
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("regression")),
                 qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(waitIdle(c));
    }
};

QTEST_MAIN(TestUtilityController)
#include "test_utility_controller.moc"
