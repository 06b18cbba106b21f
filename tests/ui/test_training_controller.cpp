// The training curves of the Utility tab (issue 12): a DP-SGD problem trains at the slider's ε
// and without privacy, epoch by epoch, delivered on the GUI thread with the core's numbers; a new
// ε restarts the private run only; a problem that does not train in epochs clears everything;
// the panel's charts draw both runs.

#include <tbb/global_control.h>

#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "ui/views/utility/training_controller.h"
#include "ui/views/utility/training_panel.h"

#include "tests/support/generated_data.h"
#include "tests/support/test_support.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

using namespace elab;

namespace {

struct Fixture {
    std::shared_ptr<const core::Dataset> data = elab::test::generated("moons", 300, 2, 0.2, 4);
    std::shared_ptr<const core::PreparedProblem> problem(core::MechanismKind kind) const {
        core::MechanismSpec spec;
        core::selectMechanism(spec, kind);
        spec.sgd.hidden = 8;
        spec.sgd.epochs = 4;
        spec.sgd.batchSize = 30;
        return core::prepareProblem(core::sweepDataOf(*data), spec, core::UtilityMetric::TrainAccuracy);
    }
};

bool settled(const ui::TrainingController& c, std::size_t epochs) {
    return !c.busy() && c.privateRun().size() == epochs && c.referenceRun().size() == epochs;
}

} // namespace

class TestTrainingController : public QObject {
    Q_OBJECT

private slots:
    void streamsBothRunsWithTheCoresNumbers() {
        Fixture f;
        ui::TrainingController c;
        QThread* gui = QThread::currentThread();
        bool offThread = false;
        int updates = 0;
        connect(&c, &ui::TrainingController::updated, this, [&] {
            offThread |= QThread::currentThread() != gui;
            ++updates;
        });
        const auto problem = f.problem(core::MechanismKind::Dpsgd);
        c.request(problem, 2.0, 3, 4);
        QVERIFY(c.active());
        QTRY_VERIFY_WITH_TIMEOUT(settled(c, 4), 30000);
        QVERIFY(!offThread);
        QVERIFY(updates >= 8); // one per epoch and run at least
        const auto direct = problem->learner().trainEpochs(2.0, 3, 0, {}, {});
        for (std::size_t e = 0; e < 4; ++e) {
            QCOMPARE(c.privateRun()[e].epoch, int(e) + 1);
            ELAB_EXACT(c.privateRun()[e].trainLoss, direct[e].trainLoss);
        }
        const auto reference = c.referenceRun();
        c.request(problem, 5.0, 3, 4); // a new ε: the private run again, the reference kept
        QVERIFY(c.referenceRun().size() == 4);
        QTRY_VERIFY_WITH_TIMEOUT(settled(c, 4), 30000);
        ELAB_EXACT(c.referenceRun().back().trainLoss, reference.back().trainLoss);
        QVERIFY(c.privateRun().back().trainLoss != direct.back().trainLoss);

        ui::TrainingPanel panel(&c);
        const auto chart = panel.accuracyChart();
        QStringList keys;
        for (const auto& s : chart.series)
            keys << s.key;
        QCOMPARE(keys, QStringList({"nonprivate:train", "nonprivate:test", "private:train", "private:test"}));
        QCOMPARE(chart.series[2].points.size(), 4);
    }

    void otherLearnersClearTheCurves() {
        Fixture f;
        ui::TrainingController c;
        c.request(f.problem(core::MechanismKind::Dpsgd), 1.0, 1, 4);
        QTRY_VERIFY_WITH_TIMEOUT(settled(c, 4), 30000);
        c.request(f.problem(core::MechanismKind::ObjPertGauss), 1.0, 1, 4);
        QVERIFY(!c.active());
        QVERIFY(c.privateRun().empty() && c.referenceRun().empty());
        c.request(nullptr, 1.0, 1, 4);
        QVERIFY(!c.active());
    }
};

QTEST_MAIN(TestTrainingController)
#include "test_training_controller.moc"
