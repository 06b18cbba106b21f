// A mechanism broken on purpose (the Audit tab's "Broken on purpose", noise ÷ k) is trained at
// about ε × k while ε is claimed: the guarantee the panel shows must say so, not the claim.

#include "tests/support/generated_data.h"
#include "ui/views/audit/audit_panel.h"
#include "ui/widgets/mechanism_panel.h"

#include <QDoubleSpinBox>
#include <QTest>

using namespace elab;

class TestAuditBrokenClaim : public QObject {
    Q_OBJECT
private slots:
    void aBrokenMechanismShowsNoGuarantee() {
        ui::AuditPanel panel;
        panel.setDataset(*test::generated("moons", 200, 2, 0.25));
        auto* mechanism = panel.findChild<ui::MechanismPanel*>();
        auto* broken = panel.findChild<QDoubleSpinBox*>(QStringLiteral("auditNoiseDivisorSpin"));
        QVERIFY(mechanism && broken);
        const QString correct = mechanism->guaranteeText();
        QVERIFY2(!correct.contains(QStringLiteral("broken on purpose")), qPrintable(correct));
        QVERIFY2(!correct.contains(QStringLiteral("No privacy guarantee")), qPrintable(correct));

        broken->setValue(10.0);
        QCOMPARE(panel.settings().noiseDivisor, 10.0);
        const QString text = mechanism->guaranteeText();
        QVERIFY2(text.contains(QStringLiteral("No privacy guarantee")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("alone is")), qPrintable(text)); // no DP claim for it
        QVERIFY2(text.contains(QStringLiteral("Broken on purpose: noise ÷ 10")), qPrintable(text));

        broken->setValue(1.0); // correct again: the claim is back
        QCOMPARE(mechanism->guaranteeText(), correct);
    }

    void aSessionsBrokenMechanismShowsNoGuaranteeToo() {
        ui::AuditPanel panel;
        panel.setDataset(*test::generated("moons", 200, 2, 0.25));
        ui::AuditSettings s = panel.settings();
        s.noiseDivisor = 4.0;
        panel.setSettings(s);
        const QString text = panel.findChild<ui::MechanismPanel*>()->guaranteeText();
        QVERIFY2(text.contains(QStringLiteral("Broken on purpose: noise ÷ 4")), qPrintable(text));
    }
};

QTEST_MAIN(TestAuditBrokenClaim)
#include "test_audit_broken_claim.moc"
