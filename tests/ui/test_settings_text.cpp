// Words of the utility explorer: number parsing and formatting, the guarantee's branches and
// warnings, and the problem list (specific first, no repeats).

#include "ui/widgets/eps_text.h"
#include "ui/widgets/settings_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QTest>

#include <limits>

using elab::core::MechanismKind;
using elab::core::NormPolicy;
using elab::ui::DataShape;
using elab::ui::UtilitySettings;
namespace ui = elab::ui;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

QString guarantee(const UtilitySettings& s, long long rows, double eps) {
    DataShape shape;
    shape.trainRows = rows;
    shape.features = 5;
    return ui::describeGuarantee(s, shape, eps).plain;
}

} // namespace

class TestSettingsText : public QObject {
    Q_OBJECT
private slots:
    void formatNumber_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("decimal") << 0.25 << "0.25";
        QTest::newRow("small") << 1e-5 << "1e-5";
        QTest::newRow("large") << 2.5e6 << "2.5e6";
        QTest::newRow("integer") << 100.0 << "100";
        QTest::newRow("rounded") << 0.123456 << "0.1235";
        QTest::newRow("infinity") << kInf << "∞";
    }
    void formatNumber() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(ui::formatNumber(value, 4), text);
    }

    // The forms the views keep: printf's exponent in readouts and chart titles, a dash for a value
    // that is not there.
    void formatNumberForms() {
        QCOMPARE(ui::formatNumber(1e-5, 3, ui::NumberForm::Printf), QStringLiteral("1e-05"));
        QCOMPARE(ui::formatNumber(2.5e6, 4, ui::NumberForm::Printf), QStringLiteral("2.5e+06"));
        QCOMPARE(ui::formatNumber(0.123456, 3, ui::NumberForm::Printf), QStringLiteral("0.123"));
        QCOMPARE(ui::formatNumber(-kInf, 3, ui::NumberForm::Printf), QStringLiteral("−∞"));
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(ui::formatNumber(nan, 3, ui::NumberForm::Printf, QStringLiteral("–")), QStringLiteral("–"));
        QCOMPARE(ui::formatNumber(nan), QStringLiteral("nan"));
    }

    void parseEps_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("allowInfinity");
        QTest::addColumn<double>("expected"); // NaN: rejected
        const double no = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("decimal") << "0.5" << false << 0.5;
        QTest::newRow("exponent") << "1e-2" << false << 0.01;
        QTest::newRow("plus inf") << "+inf" << true << kInf;
        QTest::newRow("Infinity") << "Infinity" << true << kInf;
        QTest::newRow("sign") << "∞" << true << kInf;
        QTest::newRow("inf not allowed") << "inf" << false << no;
        QTest::newRow("zero") << "0" << true << no;
        QTest::newRow("negative") << "-2" << true << no;
        QTest::newRow("comma decimal") << "0,5" << true << no;
        QTest::newRow("nan") << "nan" << true << no;
    }
    void parseEps() {
        QFETCH(QString, text);
        QFETCH(bool, allowInfinity);
        QFETCH(double, expected);
        const std::optional<double> value = ui::parseEps(text, allowInfinity);
        QCOMPARE(value.has_value(), !std::isnan(expected));
        if (value)
            QCOMPARE(*value, expected);
    }

    void epsLists() {
        QCOMPARE(ui::parseEpsList(QStringLiteral("0.1, 1;5  7")), (std::vector<double>{0.1, 1.0, 5.0, 7.0}));
        QCOMPARE(ui::parseEpsList(QStringLiteral("  ")), std::vector<double>{});
        QVERIFY(!ui::parseEpsList(QStringLiteral("0.1, x")));
        QVERIFY(!ui::parseEpsList(QStringLiteral("0.1, inf")));
        QCOMPARE(ui::formatEpsList({0.1, 1.0, 5.0}), QStringLiteral("0.1, 1, 5"));
    }

    void pureObjPertBranches() {
        UtilitySettings s;
        s.mechanism.kind = MechanismKind::ObjPertPure;
        s.mechanism.model.lambda = 1e-4; // too small for Chaudhuri's first branch at small ε
        const QString second = guarantee(s, 100, 0.1);
        QVERIFY2(second.startsWith(QStringLiteral("ε-DP: ε = 0.1\n")), qPrintable(second));
        QVERIFY(second.contains(QStringLiteral("extra ridge")));
        s.mechanism.model.lambda = 100.0;
        QVERIFY(guarantee(s, 100, 1.0).contains(QStringLiteral("First branch")));
        QVERIFY(guarantee(s, 0, 1.0).contains(QStringLiteral("depends on n")));
    }

    void everyGuaranteeShowsItsFormula() {
        for (const elab::core::MechanismInfo& info : elab::core::mechanismCatalog()) {
            QVERIFY2(std::string(info.formula).size() > 20, info.title);
            if (info.kind == MechanismKind::NonPrivate)
                continue;
            UtilitySettings s;
            elab::core::selectMechanism(s.mechanism, info.kind);
            s.mechanism.model.lambda = 1.0; // output perturbation needs Λ > 0
            const QString text = guarantee(s, 500, 1.0);
            QVERIFY2(text.contains(QStringLiteral("Formula: ") + QString::fromUtf8(info.formula)), qPrintable(text));
        }
        // The numbers behind the Gaussian formula are the ones the code uses (MATH.md §3.1).
        QVERIFY(QString::fromUtf8(elab::core::mechanismInfo(MechanismKind::ObjPertGauss).formula)
                    .contains(QStringLiteral("s(ε) = ζ·√(8·log(2/δ) + 4ε)/ε")));
    }

    void warnings() {
        UtilitySettings s;
        s.mechanism.kind = MechanismKind::OutPertGauss;
        // The analytic Gaussian mechanism holds at every ε: no validity caveat at ε = 2.
        QVERIFY(!guarantee(s, 100, 2.0).contains(QStringLiteral("ε < 1")));
        QVERIFY(guarantee(s, 100, 2.0).contains(QStringLiteral("Balle & Wang 2018")));
        s.mechanism.kind = MechanismKind::ObjPertGauss;
        QVERIFY(!guarantee(s, 1000, 1.0).contains(QStringLiteral("not below 1/n")));
        QVERIFY(guarantee(s, 200000, 1.0).contains(QStringLiteral("not below 1/n")));
        // A leaking step of the form turns the claim off (docs/MATH.md §7), naming the step.
        s.preprocess.norm = NormPolicy::ScaleByMaxNorm;
        QString text = guarantee(s, 100, 1.0);
        QVERIFY2(text.startsWith(QStringLiteral("No privacy guarantee: assumptions not met\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Not met: Scale by max norm")));
        s.preprocess.norm = NormPolicy::ClipRows;
        s.preprocess.standardise = true;
        text = guarantee(s, 100, 1.0);
        QVERIFY2(text.startsWith(QStringLiteral("No privacy guarantee: assumptions not met\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Not met: Standardise")));
        QVERIFY(!text.contains(QStringLiteral("ε = 1, δ = 1e-5\n")));
        // A leak of the loaded data (a schema read from the rows) does the same.
        s.preprocess.standardise = false;
        DataShape shape;
        shape.trainRows = 100;
        shape.pipeline.leakingSteps = {"schema: read from this file's rows"};
        text = ui::describeGuarantee(s, shape, 1.0).plain;
        QVERIFY2(text.startsWith(QStringLiteral("No privacy guarantee: assumptions not met\n")), qPrintable(text));
        shape.pipeline.leakingSteps.clear();
        text = ui::describeGuarantee(s, shape, 1.0).plain;
        QVERIFY(text.startsWith(QStringLiteral("(ε, δ)-DP: ε = 1, δ = 1e-5\n")));
        // The seed's mode is a condition on the release.
        QVERIFY(text.contains(QStringLiteral("reproducible run (public seed)")));
        s.secretSeed = true;
        QVERIFY(ui::describeGuarantee(s, shape, 1.0).plain.contains(QStringLiteral("private release")));
        QVERIFY(!ui::describeGuarantee(s, shape, 1.0).plain.contains(QStringLiteral("public seed 1")));
        shape.pipeline.preparationEpsilon = 0.5; // the Data tab's private bounds, drawn at load with seed 1
        QVERIFY(ui::describeGuarantee(s, shape, 1.0).plain.contains(QStringLiteral("public seed 1")));
        QVERIFY(guarantee(s, 100, kInf).startsWith(QStringLiteral("No privacy")));
    }

    void problemsSpecificFirstWithoutRepeats() {
        UtilitySettings s;
        s.mechanism.kind = MechanismKind::OutPertGauss;
        s.mechanism.model.lambda = 0.0;
        s.mechanism.privacy.delta = 0.0;
        s.repeats = 0;
        const QStringList problems = ui::settingsProblems(s, DataShape{});
        QCOMPARE(problems.size(), 3);
        QVERIFY(problems[0].startsWith(QStringLiteral("δ must be in (0, 1)")));
        QVERIFY(problems[1].startsWith(QStringLiteral("Output perturbation needs Λ > 0")));
        QVERIFY(problems[2].startsWith(QStringLiteral("Repetitions must be between")));
        QVERIFY(ui::settingsProblems(UtilitySettings{}, DataShape{}).isEmpty());
    }
};

QTEST_MAIN(TestSettingsText)
#include "test_settings_text.moc"
