// The Privacy accounting view (issue 12): the controller computes the core's curves off the GUI
// thread (the same numbers as the core), follows the slider (a step waits for the running
// computation instead of cancelling it, so a drag shows pictures) and the form, asks for
// N when there is no dataset; the charts draw every accountant of the core's list (PLD among them) on log axes with the
// current σ marked; the table and readout show exact values; the settings survive a session round trip and a bad block
// is refused naming the field; the tab exports two figures with sidecars; an ε one accountant cannot reach with σ ≤ 10⁶
// is shown for the others and said, not failed.

#include <tbb/global_control.h>

#include "core/mechanisms/mechanism_catalog.h"

#include "ui/charts/chart_view.h"
#include "ui/session/session.h"
#include "ui/views/accounting/accounting_chart_model.h"
#include "ui/views/accounting/accounting_controller.h"
#include "ui/views/accounting/accounting_settings.h"
#include "ui/views/accounting/accounting_tab.h"
#include "ui/views/accounting/accounting_view.h"
#include "ui/views/shared_state.h"
#include "ui/views/view_catalog.h"
#include "ui/widgets/eps_slider.h"

#include "tests/support/generated_data.h"
#include "tests/support/gui_test_support.h"
#include "tests/support/test_support.h"
#include "tests/ui/gui_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::AccountingController;
using elab::ui::AccountingSettings;

namespace {

AccountingSettings digits() {
    AccountingSettings s;
    s.rows = 1439;
    s.batchSize = 100;
    s.epochs = 100;
    s.delta = 1e-4;
    s.currentEps = 1.0;
    return s;
}

class NoHost : public ui::ViewHost {
public:
    void showStatusMessage(const QString&, int) override {}
};

// A chart of the view shows the controller's current epoch curves as drawn while the handle is
// held (the held title, the same points): the held redraw of the current result happened.
bool heldCurvesDrawn(const ui::AccountingView& view, const AccountingController& c) {
    const ui::charts::ChartData held = ui::buildEpochChart(c.settings(), c.curves().get(), true);
    for (const auto* chart : view.findChildren<ui::charts::ChartView*>()) {
        const ui::charts::ChartData& shown = chart->data();
        if (shown.title != held.title || shown.series.size() != held.series.size())
            continue;
        bool same = true;
        for (qsizetype i = 0; i < held.series.size(); ++i)
            same = same && shown.series[i].points == held.series[i].points;
        if (same)
            return true;
    }
    return false;
}

} // namespace

class TestAccountingView : public QObject {
    Q_OBJECT

private slots:
    void controllerComputesTheCoresCurves() {
        AccountingController c;
        c.setSettings(digits());
        QVERIFY(waitIdle(c));
        QVERIFY(c.upToDate());
        const auto curves = c.curves();
        QVERIFY(curves);
        const core::AccountingCurves direct = core::accountingCurves(digits().inputs(0));
        QCOMPARE(curves->currentSigma, direct.currentSigma);
        QCOMPARE(curves->epsBySigma[0], direct.epsBySigma[0]);
        QCOMPARE(curves->inputs.steps(), 1500LL);
        // Every accountant of the core's list is there; PLD needs the least noise, RDP the least of
        // the others; each accountant's σ gives ε ≤ 1.
        QCOMPARE(curves->needed.size(), core::kAccountantKinds.size());
        const std::size_t pld = core::accountantIndex(core::AccountantKind::Pld);
        const std::size_t rdp = core::accountantIndex(core::AccountantKind::Rdp);
        QCOMPARE(core::kAccountants[pld], core::AccountantKind::Pld);
        for (std::size_t k = 0; k < curves->needed.size(); ++k) {
            QVERIFY(curves->needed[k].result.epsilon <= 1.0);
            QVERIFY(curves->needed[k].sigma >= curves->needed[pld].sigma);
            if (k != pld)
                QVERIFY(curves->needed[k].sigma >= curves->needed[rdp].sigma);
        }
        QVERIFY(curves->needed[pld].sigma < curves->needed[rdp].sigma);
        // ε spent grows with the epochs and ends at the target for the calibrating accountant.
        const auto& spent = curves->epsByEpoch[core::accountantIndex(digits().accountant)];
        QVERIFY(std::is_sorted(spent.begin(), spent.end()));
        ELAB_RELATIVE(spent.back(), 1.0, 1e-3);
    }

    void followsTheLatestEpsAndAsksForRows() {
        AccountingController c;
        AccountingSettings s = digits();
        for (double e : {0.2, 0.5, 2.0, 8.0}) {
            s.currentEps = e;
            c.setSettings(s);
        }
        QVERIFY(waitIdle(c));
        QCOMPARE(c.curves()->inputs.eps, 8.0);
        s.rows = 0; // the dataset's, and there is none
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastError().contains(QStringLiteral("rows N")));
        c.setDataset(elab::test::generated("moons", 500));
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastError().isEmpty());
        QCOMPARE(c.curves()->inputs.rows, 500LL);
    }

    void aDragNeverCancelsTheRunningComputation() {
        AccountingController c;
        AccountingSettings s = digits();
        s.rows = 344; // a large q: each step's RDP calibration takes longer than a frame
        s.delta = 1e-5;
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QSignalSpy started(c.jobSlots().front(), &ui::JobSlot::started);
        QSignalSpy finished(c.jobSlots().front(), &ui::JobSlot::finished);
        QSignalSpy dropped(c.jobSlots().front(), &ui::JobSlot::staleResultDropped);
        QSignalSpy changed(&c, &AccountingController::stateChanged);
        // A drag: a step every frame, each arriving while a computation may still run.
        for (int k = 1; k <= 40; ++k) {
            s.currentEps = std::pow(20.0, k / 40.0);
            c.setCurrentEps(s.currentEps, true);
            QTest::qWait(16);
        }
        QVERIFY(waitIdle(c));
        c.waitForIdle();
        QCoreApplication::processEvents(); // what a superseded worker still delivers: dropped
        for (const QList<QVariant>& args : finished)
            QVERIFY2(!args.at(0).toBool(), "a slider step cancelled the running computation");
        QCOMPARE(dropped.size(), 0);
        // Every computation started ran to the end and was shown (a superseded one would not).
        QVERIFY(started.size() >= 1);
        QCOMPARE(changed.size(), started.size());
        QCOMPARE(c.curves()->inputs.eps, s.currentEps);
        const core::AccountingCurves direct = core::accountingCurves(s.inputs(0));
        QCOMPARE(c.curves()->currentSigma, direct.currentSigma);
        QCOMPARE(c.curves()->epsBySigma[1], direct.epsBySigma[1]);
        QCOMPARE(c.curves()->epsByEpoch[0], direct.epsByEpoch[0]);
        // A change of the schedule is not a slider step: it restarts at once (latest wins).
        s.epochs = 50;
        c.setSettings(s);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.curves()->inputs.epochs, 50);
        QCOMPARE(c.curves()->epsBySigma[0], core::accountingCurves(s.inputs(0)).epsBySigma[0]);
    }

    void aHeldHandleHoldsTheTextsThatStateEpsOrSigma() {
        AccountingController c;
        ui::AccountingPanel panel;
        ui::AccountingView view(&c, &panel);
        QSignalSpy redrawn(&view, &ui::AccountingView::redrawn);
        view.applySettings(digits());
        QVERIFY(waitIdle(c));
        QVERIFY(view.epochChart().title.contains(QStringLiteral("at σ = ")));
        QSlider* slider = view.slider()->slider();
        slider->setSliderDown(true);
        slider->setSliderPosition(slider->value() + 150);
        QVERIFY(c.dragging());
        QVERIFY(waitIdle(c));
        // A held redraw may wait for its interval (kHeldRedrawMs): wait until the epoch chart shows
        // the held curves, so that the readout below is the one a held redraw leaves.
        QTRY_VERIFY(heldCurvesDrawn(view, c));
        QVERIFY(c.upToDate());
        const double heldEps = c.curves()->inputs.eps;
        QVERIFY(heldEps > 1.0);
        // What the view draws while held: the new curves, without the numbers in the texts.
        const ui::charts::ChartData heldEpoch = ui::buildEpochChart(c.settings(), c.curves().get(), true);
        QCOMPARE(heldEpoch.title, QStringLiteral("ε spent during training"));
        for (const auto& series : ui::buildSigmaChart(c.settings(), c.curves().get(), true).series) {
            QVERIFY(!series.name.contains(QStringLiteral(" = ")));
            if (series.key == QStringLiteral("current"))
                QCOMPARE(series.value, c.curves()->currentSigma); // the line itself moves
        }
        QVERIFY(!view.readoutText().contains(QString::number(c.curves()->currentSigma, 'g', 5)));
        slider->setSliderDown(false);
        QVERIFY(!c.dragging());
        QVERIFY(waitIdle(c));
        QVERIFY(view.epochChart().title.contains(
            QStringLiteral("at σ = %1").arg(QString::number(c.curves()->currentSigma, 'g', 4))));
        QVERIFY(view.readoutText().contains(
            QStringLiteral("σ = %1:").arg(QString::number(c.curves()->currentSigma, 'g', 5))));
        QVERIFY(view.tableText().contains(QStringLiteral("σ for ε = %1").arg(QString::number(heldEps, 'g', 4))));
        // Hovering the σ chart: the readout at that σ arrives from the worker.
        for (auto* chart : view.findChildren<ui::charts::ChartView*>())
            emit chart->hovered(QPointF(2.0, 1.0));
        QTRY_VERIFY(view.readoutText().startsWith(QStringLiteral("σ = 2:")));
        QCOMPARE(view.readoutText(), ui::accountingReadout(*c.curves(), 2.0));
    }

    // The table changes while the slider moves: a new table of the same height does not lay the
    // view out again (a layout resizes and repaints both charts); a taller one does.
    void aNewTableOfTheSameHeightDoesNotLayOutTheView() {
        AccountingController c;
        ui::AccountingPanel panel;
        ui::AccountingView view(&c, &panel);
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.applySettings(digits());
        QVERIFY(waitIdle(c));
        test::settle();
        auto* table = view.findChild<QLabel*>(QStringLiteral("accountingTable"));
        QVERIFY(table && table->text().contains(QStringLiteral("<table")));
        const int chartHeight = view.findChild<ui::charts::ChartView*>()->height();
        const test::Relayouts relayouts = test::relayoutsForNewTexts(view, *table); // a new σ, the same rows
        QCOMPARE(relayouts.sameShape, 0);
        QVERIFY(relayouts.taller > 0);
        QVERIFY(view.findChild<ui::charts::ChartView*>()->height() < chartHeight); // the layout made room
    }

    void anEpsOneAccountantCannotReachIsShownForTheOthers() {
        AccountingController c;
        ui::AccountingPanel panel;
        ui::AccountingView view(&c, &panel);
        AccountingSettings s = digits();
        s.accountant = core::AccountantKind::Rdp; // calibrating with the accountant that reaches no σ
        s.nPublic = true;                         // the add/remove accountants' own ε(σ), whose jumps this is about
        s.rows = 120; // q = 0.83, T = 200: RDP reaches no ε in (0, ≈ 0.004) with σ ≤ 10⁶
        s.delta = 1e-5;
        s.currentEps = 0.001;
        view.applySettings(s);
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        const auto curves = c.curves();
        QVERIFY(curves && curves->inputs.eps == 0.001);
        QVERIFY(!curves->reached(0) && curves->reached(1) && curves->reached(2));
        QVERIFY(std::isinf(curves->currentSigma));
        const QString status = view.findChild<QLabel*>(QStringLiteral("accountingStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("No noise multiplier σ ≤ 10⁶ reaches ε = 0.001 under RDP")),
                 qPrintable(status));
        QVERIFY(view.tableText().contains(QStringLiteral("none ≤ 10⁶")));
        QVERIFY(view.epochChart().title.contains(QStringLiteral("no σ ≤ 10⁶ reaches ε = 0.001")));
        for (const auto& series : view.sigmaChart().series) {
            QVERIFY(series.key != QStringLiteral("current")); // no current σ to mark
            for (const QPointF& point : series.points)
                QVERIFY(std::isfinite(point.x()) && std::isfinite(point.y()));
        }
        // With AC calibrating, its σ is current again and the spending curves are drawn.
        s.accountant = core::AccountantKind::AdvancedComposition;
        view.applySettings(s);
        QVERIFY(waitIdle(c));
        QVERIFY(std::isfinite(c.curves()->currentSigma));
        QVERIFY(!view.readoutText().isEmpty());
        const QString after = view.findChild<QLabel*>(QStringLiteral("accountingStatus"))->text();
        QVERIFY(after.contains(QStringLiteral("the others are shown")));
        // 333 rows (penguins): RDP's ε(σ) drops from ≈ 0.004 to 0 past the KL bound below 10⁶, so
        // its σ certifies ε = 0 — below the target, which the table says without calling it less.
        s.accountant = core::AccountantKind::Rdp;
        s.rows = 333;
        view.applySettings(s);
        QVERIFY(waitIdle(c));
        QVERIFY(c.curves()->reached(0) && !c.curves()->needed[0].reachedTarget);
        QCOMPARE(c.curves()->needed[0].result.epsilon, 0.0);
        QVERIFY2(view.tableText().contains(QStringLiteral("ε jumps past the target: certifies ε = 0")),
                 qPrintable(view.tableText()));
    }

    void chartsTableAndReadout() {
        AccountingController c;
        c.setSettings(digits());
        QVERIFY(waitIdle(c));
        const ui::charts::ChartData sigma = ui::buildSigmaChart(c.settings(), c.curves().get());
        QVERIFY(sigma.logX && sigma.logY);
        QStringList keys;
        for (const auto& series : sigma.series)
            keys << series.key;
        QVERIFY(keys.contains(QStringLiteral("eps:rdp")) && keys.contains(QStringLiteral("eps:ac")) &&
                keys.contains(QStringLiteral("eps:zcdp-published")) && keys.contains(QStringLiteral("current")));
        for (const auto& series : sigma.series)
            if (series.key == QStringLiteral("current"))
                QCOMPARE(series.value, c.curves()->currentSigma);
        const QString table = ui::accountingTableHtml(c.curves().get());
        QVERIFY(table.contains(QStringLiteral("advanced composition")));
        QVERIFY(table.contains(QStringLiteral("⚠"))); // the published zCDP procedure is flagged
        // N not declared (the default): every ε is replace-one at the fixed N; declared: add/remove.
        QVERIFY(!c.curves()->inputs.nPublic);
        QVERIFY(ui::accountingAssumptions(c.curves().get()).contains(QStringLiteral("replace one row at the fixed N")));
        const QString readout = ui::accountingReadout(*c.curves(), 2.0);
        const core::SgdPrivacyParams p{2.0, 100.0 / 1439.0, 1500, 1e-4};
        QVERIFY(
            readout.contains(QString::number(core::replaceOneEpsilon(core::AccountantKind::Rdp, p).epsilon, 'g', 6)));
        core::AccountingCurves open = *c.curves();
        open.inputs.nPublic = true;
        QVERIFY(ui::accountingReadout(open, 2.0).contains(
            QString::number(core::accountEpsilon(core::AccountantKind::Rdp, p).epsilon, 'g', 6)));
        // At the current σ the readout reads the worker's accounting (the spending curves' last
        // epoch): the same numbers as accounting on this thread.
        const double current = c.curves()->currentSigma;
        const QString atCurrent = ui::accountingReadout(*c.curves(), current);
        for (core::AccountantKind kind : core::kAccountants) {
            const core::SgdPrivacyParams q{current, 100.0 / 1439.0, 1500, 1e-4};
            QVERIFY2(atCurrent.contains(QStringLiteral("%1: ε = %2")
                                            .arg(QString::fromLatin1(core::toString(kind)),
                                                 QString::number(core::replaceOneEpsilon(kind, q).epsilon, 'g', 6))),
                     qPrintable(atCurrent));
        }
        QVERIFY(atCurrent.contains(QStringLiteral("(not a proof)")));
        // A hovered σ: accounted off the GUI thread, the latest one asked delivered.
        QSignalSpy ready(&c, &AccountingController::readoutReady);
        c.requestReadout(0.7);
        c.requestReadout(2.0);
        QVERIFY(waitIdle(c));
        QTRY_VERIFY(!ready.isEmpty());
        QCOMPARE(ready.last().at(0).toDouble(), 2.0);
        QCOMPARE(ready.last().at(1).toString(), readout);
        const ui::charts::ChartData epochs = ui::buildEpochChart(c.settings(), c.curves().get());
        QVERIFY(!epochs.logX);
        QCOMPARE(epochs.xMax, 100.0);
    }

    // PLD beside the others, with the core accountant's own numbers, computed here directly (not
    // through accountingCurves): its ε(σ) curve, its σ for ε in the table with its noise against
    // RDP's, its spending curve, its readout line, and the panel calibrating with it.
    void pldIsShownWithTheCoresValues() {
        AccountingController c;
        ui::AccountingPanel panel;
        ui::AccountingView view(&c, &panel);
        AccountingSettings s = digits();
        s.accountant = core::AccountantKind::Rdp;
        view.applySettings(s);
        QVERIFY(waitIdle(c));
        const core::SgdPrivacyParams base{1.0, 100.0 / 1439.0, 1500, 1e-4};
        const auto pld = core::calibrateSigmaReplaceOneWithinLimit(core::AccountantKind::Pld, 1.0, base);
        const auto rdp = core::calibrateSigmaReplaceOneWithinLimit(core::AccountantKind::Rdp, 1.0, base);
        QVERIFY(pld && rdp);
        QVERIFY2(pld->sigma < rdp->sigma,
                 qPrintable(QStringLiteral("PLD σ %1, RDP σ %2").arg(pld->sigma).arg(rdp->sigma)));

        const ui::charts::ChartData sigma = view.sigmaChart();
        const auto line = std::find_if(sigma.series.begin(), sigma.series.end(),
                                       [](const auto& series) { return series.key == QStringLiteral("eps:pld"); });
        QVERIFY(line != sigma.series.end());
        QCOMPARE(line->name, QStringLiteral("PLD"));
        QCOMPARE(line->points.size(), qsizetype(c.curves()->sigmas.size()));
        for (const QPointF& point : line->points) {
            core::SgdPrivacyParams p = base;
            p.sigma = point.x();
            QCOMPARE(point.y(), core::replaceOneEpsilon(core::AccountantKind::Pld, p).epsilon);
        }
        // Its row: title, σ for ε = 1 and the noise against RDP's σ.
        const QString table = view.tableText();
        const QString title = QString::fromStdString(core::accountantTitle(core::AccountantKind::Pld));
        const qsizetype at = table.indexOf(title);
        QVERIFY2(at >= 0, qPrintable(table));
        const QString row = table.mid(at, table.indexOf(QStringLiteral("</tr>"), at) - at);
        QVERIFY2(row.contains(QStringLiteral(">%1<").arg(QString::number(pld->sigma, 'g', 4))), qPrintable(row));
        QVERIFY2(row.contains(QStringLiteral(">%1×<").arg(QString::number(pld->sigma / rdp->sigma, 'g', 3))),
                 qPrintable(row));
        core::SgdPrivacyParams atPld = base;
        atPld.sigma = pld->sigma;
        const double rdpOfPld = core::replaceOneEpsilon(core::AccountantKind::Rdp, atPld).epsilon;
        QVERIFY(rdpOfPld > 1.0); // RDP cannot prove ε = 1 for PLD's σ
        QVERIFY2(row.contains(QStringLiteral(">%1<").arg(QString::number(rdpOfPld, 'g', 4))), qPrintable(row));
        // Its spending curve at RDP's σ (the calibrating accountant) ends at PLD's ε for that σ.
        core::SgdPrivacyParams atRdp = base;
        atRdp.sigma = c.curves()->currentSigma;
        QCOMPARE(c.curves()->currentSigma, rdp->sigma);
        const ui::charts::ChartData epochs = view.epochChart();
        const auto spent = std::find_if(epochs.series.begin(), epochs.series.end(),
                                        [](const auto& series) { return series.key == QStringLiteral("spent:pld"); });
        QVERIFY(spent != epochs.series.end() && !spent->points.isEmpty());
        const double pldOfRdp = core::replaceOneEpsilon(core::AccountantKind::Pld, atRdp).epsilon;
        QCOMPARE(spent->points.back().y(), pldOfRdp);
        QVERIFY(pldOfRdp < 1.0); // RDP's σ buys less ε than RDP says
        QVERIFY2(view.readoutText().contains(QStringLiteral("pld: ε = %1").arg(QString::number(pldOfRdp, 'g', 6))),
                 qPrintable(view.readoutText()));
        // The panel offers PLD for calibration; chosen, the current σ is PLD's.
        auto* combo = panel.findChild<QComboBox*>(QStringLiteral("accountingAccountantCombo"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), qsizetype(core::kAccountantKinds.size()));
        const int item = combo->findText(title);
        QVERIFY(item >= 0);
        combo->setCurrentIndex(item);
        QCOMPARE(panel.settings().accountant, core::AccountantKind::Pld);
        QVERIFY(waitIdle(c));
        QCOMPARE(c.curves()->currentSigma, pld->sigma);
    }

    void tableShowsTheSweepsCost() {
        AccountingController c;
        ui::AccountingPanel panel;
        ui::AccountingView view(&c, &panel);
        view.applySettings(digits());
        QVERIFY(waitIdle(c));
        QVERIFY(!view.tableText().contains(QStringLiteral("in the sweep")));
        ui::SweepForCost sweep;
        for (double e : {0.1, 1.0, 10.0}) {
            sweep.curve.eps.push_back(e);
            sweep.curve.value.push_back(0.6 + 0.1 * std::log10(e));
        }
        sweep.schedule = {1.0, 100.0 / 1439.0, 1500, 1e-4};
        sweep.metric = QStringLiteral("test accuracy");
        sweep.description = QStringLiteral("N = 1439");
        sweep.accountant = core::AccountantKind::Rdp; // the sweep calibrated with RDP
        c.setSweep(sweep);                            // the costs are computed with the curves, off the GUI thread
        QVERIFY(waitIdle(c));
        QVERIFY(c.upToDate());
        QCOMPARE(c.costs().size(), core::kAccountantKinds.size());
        const QString table = view.tableText();
        QVERIFY(table.contains(QStringLiteral("test accuracy in the sweep")));
        QVERIFY2(table.contains(QStringLiteral("0.600 (±0.000)")), qPrintable(table)); // RDP against itself: no cost
        const core::UtilityCost ac = core::utilityCost(sweep.curve, core::AccountantKind::Rdp, sweep.schedule,
                                                       core::AccountantKind::AdvancedComposition, 1.0, true);
        QVERIFY2(table.contains(QStringLiteral("outside the sweep")) == !ac.value, qPrintable(table));
    }

    void theScheduleFollowsTheUtilityTabUntilEdited() {
        // One source of truth: the Utility tab publishes its applied settings in the shared state
        // (as UtilityView does after every apply); the accounting tab takes N, S, epochs, δ and the
        // accountant from them while "Follow the Utility tab" is ticked, and an edit here unticks it.
        class Host : public ui::ViewHost {
        public:
            ui::SharedState shared;
            void showStatusMessage(const QString&, int) override {}
            ui::SharedState* sharedState() const override { return const_cast<ui::SharedState*>(&shared); }
        } host;
        auto publish = [&](int batch, int epochs, core::MechanismKind kind) {
            ui::UtilitySweepSnapshot u;
            core::selectMechanism(u.settings.mechanism, kind);
            u.settings.mechanism.sgd.batchSize = batch;
            u.settings.mechanism.sgd.epochs = epochs;
            u.settings.mechanism.privacy.delta = 1e-6;
            u.prepared = true;
            u.trainRows = 1258;
            host.shared.publishUtilitySweep(u);
        };
        QWidget parent;
        ui::AccountingTab tab(&parent, host);
        auto* panel = qobject_cast<ui::AccountingPanel*>(tab.sidePanel());
        QVERIFY(panel);
        auto* batch = panel->findChild<QSpinBox*>(QStringLiteral("accountingBatchSpin"));
        auto* follow = panel->findChild<QCheckBox*>(QStringLiteral("accountingFollowUtilityCheck"));
        auto* source = panel->findChild<QLabel*>(QStringLiteral("accountingSource"));
        QVERIFY(batch && follow && source);
        QVERIFY(follow->isChecked()); // a new window follows

        publish(64, 30, core::MechanismKind::Dpsgd);
        QCOMPARE(batch->value(), 64);
        QCOMPARE(panel->settings().epochs, 30);
        QCOMPARE(panel->settings().rows, 1258LL); // the rows the Utility tab trains on
        QCOMPARE(panel->settings().delta, 1e-6);
        QCOMPARE(tab.view()->composedSettings().batchSize, 64.0); // and what the tab computes with
        QVERIFY(source->text().contains(QStringLiteral("Utility tab's DP-SGD")));

        publish(128, 30, core::MechanismKind::Dpsgd);
        QCOMPARE(batch->value(), 128);

        // Another mechanism there: the tab keeps its schedule and says so.
        publish(32, 30, core::MechanismKind::ObjPertGauss);
        QCOMPARE(batch->value(), 128);
        QVERIFY(source->text().contains(QStringLiteral("does not train in epochs")));

        // An edit here detaches the tab: later Utility settings are not taken.
        publish(128, 30, core::MechanismKind::Dpsgd);
        batch->setValue(200);
        QVERIFY(!follow->isChecked());
        QVERIFY(!panel->settings().followUtility);
        publish(256, 30, core::MechanismKind::Dpsgd);
        QCOMPARE(batch->value(), 200);
        QVERIFY(source->text().contains(QStringLiteral("own schedule")));

        // Ticking it again takes the Utility tab's settings at once.
        follow->setChecked(true);
        QCOMPARE(batch->value(), 256);

        // Sessions keep the choice; a session written before it (no key) keeps its own schedule.
        ui::Session session;
        tab.saveSettings(session);
        QVERIFY(ui::accountingSettingsOf(session)->followUtility);
        nlohmann::json old = ui::detail::toJson(panel->settings());
        old.erase("follow_utility");
        QVERIFY(!ui::detail::accountingSettingsFromJson(old).followUtility);
    }

    void thePanelDeclaresNPublic() {
        ui::AccountingPanel panel;
        panel.setSettings(digits());
        QSignalSpy changed(&panel, &ui::AccountingPanel::settingsChanged);
        auto* check = panel.findChild<QCheckBox*>(QStringLiteral("accountingPublicRowsCheck"));
        QVERIFY(check && !check->isChecked());
        check->setChecked(true);
        QCOMPARE(changed.size(), 1);
        QVERIFY(panel.settings().nPublic);
        QVERIFY(panel.settings().inputs(0).nPublic);
    }

    void sessionRoundTripAndBadBlocks() {
        ui::Session session;
        AccountingSettings s = digits();
        s.accountant = core::AccountantKind::AdvancedComposition;
        s.nPublic = true;
        ui::storeAccountingSettings(session, s);
        QCOMPARE(*ui::accountingSettingsOf(session), s);
        QCOMPARE(ui::detail::toJson(s)["n_public"], true);
        nlohmann::json bad = ui::detail::toJson(s);
        bad["accountant"] = "moments";
        try {
            (void)ui::detail::accountingSettingsFromJson(bad);
            QFAIL("an unknown accountant was accepted");
        } catch (const std::runtime_error& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("accounting.accountant")));
        }
        bad = ui::detail::toJson(s);
        bad["delta"] = 2.0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::accountingSettingsFromJson(bad));
    }

    void tabExportsTwoFigures() {
        QWidget window;
        NoHost host;
        const ui::ViewType* type = ui::findViewType(QStringLiteral("accounting"));
        QVERIFY(type);
        auto view = type->create(&window, host);
        auto* tab = dynamic_cast<ui::AccountingTab*>(view.get());
        QVERIFY(tab);
        tab->view()->applySettings(digits());
        QVERIFY(waitIdle(*tab->accountingController()));
        QVERIFY(tab->complete());
        const auto figures = tab->figures();
        QCOMPARE(figures.size(), 2);
        const QByteArray sidecar = figures[0].sidecar(ui::Session{}, QStringLiteral("a.png"));
        const auto j = nlohmann::json::parse(sidecar.toStdString());
        const auto& accountants = j["export"]["accounting"]["accountants"];
        QCOMPARE(accountants.size(), core::kAccountantKinds.size());
        QVERIFY(std::any_of(accountants.begin(), accountants.end(), [](const nlohmann::json& a) {
            return a["accountant"] == "pld" && a["proven"] == true && a["sigma_for_eps"].is_number();
        }));
        QCOMPARE(j["export"]["accounting"]["steps"].get<long long>(), 1500LL);
        QVERIFY(!tab->view()->tableText().isEmpty());
    }
};

QTEST_MAIN(TestAccountingView)
#include "test_accounting_view.moc"
