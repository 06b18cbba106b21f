// The Privacy audit view (issue 14): the page shows the chosen mechanism's score histograms with
// the threshold, its bar against the claim, the verdict and the attack's numbers; a drag of the
// slider starts no audit until the handle is released; the settings survive a session round trip
// and a bad block is refused naming the field; the tab exports two figures, the sidecar with every
// run's score and the CSV with one row per run.

#include <tbb/global_control.h>

#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/views/audit/audit_chart_model.h"
#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_export.h"
#include "ui/views/audit/audit_panel.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/audit/audit_tab.h"
#include "ui/views/audit/audit_view.h"
#include "ui/views/view_catalog.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/mechanism_panel.h"

#include "core/mechanisms/mechanism_catalog.h"

#include "tests/support/generated_data.h"
#include "tests/support/gui_test_support.h"

#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::AuditSettings;

namespace {

AuditSettings small() {
    AuditSettings s;
    s.runs = 200;
    s.seed = 3;
    s.currentEps = 2.0;
    return s;
}

class NoHost : public ui::ViewHost {
public:
    void showStatusMessage(const QString&, int) override {}
};

ui::LoadedDataset loaded() {
    ui::LoadedDataset l;
    l.data = elab::test::generated("moons", 200, 2, 0.25);
    return l;
}

} // namespace

class TestAuditView : public QObject {
    Q_OBJECT

private slots:
    void showsTheAuditAndStartsOnlyOnRelease() {
        QWidget window;
        NoHost host;
        ui::AuditTab tab(&window, host);
        tab.view()->applySettings(small());
        tab.prepareDataset(loaded());
        tab.setDataset(loaded());
        tab.becameCurrent();
        ui::AuditController* c = tab.auditController();
        QVERIFY(waitIdle(*c));
        QVERIFY(tab.complete());
        QVERIFY2(tab.view()->verdictText().startsWith(QStringLiteral("Consistent with the claim")),
                 qPrintable(tab.view()->verdictText()));
        QVERIFY(tab.view()->detailsText().contains(QStringLiteral("Canary")));
        // The mechanism form, whose measurement this view does not use, finds nothing wrong with the
        // audit's training choice (no held-out rows).
        const auto* form = tab.sidePanel()->findChild<ui::MechanismPanel*>();
        QVERIFY(form);
        QVERIFY2(form->problemText().isEmpty(), qPrintable(form->problemText()));
        const auto scores = tab.view()->scoreChart();
        QCOMPARE(scores.series.size(), 3); // D, D′ and τ
        QCOMPARE(scores.series[2].kind, ui::charts::SeriesKind::VerticalLine);
        QCOMPARE(scores.series[2].value, c->state().result->bound.threshold);
        const auto bound = tab.view()->boundChart();
        QVERIFY(bound.series.size() >= 2);
        bool claim = false;
        for (const auto& series : bound.series)
            claim = claim || (series.key == QStringLiteral("claim") && series.value == 2.0);
        QVERIFY(claim);
        // Beside the bound, what the attack observed (no confidence), at its own x.
        bool observed = false;
        for (const auto& series : bound.series)
            observed = observed || (series.key == QStringLiteral("observed") && series.points.size() == 1 &&
                                    series.points[0].x() == c->state().result->bound.pointEstimate);
        QVERIFY(observed);

        // A drag starts nothing; the release audits at the new ε.
        QSignalSpy started(c->auditSlot(), &ui::JobSlot::started);
        QSlider* slider = tab.view()->slider()->slider();
        slider->setSliderDown(true);
        slider->setValue(ui::EpsSlider::positionForEps(0.5));
        // Idle: a change the drag scheduled (the one-frame coalescing) would have run its audit.
        QVERIFY(waitIdle(*c));
        QCOMPARE(started.count(), 0);
        QCOMPARE(c->settings().currentEps, 2.0);
        slider->setSliderDown(false);
        QVERIFY(waitIdle(*c));
        QCOMPARE(started.count(), 1);
        const double released = ui::EpsSlider::epsForPosition(ui::EpsSlider::positionForEps(0.5)); // 0.501
        QCOMPARE(c->settings().currentEps, released);
        QCOMPARE(c->state().result->claimedEps, released);
    }

    void sessionRoundTripAndBadBlocks() {
        ui::Session session;
        AuditSettings s = small();
        s.compareAll = true;
        s.canaryRow = 7;
        s.alpha = 0.01;
        ui::storeAuditSettings(session, s);
        QVERIFY(*ui::auditSettingsOf(session) == s);
        nlohmann::json bad = ui::detail::toJson(s);
        bad["runs"] = "many";
        try {
            (void)ui::detail::auditSettingsFromJson(bad);
            QFAIL("a non-integer run count was accepted");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("audit.runs")), e.what());
        }
        bad = ui::detail::toJson(s);
        bad["runs"] = 3;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::auditSettingsFromJson(bad));
        bad = ui::detail::toJson(s);
        bad.erase("alpha");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::auditSettingsFromJson(bad));
    }

    void oneRunModeShowsTheCanariesAndItsBound() {
        QWidget window;
        NoHost host;
        ui::AuditTab tab(&window, host);
        AuditSettings s = small();
        s.method = ui::AuditMethod::OneRun;
        s.canaries = 50; // capped by the core at the columns
        s.compareAll = true;
        tab.view()->applySettings(s);
        tab.prepareDataset(loaded());
        tab.setDataset(loaded());
        tab.becameCurrent();
        ui::AuditController* c = tab.auditController();
        QVERIFY(waitIdle(*c));
        QVERIFY2(c->lastError().isEmpty(), qPrintable(c->lastError()));
        QVERIFY(tab.complete());
        QVERIFY(c->state().oneRun);
        QVERIFY(!c->state().result); // no two-dataset runs
        const core::OneRunAuditResult& r = *c->state().oneRun;
        QCOMPARE(tab.view()->verdictText().toLower(), QString::fromStdString(core::oneRunAuditVerdict(r)).toLower());
        QVERIFY(tab.view()->detailsText().contains(QStringLiteral("Canaries:")));
        // The histograms hold every canary, in and out.
        const auto scores = tab.view()->scoreChart();
        QVERIFY(scores.series.size() >= 2);
        QCOMPARE(scores.series[0].key, QStringLiteral("out"));
        QCOMPARE(scores.series[1].key, QStringLiteral("in"));
        // Every private mechanism audited by one run, in the table.
        QCOMPARE(c->state().rows.size(), core::privateMechanisms().size());
        for (const ui::AuditRow& row : c->state().rows)
            QVERIFY2(row.oneRun || !row.error.isEmpty(), core::toString(row.kind));
        QVERIFY(tab.view()->tableText().contains(QStringLiteral("consistent")));
        // The CSV lists every canary.
        const QString csv = QString::fromUtf8(ui::auditScoresCsv(c->state()));
        QCOMPARE(csv.count(QLatin1Char('\n')), static_cast<qsizetype>(r.canaries.size()) + 1);

        // Sessions keep the method; a block saved before it existed reads as the two-dataset audit.
        ui::Session session;
        ui::storeAuditSettings(session, s);
        QVERIFY(*ui::auditSettingsOf(session) == s);
        nlohmann::json old = ui::detail::toJson(s);
        old.erase("method");
        old.erase("canaries");
        QCOMPARE(ui::detail::auditSettingsFromJson(old).method, ui::AuditMethod::TwoDatasets);
        nlohmann::json bad = ui::detail::toJson(s);
        bad["method"] = "three-runs";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, (void)ui::detail::auditSettingsFromJson(bad));
    }

    void tabExportsTwoFiguresWithEveryScore() {
        QWidget window;
        NoHost host;
        const ui::ViewType* type = ui::findViewType(QStringLiteral("audit"));
        QVERIFY(type);
        auto view = type->create(&window, host);
        auto* tab = dynamic_cast<ui::AuditTab*>(view.get());
        QVERIFY(tab);
        tab->view()->applySettings(small());
        tab->prepareDataset(loaded());
        tab->setDataset(loaded());
        tab->becameCurrent();
        QVERIFY(waitIdle(*tab->auditController()));
        QVERIFY(tab->complete());
        const auto figures = tab->figures();
        QCOMPARE(figures.size(), 2);
        const auto j = nlohmann::json::parse(figures[0].sidecar(ui::Session{}, QStringLiteral("a.png")).toStdString());
        const auto& audit = j["export"]["audits"][0];
        QCOMPARE(audit["mechanism"].get<std::string>(), std::string("objpert-gauss"));
        QCOMPARE(audit["scores_d"].size(), std::size_t(200));
        QCOMPARE(audit["eps_lb"].get<double>(), tab->auditController()->state().result->bound.epsLB);
        QVERIFY(j["export"]["complete"].get<bool>());
        const QList<QByteArray> lines = figures[0].csv().trimmed().split('\n');
        QCOMPARE(lines.size(), 201);
        QCOMPARE(lines[0], QByteArray("run,score_d,score_d_prime"));
        QVERIFY(figures[1].chart.series.size() >= 2);
    }
};

QTEST_MAIN(TestAuditView)
#include "test_audit_view.moc"
