// The stability study's shared rules (issue 10): model per task, default preparation, the
// intercept, and the task checks the CLI and the GUI both use.

#include "core/stability/stability_defaults.h"

#include <QtTest>

using namespace elab::core;

class TestStabilityDefaults : public QObject {
    Q_OBJECT

private slots:
    void modelAndPreparation() {
        QCOMPARE(defaultStabilityModel(TaskKind::Regression), StabilityModel::Linear);
        QCOMPARE(defaultStabilityModel(TaskKind::Binary), StabilityModel::Logistic);
        QCOMPARE(defaultStabilityModel(TaskKind::Multiclass), StabilityModel::Logistic);
        const PreprocessOptions logistic = defaultStabilityPreprocess(StabilityModel::Logistic);
        QCOMPARE(logistic.norm, NormPolicy::ClipRows);
        QVERIFY(!logistic.standardise);
        const PreprocessOptions linear = defaultStabilityPreprocess(StabilityModel::Linear);
        QCOMPARE(linear.norm, NormPolicy::None);
        QVERIFY(linear.standardise);
        QVERIFY(stabilityFitsIntercept(StabilityModel::Linear, false));
        QVERIFY(!stabilityFitsIntercept(StabilityModel::Linear, true));
        QVERIFY(!stabilityFitsIntercept(StabilityModel::Logistic, false));
    }

    void taskChecks() {
        QVERIFY(stabilityTaskProblem(StabilityModel::Logistic, TaskKind::Binary).empty());
        QVERIFY(stabilityTaskProblem(StabilityModel::Linear, TaskKind::Regression).empty());
        QVERIFY(stabilityTaskProblem(StabilityModel::Logistic, TaskKind::Multiclass, true).empty());
        const std::string multiclass = stabilityTaskProblem(StabilityModel::Logistic, TaskKind::Multiclass);
        QVERIFY2(multiclass.find("binary label") != std::string::npos && multiclass.find("positive class") != std::string::npos,
                 multiclass.c_str());
        QVERIFY(stabilityTaskProblem(StabilityModel::Logistic, TaskKind::Regression).find("numeric target") !=
                std::string::npos);
        QVERIFY(stabilityTaskProblem(StabilityModel::Linear, TaskKind::Binary).find("regression") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestStabilityDefaults)
#include "test_stability_defaults.moc"
