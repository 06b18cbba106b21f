// RegionsController: the first dataset prepares the plane and evaluates it; a slider move
// evaluates the same problem again (no new preparation) and delivers a new result on the GUI
// thread; steps arriving while one runs keep only the latest; a settings change that needs a
// new plane prepares again and drops what the old one still delivers; the fill alone starts
// nothing; cancel drops the running evaluation and keeps the picture; the numbers are the
// core's; a preview on the drag grid is followed by the full grid on release.

#include "ui/views/regions/regions_controller.h"

#include "tests/support/gui_test_support.h"

#include "tests/support/generated_data.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::JobSlot;
using elab::ui::RegionsController;
using elab::ui::RegionsFill;
using elab::ui::RegionsSettings;

namespace {

std::shared_ptr<const core::Dataset> moons(core::Index rows = 200) {
    return elab::test::generated("moons", rows, 2, 0.25);
}

RegionsSettings small() {
    RegionsSettings s;
    s.draws = 5;
    s.gridSize = 64;
    s.seed = 17;
    return s;
}

} // namespace

class TestRegionsController : public QObject {
    Q_OBJECT

private slots:
    void preparesOnceThenEvaluatesPerStep() {
        RegionsController c;
        QSignalSpy prepared(c.prepareSlot(), &JobSlot::started);
        QSignalSpy evaluated(c.evaluateSlot(), &JobSlot::started);
        QThread* gui = QThread::currentThread();
        bool offThread = false;
        connect(&c, &RegionsController::stateChanged, this, [&] { offThread |= QThread::currentThread() != gui; });
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QCOMPARE(prepared.count(), 1);
        QCOMPARE(evaluated.count(), 0); // the preparation evaluates the first ε itself
        QVERIFY(c.upToDate());
        QCOMPARE(c.state().result->eps, 1.0);
        QCOMPARE(static_cast<int>(c.state().result->draws.size()), 5);
        const auto problem = c.state().problem;

        c.setCurrentEps(0.2, true);
        QVERIFY(waitIdle(c));
        QCOMPARE(prepared.count(), 1);
        QCOMPARE(evaluated.count(), 1);
        QCOMPARE(c.state().problem, problem);
        QCOMPARE(c.state().result->eps, 0.2);
        QVERIFY(!offThread);

        // The core's numbers: the same problem evaluated directly (deterministic, any threads).
        const core::RegionsResult direct = core::evaluateRegions(*problem, 0.2);
        QCOMPARE(c.state().result->trainAccuracyMean, direct.trainAccuracyMean);
        QVERIFY(c.state().result->majority == direct.majority);

        // ∞: the non-private model alone.
        c.setCurrentEps(RegionsSettings::nonPrivateEps(), false);
        QVERIFY(waitIdle(c));
        QVERIFY(std::isinf(c.state().result->eps));
        QVERIFY(c.upToDate());
    }

    void aBurstOfStepsKeepsTheLatest() {
        RegionsController c;
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QSignalSpy evaluated(c.evaluateSlot(), &JobSlot::started);
        for (int k = 1; k <= 20; ++k) // one event-loop turn: the first starts, the rest wait as one
            c.setCurrentEps(0.05 * k, true);
        QVERIFY(waitIdle(c));
        QVERIFY2(evaluated.count() <= 2, qPrintable(QString::number(evaluated.count())));
        QCOMPARE(c.state().result->eps, 0.05 * 20);
        QVERIFY(c.upToDate());
    }

    void aNewPlaneDropsWhatTheOldOneDelivers() {
        RegionsController c;
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QSignalSpy stale(c.evaluateSlot(), &JobSlot::staleResultDropped);
        QSignalSpy prepared(c.prepareSlot(), &JobSlot::started);
        c.setCurrentEps(0.3, true); // starts an evaluation of the old plane now …
        RegionsSettings s = small();
        s.quadratic = true;
        s.currentEps = 0.3; // the view sends the slider's ε with every change
        c.setSettings(s);   // … which the new plane (one frame later) supersedes, or which finished first
        QVERIFY(waitIdle(c));
        QCOMPARE(prepared.count(), 1);
        QVERIFY(c.state().problemSettings.quadratic);
        QVERIFY(c.upToDate());
        QCOMPARE(c.state().result->eps, 0.3);
        QCOMPARE(c.state().resultProblem, c.state().problem);
        Q_UNUSED(stale); // dropped or delivered first: either way the picture is of the new plane
    }

    void cancelDropsTheRunningEvaluationAndKeepsThePicture() {
        RegionsController c;
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        const auto before = c.state().result;
        QSignalSpy stale(c.evaluateSlot(), &JobSlot::staleResultDropped);
        c.setCurrentEps(0.4, false);
        QVERIFY(c.evaluateSlot()->isBusy());
        c.cancel();
        QVERIFY(!c.isBusy());
        QVERIFY(stale.wait(30000)); // what the stopped job still delivers is dropped
        QCOMPARE(c.state().result, before);
        QVERIFY(!c.upToDate());
        // The next step computes again.
        c.setCurrentEps(0.5, false);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.state().result->eps, 0.5);
    }

    void fillAloneStartsNothing() {
        RegionsController c;
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QSignalSpy prepared(c.prepareSlot(), &JobSlot::started);
        QSignalSpy evaluated(c.evaluateSlot(), &JobSlot::started);
        QSignalSpy changed(&c, &RegionsController::stateChanged);
        RegionsSettings s = small();
        s.fill = RegionsFill::Agreement;
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(prepared.count() + evaluated.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(c.settings().fill, RegionsFill::Agreement);
    }

    void invalidSettingsAndBadDataAreReported() {
        RegionsController c;
        RegionsSettings s = small();
        s.draws = 0;
        c.setSettings(s);
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastError().contains(QStringLiteral("draws")));
        QVERIFY(!c.state().result);
        s = small();
        s.featureB = 7; // moons has two features
        QSignalSpy failed(&c, &RegionsController::failed);
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!c.lastError().isEmpty());
        c.setSettings(small()); // a good setting again recovers
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastError().isEmpty());
        QVERIFY(c.upToDate());
    }

    void previewWhileDraggingThenTheFullGrid() {
        RegionsController c;
        RegionsSettings s = small();
        s.gridSize = 512;
        s.draws = 20;
        c.setSettings(s);
        c.setDataset(moons(60000)); // 20 draws, 512²: ≈ 60 ms per evaluation on the test VM, so a drag previews
        QVERIFY(waitIdle(c));
        const double ms = c.state().evaluationMs;
        c.setCurrentEps(0.3, true);
        QVERIFY(waitIdle(c));
        // Slow steps (on this machine) are previewed on the coarse grid; fast ones are not.
        QCOMPARE(c.state().preview(), ms > RegionsController::kLiveBudgetMs);
        QCOMPARE(c.state().shownGrid(), c.state().preview() ? RegionsController::kDragGrid : 512);
        c.setCurrentEps(0.3, false); // released where it is
        QVERIFY(waitIdle(c));
        QVERIFY(!c.state().preview());
        QCOMPARE(c.state().shownGrid(), 512);
        QVERIFY(c.upToDate());
        // The same when the release joins a settings change waiting for its frame (the fill).
        const double msNow = c.state().evaluationMs; // the release's full-grid evaluation
        c.setCurrentEps(0.35, true);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.state().preview(), msNow > RegionsController::kLiveBudgetMs);
        RegionsSettings fill = c.settings();
        fill.fill = RegionsFill::Agreement;
        c.setSettings(fill);
        c.setCurrentEps(0.35, false);
        QVERIFY(waitIdle(c));
        QVERIFY(!c.state().preview());
        QVERIFY(c.upToDate());
        QCOMPARE(c.settings().fill, fill.fill);
    }
};

QTEST_MAIN(TestRegionsController)
#include "test_regions_controller.moc"
