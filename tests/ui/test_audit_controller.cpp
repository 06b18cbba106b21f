// AuditController (issue 14): the audit of the applied settings runs off the GUI thread and
// delivers the core's numbers (the same scores and ε_LB as core::runAudit on the same prepared
// data); what it streams is consistent (the finished runs are exactly the finite scores, never
// decreasing); compareAll audits every private mechanism of the catalog, the chosen one first;
// Cancel stops without a verdict; a claim of ε = ∞ is refused with a problem and starts nothing.

#include <tbb/global_control.h>

#include "ui/views/audit/audit_controller.h"

#include "core/data/data_preparation.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"

#include "tests/support/generated_data.h"
#include "tests/support/gui_test_support.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace elab;
using elab::test::waitIdle;
using elab::ui::AuditController;
using elab::ui::AuditSettings;

namespace {

std::shared_ptr<const core::Dataset> moons() { return elab::test::generated("moons", 200, 2, 0.25); }

AuditSettings small(int runs = 100) {
    AuditSettings s;
    s.runs = runs;
    s.seed = 11;
    s.currentEps = 1.0;
    return s;
}

int finiteCount(const std::vector<double>& v) {
    int n = 0;
    for (double x : v)
        n += std::isfinite(x) ? 1 : 0;
    return n;
}

} // namespace

class TestAuditController : public QObject {
    Q_OBJECT

private slots:
    void deliversTheCoresNumbers() {
        AuditController c;
        c.setSettings(small());
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        QVERIFY(c.upToDate());
        const auto result = c.state().result;
        QVERIFY(result);

        const AuditSettings s = small();
        core::DataPreparation preparation;
        preparation.preprocess = s.preprocess;
        const core::PreparedData prepared = core::prepareExperimentData(*moons(), std::nullopt, preparation, s.seed);
        const core::AuditResult direct = core::runAudit(core::sweepDataOf(prepared.train), s.toSpec());
        QVERIFY(result->scoresD == direct.scoresD);
        QVERIFY(result->scoresDPrime == direct.scoresDPrime);
        QCOMPARE(result->bound.epsLB, direct.bound.epsLB);
        QCOMPARE(result->claimedEps, 1.0);
        QVERIFY(!result->violated());
        QCOMPARE(c.state().runsDone, 2 * s.runs);
        QVERIFY(c.state().rows.empty()); // no comparison asked for
    }

    void streamedScoresAreConsistent() {
        AuditController c;
        int last = 0;
        bool consistent = true;
        int updates = 0;
        connect(&c, &AuditController::stateChanged, this, [&] {
            const ui::AuditState& st = c.state();
            ++updates;
            const int finite = finiteCount(st.scoresD) + finiteCount(st.scoresDPrime);
            consistent = consistent && finite == st.runsDone && st.runsDone >= last && st.runsDone <= 2 * 4000;
            last = st.runsDone;
        });
        c.setSettings(small(4000));
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QVERIFY(consistent);
        QVERIFY(updates >= 2); // the reset at the start and the result
        QCOMPARE(last, 8000);
    }

    void compareAllAuditsEveryPrivateMechanism() {
        AuditController c;
        AuditSettings s = small(40);
        s.mechanism.kind = core::MechanismKind::OutPertPure;
        s.compareAll = true;
        c.setSettings(s);
        c.setDataset(moons());
        QVERIFY(waitIdle(c, 120000));
        QVERIFY(c.upToDate());
        int privateKinds = 0;
        for (const core::MechanismInfo& info : core::mechanismCatalog())
            privateKinds += info.kind != core::MechanismKind::NonPrivate ? 1 : 0;
        const auto& rows = c.state().rows;
        QCOMPARE(static_cast<int>(rows.size()), privateKinds);
        QCOMPARE(rows.front().kind, core::MechanismKind::OutPertPure);
        QCOMPARE(rows.front().result, c.state().result);
        for (const ui::AuditRow& row : rows) {
            QVERIFY2(row.result, qPrintable(QString::fromLatin1(core::toString(row.kind)) + ": " + row.error));
            QVERIFY(!row.result->violated());
            QCOMPARE(row.result->runs, 40);
        }
    }

    void cancelStopsWithoutAVerdict() {
        AuditController c;
        c.setSettings(small(AuditSettings::kMaxRuns));
        c.setDataset(moons());
        QTRY_VERIFY(c.auditSlot()->isBusy());
        c.cancel();
        QVERIFY(waitIdle(c));
        QVERIFY(!c.upToDate());
        QVERIFY(!c.state().result);
        QVERIFY(c.lastError().isEmpty());
    }

    void anInfiniteClaimIsRefused() {
        AuditController c;
        AuditSettings s = small();
        s.currentEps = std::numeric_limits<double>::infinity();
        QSignalSpy started(c.auditSlot(), &ui::JobSlot::started);
        c.setSettings(s);
        c.setDataset(moons());
        QVERIFY(waitIdle(c));
        QVERIFY(c.lastError().contains(QStringLiteral("finite")));
        QCOMPARE(started.count(), 0);
    }
};

QTEST_MAIN(TestAuditController)
#include "test_audit_controller.moc"
