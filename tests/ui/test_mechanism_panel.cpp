// The mechanism panel: settings round trip, inline problems, privacy marks, the guarantee, the
// Taylor group, the seed button, the positive class (the words themselves: test_settings_text).

#include "ui/widgets/eps_text.h"
#include "ui/widgets/mechanism_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <limits>

using elab::core::Estimator;
using elab::core::LossKind;
using elab::core::MechanismKind;
using elab::core::NormPolicy;
using elab::core::UtilityMetric;
using elab::ui::MechanismPanel;
using elab::ui::UtilitySettings;
namespace core = elab::core;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
T* child(const MechanismPanel& panel, const char* name) {
    T* widget = panel.findChild<T*>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child %s", name);
    return widget;
}

UtilitySettings unusual() {
    UtilitySettings s;
    s.preprocess.standardise = true;
    s.preprocess.intercept = true;
    s.preprocess.norm = NormPolicy::ScaleByMaxNorm;
    s.preprocess.positiveClass = "versicolor";
    s.testFraction = 0.25;
    s.mechanism.kind = MechanismKind::OutPertGauss;
    s.mechanism.model.loss = core::Loss(LossKind::HuberSvm, 0.2, 0.5);
    s.mechanism.model.lambda = 0.37;
    s.mechanism.privacy.delta = 1e-6;
    s.metric = UtilityMetric::TestAccuracy;
    s.repeats = 7;
    s.seed = 123456789012345ULL;
    s.epsMin = 0.01;
    s.epsMax = 20.0;
    s.gridPoints = 9;
    s.measureAt = {0.1, 1.0, 5.0};
    s.estimators = {Estimator::Anchored, Estimator::FirstOrder};
    s.currentEps = 0.5;
    s.target = 0.8;
    return s;
}

void select(const MechanismPanel& panel, const char* combo, int data) {
    auto* box = child<QComboBox>(panel, combo);
    box->setCurrentIndex(box->findData(data));
}

void setIris(MechanismPanel& panel) { panel.setDataShape(120, 4, true, {"setosa", "versicolor", "virginica"}, false); }

} // namespace

class TestMechanismPanel : public QObject {
    Q_OBJECT
private slots:
    void roundTripEveryField() {
        MechanismPanel panel;
        setIris(panel);
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        const UtilitySettings in = unusual();
        panel.setSettings(in);
        QCOMPARE(changed.count(), 0);
        const UtilitySettings out = panel.settings();
        QCOMPARE(out.preprocess.standardise, in.preprocess.standardise);
        QCOMPARE(out.preprocess.intercept, in.preprocess.intercept);
        QCOMPARE(out.preprocess.norm, in.preprocess.norm);
        QCOMPARE(out.preprocess.positiveClass, in.preprocess.positiveClass);
        QCOMPARE(out.testFraction, in.testFraction);
        QCOMPARE(out.mechanism.kind, in.mechanism.kind);
        QCOMPARE(out.mechanism.model.loss.kind(), in.mechanism.model.loss.kind());
        QCOMPARE(out.mechanism.model.loss.huberWidth(), in.mechanism.model.loss.huberWidth());
        QCOMPARE(out.mechanism.model.loss.temperature(), in.mechanism.model.loss.temperature());
        QCOMPARE(out.mechanism.model.lambda, in.mechanism.model.lambda);
        QCOMPARE(out.mechanism.privacy.delta, in.mechanism.privacy.delta);
        QCOMPARE(out.metric, in.metric);
        QCOMPARE(out.repeats, in.repeats);
        QCOMPARE(out.seed, in.seed);
        QCOMPARE(out.epsMin, in.epsMin);
        QCOMPARE(out.epsMax, in.epsMax);
        QCOMPARE(out.gridPoints, in.gridPoints);
        QCOMPARE(out.measureAt, in.measureAt);
        QCOMPARE(out.estimators, in.estimators);
        QCOMPARE(out.currentEps, in.currentEps);
        QCOMPARE(out.target, in.target);

        // The widgets show it.
        QCOMPARE(child<QComboBox>(panel, "mechanismCombo")->currentData().toInt(), int(in.mechanism.kind));
        QCOMPARE(child<QComboBox>(panel, "lossCombo")->currentData().toInt(), int(LossKind::HuberSvm));
        QCOMPARE(child<QDoubleSpinBox>(panel, "huberWidthSpin")->value(), 0.2);
        QCOMPARE(child<QLineEdit>(panel, "lambdaEdit")->text(), QStringLiteral("0.37"));
        QCOMPARE(child<QLineEdit>(panel, "deltaEdit")->text(), QStringLiteral("1e-6"));
        QCOMPARE(child<QComboBox>(panel, "normCombo")->currentData().toInt(), int(in.preprocess.norm));
        QVERIFY(child<QCheckBox>(panel, "standardiseCheck")->isChecked() &&
                child<QCheckBox>(panel, "interceptCheck")->isChecked());
        QCOMPARE(child<QComboBox>(panel, "positiveClassCombo")->currentData().toString(), QStringLiteral("versicolor"));
        QCOMPARE(child<QDoubleSpinBox>(panel, "testFractionSpin")->value(), 0.25);
        QCOMPARE(child<QComboBox>(panel, "metricCombo")->currentData().toInt(), int(in.metric));
        QCOMPARE(child<QSpinBox>(panel, "repeatsSpin")->value(), 7);
        QCOMPARE(child<QLineEdit>(panel, "seedEdit")->text(), QStringLiteral("123456789012345"));
        QCOMPARE(child<QLineEdit>(panel, "measureEdit")->text(), QStringLiteral("0.1, 1, 5"));
        QCOMPARE(child<QLineEdit>(panel, "epsMinEdit")->text(), QStringLiteral("0.01"));
        QCOMPARE(child<QLineEdit>(panel, "epsMaxEdit")->text(), QStringLiteral("20"));
        QCOMPARE(child<QSpinBox>(panel, "gridPointsSpin")->value(), 9);
        QVERIFY(child<QCheckBox>(panel, "anchoredCheck")->isChecked() &&
                child<QCheckBox>(panel, "first-orderCheck")->isChecked() &&
                !child<QCheckBox>(panel, "inverse-epsCheck")->isChecked());
    }

    void userEditsReachSettings_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown"); // the field after commit, and the settings' value
        QTest::newRow("lambda") << QStringLiteral("lambdaEdit") << QStringLiteral("2.50") << QStringLiteral("2.5");
        QTest::newRow("delta") << QStringLiteral("deltaEdit") << QStringLiteral("1e-07") << QStringLiteral("1e-7");
        QTest::newRow("seed") << QStringLiteral("seedEdit") << QStringLiteral(" 42") << QStringLiteral("42");
        QTest::newRow("measuring points")
            << QStringLiteral("measureEdit") << QStringLiteral("0.2; 3 7") << QStringLiteral("0.2, 3, 7");
        QTest::newRow("eps min") << QStringLiteral("epsMinEdit") << QStringLiteral("5e-3") << QStringLiteral("0.005");
        QTest::newRow("eps max") << QStringLiteral("epsMaxEdit") << QStringLiteral("50") << QStringLiteral("50");
    }
    void userEditsReachSettings() {
        QFETCH(QString, edit);
        QFETCH(QString, text);
        QFETCH(QString, shown);
        MechanismPanel panel;
        UtilitySettings loss; // measuring points are edited for a loss metric (the estimates' own)
        loss.metric = UtilityMetric::TrainLoss;
        panel.setSettings(loss);
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        auto* field = panel.findChild<QLineEdit*>(edit);
        QVERIFY(field);
        field->selectAll();
        QTest::keyClicks(field, text);
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(field->text(), shown);
        const UtilitySettings s = panel.settings();
        const QString value = edit == "lambdaEdit"    ? elab::ui::formatNumber(s.mechanism.model.lambda, 6)
                              : edit == "deltaEdit"   ? elab::ui::formatNumber(s.mechanism.privacy.delta, 6)
                              : edit == "seedEdit"    ? QString::number(s.seed)
                              : edit == "measureEdit" ? elab::ui::formatEpsList(s.measureAt)
                              : edit == "epsMinEdit"  ? elab::ui::formatNumber(s.epsMin, 6)
                                                      : elab::ui::formatNumber(s.epsMax, 6);
        QCOMPARE(value, shown);
        QVERIFY2(panel.problemText().isEmpty(), qPrintable(panel.problemText()));
    }

    void unparsableTextExplainedInline() {
        MechanismPanel panel;
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        auto* lambda = child<QLineEdit>(panel, "lambdaEdit");
        lambda->setText(QStringLiteral("abc"));
        emit lambda->editingFinished();
        QCOMPARE(changed.count(), 0);
        QVERIFY2(panel.problemText().contains(QStringLiteral("Λ: “abc” is not a number")),
                 qPrintable(panel.problemText()));
        QCOMPARE(panel.settings().mechanism.model.lambda, UtilitySettings{}.mechanism.model.lambda);
        lambda->setText(QStringLiteral("0.5"));
        emit lambda->editingFinished();
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel.problemText().isEmpty());
    }

    void outputPerturbationNeedsLambda() {
        MechanismPanel panel;
        panel.show();
        UtilitySettings s;
        s.mechanism.model.lambda = 0.0;
        panel.setSettings(s);
        QVERIFY(panel.problemText().isEmpty());
        auto* problems = child<QLabel>(panel, "problemLabel");
        QVERIFY(!problems->isVisible());
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        select(panel, "mechanismCombo", int(MechanismKind::OutPertPure));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.settings().mechanism.kind, MechanismKind::OutPertPure); // still returned
        QVERIFY(problems->isVisible());
        QVERIFY2(panel.problemText().contains(QStringLiteral("Output perturbation needs Λ > 0")),
                 qPrintable(panel.problemText()));
        QCOMPARE(panel.problemText().count(QStringLiteral("needs Λ > 0")), 1); // not repeated by validate()
        QVERIFY(panel.guaranteeText().startsWith(QStringLiteral("No guarantee")));
    }

    void deltaOutOfRange() {
        MechanismPanel panel;
        UtilitySettings s;
        s.mechanism.privacy.delta = 1.5;
        panel.setSettings(s);
        QVERIFY(panel.problemText().startsWith(QStringLiteral("δ must be in (0, 1)")));
        s.mechanism.kind = MechanismKind::ObjPertPure; // δ unused: no problem, no δ row
        panel.setSettings(s);
        QVERIFY(panel.problemText().isEmpty() && child<QLineEdit>(panel, "deltaEdit")->isHidden());
    }

    void normChoiceMarked_data() {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("note");
        QTest::addColumn<bool>("red");
        QTest::newRow("clip") << int(NormPolicy::ClipRows) << "private" << false;
        QTest::newRow("max norm") << int(NormPolicy::ScaleByMaxNorm) << "leaks privacy" << true;
        QTest::newRow("none") << int(NormPolicy::None) << "no privacy guarantee" << true;
    }
    void normChoiceMarked() {
        QFETCH(int, policy);
        QFETCH(QString, note);
        QFETCH(bool, red);
        MechanismPanel panel;
        panel.setDataShape(400, 10, false, {}, false);
        select(panel, "normCombo", policy);
        QCOMPARE(int(panel.settings().preprocess.norm), policy);
        const QString text = child<QLabel>(panel, "normNote")->text();
        QVERIFY2(text.contains(note), qPrintable(text));
        QCOMPARE(text.contains(QStringLiteral("#b01e1e")), red);
        // A leaking norm step turns the guarantee off (docs/MATH.md §7): the box says so and names it.
        QCOMPARE(panel.guaranteeText().startsWith(QStringLiteral("No privacy guarantee: assumptions not met")), red);
        QCOMPARE(panel.guaranteeText().contains(QStringLiteral("Not met: ")), red);
        QCOMPARE(child<QLabel>(panel, "guaranteeLabel")->text().contains(QStringLiteral("#b01e1e")), red);
    }

    void standardiseMarked() {
        MechanismPanel panel;
        child<QCheckBox>(panel, "standardiseCheck")->setChecked(true);
        QVERIFY(panel.settings().preprocess.standardise);
        QVERIFY(child<QLabel>(panel, "normNote")->text().contains(QStringLiteral("standardising leaks")));
        QVERIFY(panel.guaranteeText().startsWith(QStringLiteral("No privacy guarantee: assumptions not met")));
        QVERIFY(panel.guaranteeText().contains(QStringLiteral("Not met: Standardise")));
    }

    void dpsgdNIsPublicOnlyWhenTheUserSaysSo() {
        MechanismPanel panel;
        select(panel, "mechanismCombo", int(MechanismKind::Dpsgd));
        panel.setDataShape(420, 4, false, {}, false);
        panel.setCurrentEps(1.0);
        auto* check = child<QCheckBox>(panel, "publicRowsCheck");
        auto* rows = child<QSpinBox>(panel, "publicRowsSpin");
        // The training rows are suggested, not declared: replace-one at |D|.
        QVERIFY(!check->isChecked());
        QCOMPARE(rows->value(), 420);
        QVERIFY(!rows->isEnabled());
        QCOMPARE(panel.settings().mechanism.sgd.publicRows, 0LL);
        QVERIFY2(panel.guaranteeText().contains(QStringLiteral("replace one training row")),
                 qPrintable(panel.guaranteeText()));
        // Checked: that N is declared public, the guarantee add/remove and says so.
        check->setChecked(true);
        QVERIFY(rows->isEnabled());
        QCOMPARE(panel.settings().mechanism.sgd.publicRows, 420LL);
        QVERIFY2(panel.guaranteeText().contains(QStringLiteral("N = 420 declared public")),
                 qPrintable(panel.guaranteeText()));
        QVERIFY(panel.guaranteeText().contains(QStringLiteral("add or remove one training row")));
        rows->setValue(1000);
        QCOMPARE(panel.settings().mechanism.sgd.publicRows, 1000LL);
        // Another dataset does not change a declared N; the settings round-trip through the form.
        panel.setDataShape(150, 4, false, {}, false);
        QCOMPARE(rows->value(), 1000);
        UtilitySettings s = panel.settings();
        MechanismPanel other;
        other.setSettings(s);
        QCOMPARE(other.settings().mechanism.sgd.publicRows, 1000LL);
        QVERIFY(child<QCheckBox>(other, "publicRowsCheck")->isChecked());
        check->setChecked(false);
        QCOMPARE(panel.settings().mechanism.sgd.publicRows, 0LL);
    }

    void guaranteeObjPertGauss() {
        MechanismPanel panel;
        panel.setDataShape(455, 30, false, {}, false);
        panel.setCurrentEps(0.25);
        const QString text = panel.guaranteeText();
        QVERIFY2(text.startsWith(QStringLiteral("(ε, δ)-DP: ε = 0.25, δ = 1e-5")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("clipped to ‖x‖₂ ≤ 1")));
        QVERIFY(text.contains(QStringLiteral("Kifer")));
        QVERIFY(text.contains(QStringLiteral("n = 455")));
        QCOMPARE(panel.settings().currentEps, 0.25);
    }

    void noPrivacy_data() {
        QTest::addColumn<int>("mechanism");
        QTest::addColumn<double>("eps");
        QTest::newRow("non-private mechanism") << int(MechanismKind::NonPrivate) << 1.0;
        QTest::newRow("∞ stop") << int(MechanismKind::ObjPertGauss) << kInf;
    }
    void noPrivacy() {
        QFETCH(int, mechanism);
        QFETCH(double, eps);
        MechanismPanel panel;
        UtilitySettings s;
        s.mechanism.kind = MechanismKind(mechanism);
        panel.setSettings(s);
        panel.setCurrentEps(eps);
        QVERIFY2(panel.guaranteeText().startsWith(QStringLiteral("No privacy")), qPrintable(panel.guaranteeText()));
        QVERIFY(child<QGroupBox>(panel, "guaranteeGroup")->isVisibleTo(&panel));
    }

    void taylorGroupFollowsMetricAndMechanism_data() {
        QTest::addColumn<int>("mechanism");
        QTest::addColumn<int>("metric");
        QTest::addColumn<bool>("enabled");
        QTest::newRow("gauss, train loss") << int(MechanismKind::ObjPertGauss) << int(UtilityMetric::TrainLoss) << true;
        QTest::newRow("gauss, test loss") << int(MechanismKind::ObjPertGauss) << int(UtilityMetric::TestLoss) << true;
        QTest::newRow("gauss, train accuracy")
            << int(MechanismKind::ObjPertGauss) << int(UtilityMetric::TrainAccuracy) << false;
        QTest::newRow("gauss, test accuracy")
            << int(MechanismKind::ObjPertGauss) << int(UtilityMetric::TestAccuracy) << false;
        QTest::newRow("pure, train loss") << int(MechanismKind::ObjPertPure) << int(UtilityMetric::TrainLoss) << false;
    }
    void taylorGroupFollowsMetricAndMechanism() {
        QFETCH(int, mechanism);
        QFETCH(int, metric);
        QFETCH(bool, enabled);
        MechanismPanel panel;
        select(panel, "mechanismCombo", mechanism);
        select(panel, "metricCombo", metric);
        QCOMPARE(panel.settings().estimatesApply(), enabled);
        QCOMPARE(child<QCheckBox>(panel, "inverse-epsCheck")->isEnabled(), enabled);
        QCOMPARE(child<QLineEdit>(panel, "measureEdit")->isEnabled(), enabled);
        auto* note = child<QLabel>(panel, "taylorNote");
        QCOMPARE(note->isVisibleTo(&panel), !enabled);
        QVERIFY(note->isEnabled()); // the explanation stays readable
        if (!enabled)
            QVERIFY(
                note->text().contains(metric == int(UtilityMetric::TrainLoss) ? "Gaussian objective" : "loss metric"));
    }

    void testMetricSetsTestFraction() {
        MechanismPanel panel;
        // The default measures test accuracy on 30 % held-out rows.
        QCOMPARE(panel.settings().metric, UtilityMetric::TestAccuracy);
        QCOMPARE(panel.settings().testFraction, 0.3);
        UtilitySettings noHeldOut;
        noHeldOut.metric = UtilityMetric::TrainLoss;
        noHeldOut.testFraction = 0.0;
        panel.setSettings(noHeldOut);
        QCOMPARE(panel.settings().testFraction, 0.0);
        select(panel, "metricCombo", int(UtilityMetric::TestAccuracy));
        QCOMPARE(panel.settings().testFraction, 0.3);
        QCOMPARE(child<QDoubleSpinBox>(panel, "testFractionSpin")->value(), 0.3);
        QVERIFY(panel.problemText().isEmpty());
    }

    void estimatorChecks() {
        MechanismPanel panel;
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        child<QCheckBox>(panel, "second-orderCheck")->setChecked(true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.settings().estimators,
                 (std::vector<core::Estimator>{Estimator::SecondOrder, Estimator::InverseEps}));
    }

    void newSeed() {
        MechanismPanel panel;
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        QTest::mouseClick(child<QPushButton>(panel, "newSeedButton"), Qt::LeftButton);
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel.settings().seed != UtilitySettings{}.seed);
        QCOMPARE(child<QLineEdit>(panel, "seedEdit")->text(), QString::number(panel.settings().seed));
    }

    void multiclassDefaultsToOneVsRest() {
        MechanismPanel panel;
        auto* combo = child<QComboBox>(panel, "positiveClassCombo");
        QVERIFY(combo->isHidden());
        setIris(panel);
        QVERIFY(!combo->isHidden());
        QCOMPARE(combo->count(), 4); // all classes (one-vs-rest), then each class vs rest
        QVERIFY(combo->toolTip().contains(QStringLiteral("one-vs-rest")));
        QVERIFY(!panel.settings().preprocess.positiveClass); // default: one-vs-rest
        QVERIFY2(
            panel.guaranteeText().contains(QStringLiteral("One-vs-rest over 3 classes: each model gets ε/K = 0.3333")),
            qPrintable(panel.guaranteeText()));
        QSignalSpy changed(&panel, &MechanismPanel::settingsChanged);
        combo->setCurrentIndex(3);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.settings().preprocess.positiveClass, std::optional<std::string>("virginica"));
        QVERIFY(!panel.guaranteeText().contains(QStringLiteral("one-vs-rest")));
        combo->setCurrentIndex(0);
        QVERIFY(!panel.settings().preprocess.positiveClass);
        panel.setDataShape(500, 30, false, {}, false); // a binary dataset: no positive class
        QVERIFY(combo->isHidden() && !panel.settings().preprocess.positiveClass);
    }

    void regressionExplained() {
        MechanismPanel panel;
        panel.setDataShape(300, 8, false, {}, true);
        auto* loss = child<QComboBox>(panel, "lossCombo");
        QVERIFY(loss->findData(int(LossKind::Squared)) >= 0);
        QVERIFY(panel.problemText().contains(QStringLiteral("Regression is not supported yet")));
        panel.setDataShape(300, 8, false, {}, false);
        QCOMPARE(loss->findData(int(LossKind::Squared)), -1);
    }

    void destroyedWithFocusInAField() {
        auto* panel = new MechanismPanel;
        panel->show();
        panel->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(panel));
        auto* lambda = child<QLineEdit>(*panel, "lambdaEdit");
        lambda->setFocus();
        QTRY_VERIFY(lambda->hasFocus());
        lambda->setText(QStringLiteral("3"));
        delete panel; // the focus-out editingFinished must not reach the dead panel
    }

    void lossParameterRows() {
        MechanismPanel panel;
        auto* loss = child<QComboBox>(panel, "lossCombo");
        auto* h = child<QDoubleSpinBox>(panel, "huberWidthSpin");
        auto* t = child<QDoubleSpinBox>(panel, "temperatureSpin");
        QVERIFY(h->isHidden() && t->isHidden());
        loss->setCurrentIndex(loss->findData(int(LossKind::HuberSvm)));
        QVERIFY(!h->isHidden() && t->isHidden());
        h->setValue(0.3);
        QCOMPARE(panel.settings().mechanism.model.loss.huberWidth(), 0.3);
        loss->setCurrentIndex(loss->findData(int(LossKind::SmoothHinge)));
        QVERIFY(h->isHidden() && !t->isHidden());
        t->setValue(2.0);
        QCOMPARE(panel.settings().mechanism.model.loss.temperature(), 2.0);
    }
};

QTEST_MAIN(TestMechanismPanel)
#include "test_mechanism_panel.moc"
