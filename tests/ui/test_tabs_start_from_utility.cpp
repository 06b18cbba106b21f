// The Privacy audit and Decision regions tabs start from the Utility tab's mechanism: on their
// first showing they take its kind from the shared state, unless a session or --mechanism chose
// one for them; later changes on the Utility tab do not move them.

#include "ui/session/session.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/audit/audit_tab.h"
#include "ui/views/audit/audit_view.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/regions/regions_view.h"
#include "ui/views/shared_state.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QtTest>

using namespace elab;
using core::MechanismKind;

namespace {

class Host : public ui::ViewHost {
public:
    ui::SharedState shared;
    void showStatusMessage(const QString&, int) override {}
    ui::SharedState* sharedState() const override { return const_cast<ui::SharedState*>(&shared); }
    void publish(MechanismKind kind) {
        ui::UtilitySweepSnapshot u;
        core::selectMechanism(u.settings.mechanism, kind);
        shared.publishUtilitySweep(u);
    }
};

} // namespace

class TestTabsStartFromUtility : public QObject {
    Q_OBJECT

private slots:
    void auditAndRegionsTakeTheUtilityMechanismOnce() {
        Host host;
        QWidget window;
        ui::AuditTab audit(&window, host);
        ui::RegionsTab regions(&window, host);
        const MechanismKind start = audit.view()->composedSettings().mechanism.kind;
        const MechanismKind other =
            start == MechanismKind::OutPertGauss ? MechanismKind::ObjPertPure : MechanismKind::OutPertGauss;
        host.publish(other);
        QCOMPARE(audit.view()->composedSettings().mechanism.kind, start); // not before it is shown
        audit.becameCurrent();
        regions.becameCurrent();
        QCOMPARE(audit.view()->composedSettings().mechanism.kind, other);
        QCOMPARE(regions.view()->composedSettings().mechanism.kind, other);
        // Only a start: the Utility tab's later choice does not move them.
        host.publish(start);
        audit.becameCurrent();
        regions.becameCurrent();
        QCOMPARE(audit.view()->composedSettings().mechanism.kind, other);
        QCOMPARE(regions.view()->composedSettings().mechanism.kind, other);
    }

    void aSessionOrStartOptionKeepsItsOwn() {
        Host host;
        QWidget window;
        host.publish(MechanismKind::OutPertGauss);
        // A session's block for the audit tab wins over the Utility tab's mechanism.
        ui::AuditTab first(&window, host);
        ui::AuditSettings saved = first.view()->composedSettings();
        core::selectMechanism(saved.mechanism, MechanismKind::ObjPertPure);
        ui::Session session;
        ui::storeAuditSettings(session, saved);
        ui::AuditTab audit(&window, host);
        audit.restoreSettings(session);
        audit.becameCurrent();
        QCOMPARE(audit.view()->composedSettings().mechanism.kind, MechanismKind::ObjPertPure);
        // --mechanism on the command line likewise.
        ui::RegionsTab regions(&window, host);
        ui::StartOptions options;
        options.mechanism = MechanismKind::ObjPertPure;
        regions.applyStartOptions(options);
        regions.becameCurrent();
        QCOMPARE(regions.view()->composedSettings().mechanism.kind, MechanismKind::ObjPertPure);
        // A non-private Utility mechanism is not taken.
        Host plain;
        plain.publish(MechanismKind::NonPrivate);
        ui::AuditTab fresh(&window, plain);
        const MechanismKind before = fresh.view()->composedSettings().mechanism.kind;
        fresh.becameCurrent();
        QCOMPARE(fresh.view()->composedSettings().mechanism.kind, before);
    }
};

QTEST_MAIN(TestTabsStartFromUtility)
#include "test_tabs_start_from_utility.moc"
