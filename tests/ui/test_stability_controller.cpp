// StabilityController: cells streamed to the GUI thread, settings bursts coalesced, cancel
// keeping finished cells, the numbers equal the core's on the same prepared data, and
// readable failures for data the study cannot use.

#include "ui/views/stability/stability_controller.h"

#include "core/data/generators.h"
#include "tests/support/generated_data.h"

#include "tests/support/gui_test_support.h"
#include <QSignalSpy>
#include <QThread>

#include <QtTest>

#include <cmath>

using namespace elab;
using elab::ui::StabilityController;
using elab::ui::StabilitySettings;

namespace {

using elab::test::generated;

/// y = 2 x₁ − x₂ + noise on the moons' features: a small regression problem.
std::shared_ptr<const core::Dataset> regression(core::Index rows) {
    core::Dataset d = core::generateDataset("moons", {rows, 0.2, 2, 3});
    const Eigen::MatrixXd X = d.features.dense();
    Eigen::VectorXd y = 2.0 * X.col(0) - X.col(1);
    for (core::Index i = 0; i < rows; ++i)
        y[i] += 0.1 * std::sin(7.0 * static_cast<double>(i));
    d.targets = core::Targets::regression(y);
    return std::make_shared<const core::Dataset>(std::move(d));
}

StabilitySettings smallSettings() {
    StabilitySettings s;
    s.rhoMin = 0.0;
    s.rhoMax = 0.6;
    s.rhoPoints = 4;
    s.repeats = 3;
    s.stabilitySamples = 3;
    s.seed = 7;
    return s;
}

using elab::test::waitIdle;

} // namespace

class TestStabilityController : public QObject {
    Q_OBJECT

private slots:
    void streamsCellsOnGuiThreadAndMatchesCore() {
        StabilityController c;
        QThread* gui = QThread::currentThread();
        bool offThread = false;
        std::size_t streamedBeforeEnd = 0;
        connect(&c, &StabilityController::stateChanged, this, [&] {
            offThread |= QThread::currentThread() != gui;
            if (!c.state().complete)
                streamedBeforeEnd = std::max(streamedBeforeEnd, c.state().completedCells());
        });
        c.setSettings(smallSettings());
        c.setDataset(generated("moons", 200));
        QVERIFY(waitIdle(c));
        QVERIFY(!offThread);
        const auto& st = c.state();
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(st.complete);
        QVERIFY(!st.cancelled);
        QCOMPARE(st.totalCells(), std::size_t(16));
        QCOMPARE(st.completedCells(), std::size_t(16));
        QVERIFY2(streamedBeforeEnd >= 1, "cells arrive one by one before the final result");
        QCOMPARE(st.baselines.size(), std::size_t(4));
        QCOMPARE(st.stability.size(), std::size_t(4));

        // The same numbers as the core called directly on the same prepared data.
        const StabilitySettings s = c.settings();
        const auto& d = *st.data;
        core::StabilitySpec spec = s.toSpec(core::StabilityModel::Logistic, false);
        spec.threads = 1; // deterministic for any thread count
        const core::StabilityResult direct = core::runStabilitySweep(
            {d.train.features, d.train.targets.values, d.test->features, d.test->targets.values}, spec);
        QCOMPARE(direct.cells.size(), std::size_t(16));
        for (const auto& cell : direct.cells) {
            const core::StabilityCell* mine = st.cell(cell.rhoIndex, cell.methodIndex);
            QVERIFY(mine);
            QCOMPARE(mine->errors, cell.errors);
            QCOMPARE(mine->marginalError.mean, cell.marginalError.mean);
        }
        for (std::size_t m = 0; m < 4; ++m) {
            QCOMPARE(st.baselines[m].mu, direct.baselines[m].mu);
            QCOMPARE(st.stability[m].distance.mean, direct.stability[m].distance.mean);
        }
        // The data was prepared as the CLI does: a 50/50 split, rows clipped.
        QCOMPARE(d.train.rows() + d.test->rows(), core::Index(200));
        // Per-row coins: Binomial(200, ½) test rows (sd 7.1).
        QVERIFY2(std::abs(double(d.test->rows()) - 100.0) <= 30.0, qPrintable(QString::number(d.test->rows())));
    }

    void burstOfSettingsCoalescesIntoOneRun() {
        StabilityController c;
        QSignalSpy runs(c.sweepSlot(), &ui::JobSlot::started);
        c.setDataset(generated("moons", 120));
        StabilitySettings s = smallSettings();
        for (int k = 0; k < 10; ++k) {
            s.dropoutRate = 0.05 * (k + 1);
            c.setSettings(s);
        }
        QVERIFY(waitIdle(c));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(c.settings().dropoutRate, 0.5);
        // The same settings again start nothing; a new removal kind starts one run.
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(runs.count(), 1);
        s.removal = core::RemovalKind::Adversarial;
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(runs.count(), 2);
        QCOMPARE(c.state().removal, core::RemovalKind::Adversarial);
        QVERIFY(c.state().complete);
    }

    void cancelKeepsFinishedCells() {
        StabilityController c;
        StabilitySettings s = smallSettings();
        s.methods = {core::StabilityMethod::L2, core::StabilityMethod::Dropout};
        s.rhoPoints = 40;
        s.rhoMax = 0.9;
        s.repeats = 8;
        c.setSettings(s);
        bool cancelled = false;
        connect(&c, &StabilityController::stateChanged, this, [&] {
            if (!cancelled && c.state().completedCells() >= 1) {
                cancelled = true;
                c.cancel();
            }
        });
        c.setDataset(generated("moons", 1500));
        QTRY_VERIFY_WITH_TIMEOUT(cancelled, 30000);
        QVERIFY(!c.isBusy());
        QVERIFY(c.state().cancelled);
        QVERIFY(!c.state().complete);
        const std::size_t kept = c.state().completedCells();
        QVERIFY2(kept >= 1 && kept < 80, qPrintable(QString::number(kept)));
        QVERIFY(test::waitForLateDeliveries(c)); // the stopped job's deliveries arrived (dropped)
        QCOMPARE(c.state().completedCells(), kept);
        for (const auto& cell : c.state().cells)
            if (cell)
                QCOMPARE(cell->errors.size(), std::size_t(8)); // only complete cells
        // Recompute runs the same settings again, to the end.
        c.recompute();
        QVERIFY(waitIdle(c, 60000));
        QVERIFY(c.state().complete);
        QCOMPARE(c.state().completedCells(), std::size_t(80));
    }

    void unsupportedDataFailsWithAReadableMessage_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("model");
        QTest::addColumn<QString>("expected");
        QTest::newRow("multiclass without a positive class")
            << 0 << int(ui::StabilityModelChoice::FromTask) << QStringLiteral("binary label");
        QTest::newRow("linear on class labels")
            << 1 << int(ui::StabilityModelChoice::Linear) << QStringLiteral("regression");
        QTest::newRow("logistic on a numeric target")
            << 2 << int(ui::StabilityModelChoice::Logistic) << QStringLiteral("binary label");
    }

    void unsupportedDataFailsWithAReadableMessage() {
        QFETCH(int, kind);
        QFETCH(int, model);
        QFETCH(QString, expected);
        StabilityController c;
        QSignalSpy failed(&c, &StabilityController::failed);
        StabilitySettings s = smallSettings();
        s.model = ui::StabilityModelChoice(model);
        c.setSettings(s);
        c.setDataset(kind == 0 ? generated("blobs", 150, 3) : kind == 1 ? generated("moons", 100) : regression(100));
        QVERIFY(failed.wait(5000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(c.lastError(), message);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.state().completedCells(), std::size_t(0));
    }

    void multiclassWithPositiveClassAndRegressionRun() {
        StabilityController c;
        StabilitySettings s = smallSettings();
        s.methods = {core::StabilityMethod::L2, core::StabilityMethod::DeterministicDropout};
        s.positiveClass = core::generateDataset("blobs", {60, 0.3, 3, 5}).targets.classNames.front();
        c.setSettings(s);
        c.setDataset(generated("blobs", 150, 3));
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.state().complete);
        QCOMPARE(c.state().model, core::StabilityModel::Logistic);

        c.setDataset(regression(120));
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.state().complete);
        QCOMPARE(c.state().model, core::StabilityModel::Linear);
        QVERIFY(c.state().cell(0, 0)->testError.mean < 0.1); // MSE of a near-linear target
    }

    void invalidSettingsStartNothing() {
        StabilityController c;
        QSignalSpy runs(c.sweepSlot(), &ui::JobSlot::started);
        StabilitySettings s = smallSettings();
        s.methods.clear();
        c.setSettings(s);
        c.setDataset(generated("moons", 100));
        QVERIFY(waitIdle(c));
        QCOMPARE(runs.count(), 0);
        QVERIFY(c.lastError().contains(QStringLiteral("method")));
    }
};

QTEST_MAIN(TestStabilityController)
#include "test_stability_controller.moc"
