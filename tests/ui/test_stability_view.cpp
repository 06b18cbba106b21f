// StabilityView: the removal switch recomputes, one set of series per method, readouts
// (progress, chosen λ, separable flags, model stability), the multiclass positive class,
// and (with STABILITY_SCREENSHOT_DIR set) PNGs of the tab while streaming and complete.

#include "ui/views/stability/stability_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/stability/stability_controller.h"

#include "tests/support/generated_data.h"

#include "tests/support/gui_test_support.h"
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTableWidget>

#include <QtTest>

using namespace elab;
using elab::ui::StabilityController;
using elab::ui::StabilitySettings;
using elab::ui::StabilityView;

namespace {

using elab::test::generated;

StabilitySettings smallSettings() {
    StabilitySettings s;
    s.rhoMax = 0.6;
    s.rhoPoints = 4;
    s.repeats = 3;
    s.stabilitySamples = 3;
    s.seed = 7;
    return s;
}

using elab::test::waitIdle;

void saveShot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("STABILITY_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(w.grab().save(dir + QLatin1Char('/') + name));
}

} // namespace

class TestStabilityView : public QObject {
    Q_OBJECT

private slots:
    void removalSwitchRecomputes() {
        StabilityController c;
        StabilityView view(&c);
        view.setDatasetName(QStringLiteral("moons"));
        view.applySettings(smallSettings());
        c.setDataset(generated("moons", 150));
        QVERIFY(waitIdle(c));
        QVERIFY(c.state().complete);
        QVERIFY(view.chartData(0).title.contains(QStringLiteral("random")));
        QSignalSpy runs(c.sweepSlot(), &ui::JobSlot::started);
        auto* adversarial = view.findChild<QRadioButton*>(QStringLiteral("removalAdversarial"));
        QVERIFY(adversarial);
        adversarial->click();
        QCOMPARE(view.settings().removal, core::RemovalKind::Adversarial);
        QVERIFY(waitIdle(c));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(c.state().removal, core::RemovalKind::Adversarial);
        QVERIFY(c.state().complete);
        QVERIFY(view.chartData(0).title.contains(QStringLiteral("adversarial")));
        QVERIFY(view.chartData(1).title.contains(QStringLiteral("Marginal error")));
    }

    void oneSetOfSeriesPerMethod() {
        StabilityController c;
        StabilityView view(&c);
        view.applySettings(smallSettings());
        c.setDataset(generated("moons", 150));
        QVERIFY(waitIdle(c));
        for (int which : {0, 1}) {
            const auto data = view.chartData(which);
            QCOMPARE(data.series.size(), 12); // band, mean, points × 4 methods
            QVERIFY(!data.logX);
            QVERIFY(data.yMin >= 0.0);
            for (const char* m : {"none", "l2", "dropout", "deterministic-dropout"}) {
                const QString key = QStringLiteral("mean:") + QLatin1String(m);
                QCOMPARE(view.chartView(which)->shownPoints(key).size(), 4);
                QCOMPARE(view.chartView(which)->shownPoints(QStringLiteral("band:") + QLatin1String(m), true).size(),
                         4);
            }
        }
        QVERIFY(view.chartData(0).footnote.contains(QStringLiteral("seed 7")));
        QVERIFY(view.chartData(0).footnote.contains(QStringLiteral("λ =")));
        // Unticking a method removes its series; the run repeats without it.
        view.findChild<QCheckBox*>(QStringLiteral("method:none"))->click();
        QVERIFY(waitIdle(c));
        QCOMPARE(view.chartData(0).series.size(), 9);
        QCOMPARE(view.summaryTable()->rowCount(), 3);
    }

    void readouts() {
        StabilityController c;
        StabilityView view(&c);
        QVERIFY(view.statusText().contains(QStringLiteral("Load")));
        view.applySettings(smallSettings());
        c.setDataset(generated("moons", 150));
        QVERIFY(waitIdle(c));
        QVERIFY2(view.statusText().startsWith(QStringLiteral("done: 16 cells")), qPrintable(view.statusText()));
        QTableWidget* table = view.summaryTable();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->verticalHeaderItem(1)->text(), QStringLiteral("L2 (λ by CV)"));
        const double lambda = table->item(1, 1)->text().toDouble();
        QCOMPARE(lambda, c.state().baselines[1].mu);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("—"));
        QVERIFY(table->item(0, 2)->text() == QStringLiteral("no") ||
                table->item(0, 2)->text().startsWith(QStringLiteral("yes")));
        QVERIFY(table->item(2, 3)->text().contains(QStringLiteral("±")));
        // Invalid settings are explained inline.
        StabilitySettings bad = smallSettings();
        bad.rhoMin = 0.5;
        bad.rhoMax = 0.2;
        view.applySettings(bad);
        QVERIFY(view.problemText().contains(QStringLiteral("largest ρ")));
    }

    void multiclassNeedsAPositiveClass() {
        StabilityController c;
        StabilityView view(&c);
        view.show();
        StabilitySettings s = smallSettings();
        s.methods = {core::StabilityMethod::L2};
        view.applySettings(s);
        c.setDataset(generated("blobs", 150, 3));
        auto* combo = view.findChild<QComboBox*>(QStringLiteral("positiveClassCombo"));
        QVERIFY(combo->isVisible());
        QCOMPARE(combo->count(), 3);
        QVERIFY(view.settings().positiveClass.has_value());
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.state().complete);
        c.setDataset(generated("moons", 100));
        QVERIFY(!combo->isVisible());
        QVERIFY(!view.settings().positiveClass);
        QVERIFY(waitIdle(c));
    }

    void screenshotsStreamingAndComplete() {
        if (qEnvironmentVariableIsEmpty("STABILITY_SCREENSHOT_DIR"))
            QSKIP("set STABILITY_SCREENSHOT_DIR to render the tab");
        StabilityController c;
        StabilityView view(&c);
        view.resize(1400, 820);
        view.show();
        view.setDatasetName(QStringLiteral("moons (1200 rows)"));
        StabilitySettings s;
        s.rhoPoints = 10;
        s.repeats = 10;
        s.stabilitySamples = 5;
        s.seed = 3;
        view.applySettings(s);
        bool shot = false;
        connect(&c, &StabilityController::stateChanged, this, [&] {
            if (!shot && c.state().completedCells() >= 14) {
                shot = true;
                saveShot(view, QStringLiteral("stability_streaming.png"));
            }
        });
        c.setDataset(generated("moons", 1200));
        QVERIFY(waitIdle(c, 120000));
        QVERIFY(shot);
        saveShot(view, QStringLiteral("stability_complete.png"));
    }
};

QTEST_MAIN(TestStabilityView)
#include "test_stability_view.moc"
