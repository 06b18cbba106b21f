// The Private dropout (PTR) teaching view (issue 14; MATH.md §3.5): the controller computes the
// core's Λ of the binarised features, one release at the slider's ε (the core's, same seed) and a
// pass fraction within 4σ/√N of the Laplace formula; the charts draw the formula, the threshold
// and Λ; the readout states the (2ε, δ) guarantee; the settings survive a session and a bad block
// is refused naming the field; the tab exports two figures with sidecars; a drag of the slider
// shows releases (a step waits for the running one instead of restarting it; the legends leave
// their numbers out while the handle is held).

#include <tbb/global_control.h>

#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/views/ptr/ptr_chart_model.h"
#include "ui/views/ptr/ptr_controller.h"
#include "ui/views/ptr/ptr_tab.h"
#include "ui/views/ptr/ptr_view.h"
#include "ui/views/view_catalog.h"

#include "core/util/random.h"

#include "tests/support/generated_data.h"
#include "tests/support/gui_test_support.h"
#include "tests/ui/gui_test_support.h"

#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::PtrController;
using elab::ui::PtrSettings;

namespace {

/// 2,000 blob rows; binarised at 0.0 each feature is 1 in a good share of them (checked below).
std::shared_ptr<const core::Dataset> blobs() { return elab::test::generated("blobs", 2000, 2, 0.3); }

PtrSettings settings(double eps) {
    PtrSettings s;
    s.currentEps = eps;
    s.runs = 20000;
    s.seed = 13;
    return s;
}

class NoHost : public ui::ViewHost {
public:
    void showStatusMessage(const QString&, int) override {}
};

} // namespace

class TestPtrView : public QObject {
    Q_OBJECT

private slots:
    void controllerComputesTheCoresNumbers() {
        PtrController c;
        const auto data = blobs();
        const core::PtrData direct = core::ptrData(data->features, 0.0);
        QVERIFY2(direct.statistic.lambda > 0.05, qPrintable(QString::number(direct.statistic.lambda)));
        // ε where the test passes with probability near ½: the fraction is most variable there.
        const double eps = 2.0 * std::log(1e5) / (static_cast<double>(data->rows()) * direct.statistic.lambda);
        c.setSettings(settings(eps));
        c.setDataset(data);
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.upToDate());
        const ui::PtrState& st = c.state();
        QCOMPARE(st.data->statistic.lambda, direct.statistic.lambda);
        QCOMPARE(st.data->statistic.argmin, direct.statistic.argmin);
        const core::PtrRelease release = core::ptrRelease(direct, eps, 1e-5, core::deriveSeed(13, 0));
        QCOMPARE(st.release->noisyLambda, release.noisyLambda);
        QCOMPARE(st.release->feature, release.feature);
        const double p = core::ptrPassProbability(direct.statistic.lambda, eps, 1e-5, data->rows());
        const double se = std::sqrt(std::max(p * (1.0 - p), 1.0 / st.runs) / st.runs);
        QVERIFY2(std::abs(st.passFraction - p) <= 4.0 * se,
                 qPrintable(QStringLiteral("%1 vs %2").arg(st.passFraction).arg(p)));
        QVERIFY(p > 0.3 && p < 0.7);
    }

    void chartsAndReadout() {
        PtrController c;
        c.setSettings(settings(5.0));
        c.setDataset(blobs());
        QVERIFY(waitIdle(c));
        const auto pass = ui::buildPassChart(c.settings(), c.state());
        QVERIFY(pass.series.size() >= 3);
        QCOMPARE(pass.series[0].key, QStringLiteral("formula"));
        // The formula's curve rises with ε.
        QVERIFY(pass.series[0].points.front().y() < pass.series[0].points.back().y());
        const auto threshold = ui::buildThresholdChart(c.settings(), c.state());
        bool lambda = false;
        for (const auto& s : threshold.series)
            lambda = lambda || (s.key == QStringLiteral("lambda") && s.value == c.state().data->statistic.lambda);
        QVERIFY(lambda);
        const QString text =
            ui::ptrReadoutHtml(c.settings(), c.state(), [](core::Index j) { return QString::number(j); });
        // ε = 5 is outside the paper's condition ε < 1: no guarantee, and the readout says why.
        QVERIFY2(text.contains(QStringLiteral("Guarantee: none")) && text.contains(QStringLiteral("not below 1")),
                 qPrintable(text));
        QVERIFY(text.contains(c.state().release->passed ? QStringLiteral("passes") : QStringLiteral("fails")));
    }

    void constantFeaturesAreNamed() {
        // Counts of ones per feature over 10 rows: all 10 (always 1) for every feature — positive
        // data binarised at 0 — then one feature that varies.
        ui::PtrSettings s;
        ui::PtrState state;
        auto data = std::make_shared<core::PtrData>();
        data->ones = {10, 10, 10};
        data->statistic.rows = 10;
        data->statistic.lambda = 0.5;
        data->statistic.argmin = 0;
        state.data = data;
        const auto name = [](core::Index j) { return QString::number(j); };
        QVERIFY2(ui::ptrReadoutHtml(s, state, name).contains(QStringLiteral("Every feature is the same in every row")),
                 qPrintable(ui::ptrReadoutHtml(s, state, name)));
        data->ones = {10, 4, 0};
        const QString some = ui::ptrReadoutHtml(s, state, name);
        QVERIFY2(!some.contains(QStringLiteral("Every feature")) &&
                     some.contains(QStringLiteral("2 of 3 features are the same in every row")) &&
                     some.contains(QStringLiteral("1 always 1, 1 never")),
                 qPrintable(some));
        data->ones = {9, 4, 1};
        QVERIFY(!ui::ptrReadoutHtml(s, state, name).contains(QStringLiteral("same in every row")));
    }

    void aDragShowsReleasesAndNeverRestartsOne() {
        PtrController c;
        PtrSettings s = settings(0.5);
        s.runs = 400000; // a step takes longer than a frame
        c.setSettings(s);
        c.setDataset(blobs());
        QVERIFY(waitIdle(c, 120000)); // 400,000 runs: long on a loaded machine
        QSignalSpy started(c.jobSlots().front(), &ui::JobSlot::started);
        QSignalSpy dropped(c.jobSlots().front(), &ui::JobSlot::staleResultDropped);
        QSignalSpy finished(c.jobSlots().front(), &ui::JobSlot::finished);
        QSignalSpy changed(&c, &PtrController::stateChanged);
        for (int k = 1; k <= 30; ++k) {
            s.currentEps = 0.5 * std::pow(20.0, k / 30.0);
            c.setCurrentEps(s.currentEps, true);
            QVERIFY(c.dragging());
            QTest::qWait(16);
        }
        c.setCurrentEps(s.currentEps, false);
        QVERIFY(!c.dragging());
        QVERIFY(waitIdle(c));
        c.waitForIdle();
        QCoreApplication::processEvents();
        QCOMPARE(dropped.size(), 0);
        for (const QList<QVariant>& args : finished)
            QVERIFY(!args.at(0).toBool());
        QVERIFY(started.size() >= 1);
        QCOMPARE(changed.size(), started.size()); // every release computed was shown
        QVERIFY(c.upToDate());
        QCOMPARE(c.state().eps, s.currentEps);
        const core::PtrRelease release =
            core::ptrRelease(*c.state().data, s.currentEps, s.delta, core::deriveSeed(s.seed, 0));
        QCOMPARE(c.state().release->noisyLambda, release.noisyLambda);
        // Held: the legends without their numbers; the lines and points are the same.
        const auto held = ui::buildPassChart(c.settings(), c.state(), true);
        const auto shown = ui::buildPassChart(c.settings(), c.state());
        QCOMPARE(held.series.size(), shown.series.size());
        for (qsizetype i = 0; i < held.series.size(); ++i) {
            QCOMPARE(held.series[i].points, shown.series[i].points);
            QCOMPARE(held.series[i].value, shown.series[i].value);
            if (held.series[i].key != QStringLiteral("formula"))
                QVERIFY2(!held.series[i].name.contains(QStringLiteral(": ")) &&
                             !held.series[i].name.contains(QStringLiteral(" = ")),
                         qPrintable(held.series[i].name));
        }
        for (const auto& series : ui::buildThresholdChart(c.settings(), c.state(), true).series)
            if (series.key == QStringLiteral("noisy") || series.key == QStringLiteral("current"))
                QVERIFY(!series.name.contains(QStringLiteral(" = ")));
    }

    void aNewDatasetDuringADragIsNotHeldForTheOldOne() {
        PtrController c;
        PtrSettings s = settings(0.5);
        s.runs = 400000;
        c.setSettings(s);
        c.setDataset(blobs());
        QVERIFY(waitIdle(c));
        c.setCurrentEps(0.9, true); // a release on blobs runs
        const auto other = elab::test::generated("moons", 1500);
        c.setDataset(other); // a rerun on the new data: not held behind the running release
        QTest::qWait(5);
        c.setCurrentEps(1.1, true);
        c.setCurrentEps(1.1, false);
        QVERIFY(waitIdle(c));
        QVERIFY(c.upToDate());
        QCOMPARE(c.state().data->statistic.lambda, core::ptrData(other->features, s.binariseAt).statistic.lambda);
        QCOMPARE(c.state().eps, 1.1);
    }

    // The readout changes while the slider moves: a new readout of the same height does not lay
    // the view out again (a layout resizes and repaints both charts).
    void aNewReadoutOfTheSameHeightDoesNotLayOutTheView() {
        PtrController c;
        ui::PtrPanel panel;
        ui::PtrView view(&c, &panel);
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.applySettings(settings(1.0));
        c.setDataset(blobs());
        QVERIFY(waitIdle(c));
        test::settle();
        auto* readout = view.findChild<QLabel*>(QStringLiteral("ptrReadout"));
        QVERIFY(readout && !readout->text().isEmpty());
        const test::Relayouts relayouts = test::relayoutsForNewTexts(view, *readout);
        QCOMPARE(relayouts.sameShape, 0);
        QVERIFY(relayouts.taller > 0);
    }

    void sessionRoundTripAndBadBlocks() {
        ui::Session session;
        PtrSettings s = settings(0.7);
        s.binariseAt = 0.25;
        ui::storePtrSettings(session, s);
        QVERIFY(*ui::ptrSettingsOf(session) == s);
        nlohmann::json bad = ui::detail::toJson(s);
        bad["delta"] = 1.5;
        try {
            (void)ui::detail::ptrSettingsFromJson(bad);
            QFAIL("δ = 1.5 was accepted");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("ptr")), e.what());
        }
    }

    void tabExportsTwoFigures() {
        QWidget window;
        NoHost host;
        const ui::ViewType* type = ui::findViewType(QStringLiteral("ptr"));
        QVERIFY(type);
        auto view = type->create(&window, host);
        auto* tab = dynamic_cast<ui::PtrTab*>(view.get());
        QVERIFY(tab);
        tab->view()->applySettings(settings(0.5));
        ui::LoadedDataset loaded;
        loaded.data = blobs();
        tab->setDataset(loaded);
        QVERIFY(waitIdle(*tab->ptrController()));
        QVERIFY(tab->complete());
        const auto figures = tab->figures();
        QCOMPARE(figures.size(), 2);
        const auto j = nlohmann::json::parse(figures[0].sidecar(ui::Session{}, QStringLiteral("a.png")).toStdString());
        QCOMPARE(j["export"]["ptr"]["lambda"].get<double>(), tab->ptrController()->state().data->statistic.lambda);
        QCOMPARE(j["export"]["ptr"]["guarantee"]["epsilon"].get<double>(), 1.0); // 2ε, for ε < 1
        QVERIFY(j["export"]["ptr"]["guarantee"]["delta"].is_null());             // not established numerically
        const QString text = ui::ptrReadoutHtml(tab->ptrController()->settings(), tab->ptrController()->state(),
                                                [](core::Index feature) { return QString::number(feature); });
        QVERIFY2(text.contains(QStringLiteral("(2ε = 1, δ)-DP")), qPrintable(text));
    }
};

QTEST_MAIN(TestPtrView)
#include "test_ptr_view.moc"
