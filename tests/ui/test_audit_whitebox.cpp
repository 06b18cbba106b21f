// The Audit tab's white-box method (DP-SGD with gradient canaries): chosen in the Method menu it
// shows its own settings only, audits with progress through the job, and its verdict, details,
// histograms and numbers are the core's runWhiteboxAudit with the same spec and seed; another
// mechanism is refused in the tab's words; Cancel leaves no verdict; the CSV and JSON sidecar hold
// every trial; sessions keep the method and its settings, and older sessions read as before.

#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_export.h"
#include "ui/views/audit/audit_panel.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/audit/audit_tab.h"
#include "ui/views/audit/audit_view.h"
#include "ui/widgets/eps_text.h"

#include "core/audit/whitebox_dpsgd_audit.h"
#include "core/data/data_preparation.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"

#include "tests/support/generated_data.h"
#include "tests/support/gui_test_support.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <cmath>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::AuditSettings;

namespace {

class NoHost : public ui::ViewHost {
public:
    void showStatusMessage(const QString&, int) override {}
};

ui::LoadedDataset loaded() {
    ui::LoadedDataset l;
    l.data = elab::test::generated("moons", 200, 2, 0.25);
    return l;
}

/// DP-SGD at ε = 2, a short schedule, 40 trainings seeing the residual (moons has no feature that
/// is 0 in every row, so the iterates view has nowhere to put a canary).
AuditSettings whiteboxSettings() {
    AuditSettings s;
    core::selectMechanism(s.mechanism, core::MechanismKind::Dpsgd);
    s.mechanism.sgd.epochs = 2;
    s.seed = 5;
    s.currentEps = 2.0;
    s.whiteboxRuns = 40;
    s.whiteboxView = core::WhiteboxView::Residual;
    s.method = ui::AuditMethod::OneRun; // the test picks white-box from the menu
    return s;
}

/// The core's audit with the controller's data preparation.
core::WhiteboxAuditResult coreAudit(const ui::LoadedDataset& l, const AuditSettings& s) {
    core::DataPreparation preparation;
    preparation.testFraction = s.testFraction;
    preparation.preprocess = s.preprocess;
    const core::PreparedData prepared = core::prepareExperimentData(*l.data, std::nullopt, preparation, s.seed);
    return core::runWhiteboxAudit(core::sweepDataOf(prepared.train), s.toWhiteboxSpec());
}

/// The trials a histogram outline counts: its bins' heights summed (every bin drawn twice).
double counted(const ui::charts::SeriesData& outline) {
    double sum = 0.0;
    for (qsizetype k = 1; k + 1 < outline.points.size(); k += 2)
        sum += outline.points[k].y();
    return sum;
}

} // namespace

class TestAuditWhitebox : public QObject {
    Q_OBJECT

private slots:
    void whiteboxModeEqualsTheCoreAudit() {
        QWidget window;
        NoHost host;
        ui::AuditTab tab(&window, host);
        const ui::LoadedDataset data = loaded();
        tab.view()->applySettings(whiteboxSettings());
        tab.prepareDataset(data);
        tab.setDataset(data);
        tab.becameCurrent();
        ui::AuditController* c = tab.auditController();
        QVERIFY(waitIdle(*c));

        // Its settings appear with the method, the other methods' disappear.
        auto* panel = tab.sidePanel();
        auto* method = panel->findChild<QComboBox*>(QStringLiteral("auditMethodCombo"));
        auto* trainings = panel->findChild<QSpinBox*>(QStringLiteral("auditWhiteboxRunsSpin"));
        auto* sees = panel->findChild<QComboBox*>(QStringLiteral("auditWhiteboxViewCombo"));
        auto* runs = panel->findChild<QSpinBox*>(QStringLiteral("auditRunsSpin"));
        QVERIFY(method && trainings && sees && runs);
        QVERIFY(!trainings->isVisibleTo(panel));
        QVERIFY(!sees->isVisibleTo(panel));

        QSignalSpy progress(c->auditSlot(), &ui::JobSlot::progress);
        const int whitebox = method->findData(int(ui::AuditMethod::Whitebox));
        QVERIFY(whitebox >= 0);
        method->setCurrentIndex(whitebox);
        QVERIFY(trainings->isVisibleTo(panel));
        QVERIFY(sees->isVisibleTo(panel));
        QVERIFY(!runs->isVisibleTo(panel));
        QCOMPARE(trainings->value(), 40);
        QCOMPARE(sees->currentData().toInt(), int(core::WhiteboxView::Residual));
        QVERIFY(waitIdle(*c, 300000));
        QVERIFY2(c->lastError().isEmpty(), qPrintable(c->lastError()));
        QVERIFY(tab.complete());
        QVERIFY(!progress.isEmpty()); // the trainings reported through the job
        QVERIFY(c->state().whitebox);
        QVERIFY(!c->state().result && !c->state().oneRun);

        // The core's audit with the same spec and seed, number for number.
        const AuditSettings applied = c->settings();
        QCOMPARE(applied.method, ui::AuditMethod::Whitebox);
        const core::WhiteboxAuditResult expected = coreAudit(data, applied);
        const core::WhiteboxAuditResult& r = *c->state().whitebox;
        QCOMPARE(r.runs, 40);
        QCOMPARE(r.view, core::WhiteboxView::Residual);
        QCOMPARE(r.canaries.size(), expected.canaries.size());
        QVERIFY(r.scoresOut == expected.scoresOut);
        QVERIFY(r.scoresIn == expected.scoresIn);
        QCOMPARE(r.bound.epsLB, expected.bound.epsLB);
        QCOMPARE(r.bound.threshold, expected.bound.threshold);
        QCOMPARE(r.bound.maxCertifiable, expected.bound.maxCertifiable);
        QCOMPARE(r.sigma, expected.sigma);

        // The verdict and the details.
        QCOMPARE(tab.view()->verdictText().toLower(),
                 QString::fromStdString(core::whiteboxAuditVerdict(expected)).toLower());
        QVERIFY2(tab.view()->verdictText().startsWith(QStringLiteral("Consistent with the claim")),
                 qPrintable(tab.view()->verdictText()));
        const QString details = tab.view()->detailsText();
        const QString epsLB = ui::formatNumber(expected.bound.epsLB, 3, ui::NumberForm::Printf);
        QVERIFY2(details.contains(QStringLiteral("<b>ε_LB = %1</b>").arg(epsLB)), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("40 trainings")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("%1 weights per run").arg(expected.canaries.size())),
                 qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("at most")));
        QVERIFY(details.contains(QStringLiteral(" s")));

        // The two histograms hold every trial of each side, with τ; the bound chart has the claim.
        const auto scores = tab.view()->scoreChart();
        QVERIFY(scores.series.size() >= 3);
        QCOMPARE(scores.series[0].key, QStringLiteral("out"));
        QCOMPARE(scores.series[1].key, QStringLiteral("in"));
        QCOMPARE(counted(scores.series[0]), double(expected.scoresOut.size()));
        QCOMPARE(counted(scores.series[1]), double(expected.scoresIn.size()));
        QCOMPARE(scores.series[2].kind, ui::charts::SeriesKind::VerticalLine);
        QCOMPARE(scores.series[2].value, expected.bound.threshold);
        const auto bound = tab.view()->boundChart();
        bool claim = false, observed = false;
        for (const auto& series : bound.series) {
            claim = claim || (series.key == QStringLiteral("claim") && series.value == 2.0);
            observed = observed || (series.key == QStringLiteral("observed") && series.points.size() == 1 &&
                                    series.points[0].x() == expected.bound.pointEstimate);
        }
        QVERIFY(claim);
        QVERIFY(observed);
        QCOMPARE(bound.yCategories.size(), 1);
        QCOMPARE(bound.yCategories[0], QStringLiteral("white-box: %1").arg(epsLB));

        // The exports: one CSV row per trial, the sidecar with the core's numbers.
        const auto figures = tab.figures();
        QCOMPARE(figures.size(), 2);
        const QList<QByteArray> lines = figures[0].csv().trimmed().split('\n');
        QCOMPARE(lines.size(), static_cast<qsizetype>(expected.scoresOut.size()) + 1);
        QCOMPARE(lines[0], QByteArray("run,trial,score_out,score_in"));
        const auto j = nlohmann::json::parse(figures[0].sidecar(ui::Session{}, QStringLiteral("a.png")).toStdString());
        QCOMPARE(j["export"]["method"].get<std::string>(), std::string("whitebox"));
        const auto& audit = j["export"]["audits"][0];
        QCOMPARE(audit["method"].get<std::string>(), std::string("whitebox"));
        QCOMPARE(audit["eps_lb"].get<double>(), expected.bound.epsLB);
        QCOMPARE(audit["scores_in"].size(), expected.scoresIn.size());
        QVERIFY(j["export"]["complete"].get<bool>());
    }

    void otherMechanismsAreRefusedInTheTabsWords() {
        QWidget window;
        NoHost host;
        ui::AuditTab tab(&window, host);
        AuditSettings s = whiteboxSettings();
        s.method = ui::AuditMethod::Whitebox;
        core::MechanismKind other = s.mechanism.kind;
        for (core::MechanismKind kind : core::privateMechanisms())
            if (!core::mechanismInfo(kind).trainsInEpochs)
                other = kind;
        QVERIFY(other != s.mechanism.kind);
        core::selectMechanism(s.mechanism, other);
        tab.view()->applySettings(s);
        tab.prepareDataset(loaded());
        tab.setDataset(loaded());
        tab.becameCurrent();
        ui::AuditController* c = tab.auditController();
        QVERIFY(waitIdle(*c));
        QVERIFY2(c->lastError().contains(QStringLiteral("white-box method")), qPrintable(c->lastError()));
        QVERIFY2(c->lastError().contains(QString::fromUtf8(core::mechanismInfo(other).title)),
                 qPrintable(c->lastError()));
        QVERIFY(!tab.complete());
        QVERIFY(!c->state().whitebox);
    }

    void cancelLeavesNoVerdict() {
        QWidget window;
        NoHost host;
        ui::AuditTab tab(&window, host);
        AuditSettings s = whiteboxSettings();
        s.method = ui::AuditMethod::Whitebox;
        s.whiteboxRuns = 100000; // far more than the test waits for
        tab.view()->applySettings(s);
        tab.prepareDataset(loaded());
        tab.setDataset(loaded());
        ui::AuditController* c = tab.auditController();
        QSignalSpy progress(c->auditSlot(), &ui::JobSlot::progress);
        tab.becameCurrent();
        QVERIFY(progress.wait(60000));
        c->cancel();
        QVERIFY(waitIdle(*c));
        QVERIFY(!tab.complete());
        QVERIFY(!c->state().whitebox);
        QVERIFY(tab.view()->verdictText().isEmpty());
    }

    void sessionsKeepTheMethodAndOlderOnesReadAsBefore() {
        AuditSettings s = whiteboxSettings();
        s.method = ui::AuditMethod::Whitebox;
        s.whiteboxRuns = 123;
        ui::Session session;
        ui::storeAuditSettings(session, s);
        const auto back = ui::auditSettingsOf(session);
        QVERIFY(back);
        QVERIFY(*back == s);
        QCOMPARE(back->method, ui::AuditMethod::Whitebox);
        QCOMPARE(back->whiteboxRuns, 123);
        QCOMPARE(back->whiteboxView, core::WhiteboxView::Residual);

        // A block written before the white-box method: its defaults; before the method: two datasets.
        nlohmann::json old = ui::detail::toJson(s);
        old.erase("whitebox_runs");
        old.erase("whitebox_view");
        old["method"] = "one-run";
        const AuditSettings read = ui::detail::auditSettingsFromJson(old);
        QCOMPARE(read.method, ui::AuditMethod::OneRun);
        QCOMPARE(read.whiteboxRuns, AuditSettings{}.whiteboxRuns);
        QCOMPARE(read.whiteboxView, AuditSettings{}.whiteboxView);
        old.erase("method");
        QCOMPARE(ui::detail::auditSettingsFromJson(old).method, ui::AuditMethod::TwoDatasets);

        nlohmann::json bad = ui::detail::toJson(s);
        bad["whitebox_view"] = "final-model";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::auditSettingsFromJson(bad));
        bad = ui::detail::toJson(s);
        bad["whitebox_runs"] = 1;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::auditSettingsFromJson(bad));
    }
};

QTEST_MAIN(TestAuditWhitebox)
#include "test_audit_whitebox.moc"
