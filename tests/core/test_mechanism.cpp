// Mechanisms of MATH.md §3.1–3.3: constants against the formulas (values computed by hand
// from MATH.md), derivatives of s(ε) against finite differences, the Chaudhuri branch, the
// perturbed problems and validation; fits against the non-private solution.

#include "core/model/linear_objective.h"
#include "core/privacy/mechanism.h"
#include "core/privacy/private_fit.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;
namespace mc = elab::core::mechanism_constants;

namespace {
bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }
}

class TestMechanism : public QObject {
    Q_OBJECT

private slots:
    void gaussScaleAgainstMath() {
        // s(ε) = ζ√(8 log(2/δ) + 4ε)/ε; values computed from MATH.md §3.1 by hand (δ = 1e-5).
        QVERIFY(close(mc::gaussNoiseScale(1.0, 1e-5, 1.0), 10.0820921025, 1e-10));
        QVERIFY(close(mc::gaussNoiseScale(0.1, 1e-5, 1.0), 99.0194835193, 1e-10));
        QVERIFY(close(mc::gaussNoiseScale(0.1, 1e-5, 2.0), 2 * 99.0194835193, 1e-10));
        QCOMPARE(mc::gaussExtraRidge(0.5, 0.25), 1.0); // Δ = 2λ/ε
    }

    void gaussScaleDerivatives_data() {
        QTest::addColumn<double>("eps");
        QTest::addColumn<double>("delta");
        QTest::newRow("eps 0.05") << 0.05 << 1e-5;
        QTest::newRow("eps 1") << 1.0 << 1e-5;
        QTest::newRow("eps 7.5, delta 1e-3") << 7.5 << 1e-3;
    }
    void gaussScaleDerivatives() {
        QFETCH(double, eps);
        QFETCH(double, delta);
        const double h = eps * 1e-4;
        const double fd1 = (mc::gaussNoiseScale(eps + h, delta, 1) - mc::gaussNoiseScale(eps - h, delta, 1)) / (2 * h);
        const double fd2 = (mc::gaussNoiseScaleD1(eps + h, delta, 1) - mc::gaussNoiseScaleD1(eps - h, delta, 1)) / (2 * h);
        QVERIFY2(close(fd1, mc::gaussNoiseScaleD1(eps, delta, 1), 1e-6),
                 qPrintable(QString("s' fd %1 analytic %2").arg(fd1).arg(mc::gaussNoiseScaleD1(eps, delta, 1))));
        QVERIFY2(close(fd2, mc::gaussNoiseScaleD2(eps, delta, 1), 1e-6),
                 qPrintable(QString("s'' fd %1 analytic %2").arg(fd2).arg(mc::gaussNoiseScaleD2(eps, delta, 1))));
        QVERIFY(mc::gaussNoiseScaleD1(eps, delta, 1) < 0.0); // the errata's minus sign
    }

    void chaudhuriBranches() {
        // n = 1000, Λ_c = 1e-3, c = 1/4: log(1 + 2·0.25 + 0.25²) = log 1.5625.
        const auto first = mc::pureObjPert(1.0, 1000, 1e-3, 0.25);
        QVERIFY(!first.secondBranch);
        QVERIFY(close(first.epsPrime, 0.5537128973715805, 1e-12));
        QCOMPARE(first.extraRidge, 0.0);
        const auto second = mc::pureObjPert(0.4, 1000, 1e-3, 0.25);
        QVERIFY(second.secondBranch);
        QVERIFY(close(second.extraRidge, 0.001377082986193762, 1e-12));
        QCOMPARE(second.epsPrime, 0.2);
        const auto noRidge = mc::pureObjPert(5.0, 1000, 0.0, 0.25); // Λ = 0 forces branch 2
        QVERIFY(noRidge.secondBranch);
        QCOMPARE(noRidge.epsPrime, 2.5);
    }

    void outputPerturbationConstants() {
        QCOMPARE(mc::outputSensitivity(1.0, 1000, 0.01), 0.2);
        QVERIFY(close(mc::outputGaussSigma(0.5, 1e-5, 1.0, 1000, 0.01), 1.9379221050421558, 1e-12));
    }

    void perturbedProblems() {
        Rng rng(5);
        const NoiseDraw noise = drawNoise(3, rng);
        MechanismSpec spec;
        spec.kind = MechanismKind::ObjPertGauss;
        spec.lambda = 0.01;
        spec.delta = 1e-5;
        const auto gauss = perturbedProblem(spec, 1000, 1.0, noise);
        QVERIFY(close(gauss.mu, (0.01 + 2 * 0.25 / 1.0) / 1000, 1e-14));
        QVERIFY((gauss.linear - (10.0820921025 / 1000) * noise.z).norm() < 1e-12);
        QCOMPARE(gauss.outputNoise.size(), 0);
        QCOMPARE(gauss.guarantee.notion, std::string("(ε, δ)-DP"));
        QCOMPARE(gauss.guarantee.delta, 1e-5);
        QVERIFY(!gauss.guarantee.assumptions.empty());

        spec.kind = MechanismKind::OutPertGauss;
        spec.lambda = 10.0; // sum form: Λ_c = 10/1000
        const auto out = perturbedProblem(spec, 1000, 0.5, noise);
        QVERIFY((out.outputNoise - 1.9379221050421558 * noise.z).norm() < 1e-12);
        QVERIFY(out.guarantee.notes.empty());
        QVERIFY(!perturbedProblem(spec, 1000, 2.0, noise).guarantee.notes.empty()); // ε ≥ 1 caveat

        spec.kind = MechanismKind::OutPertPure;
        const auto pure = perturbedProblem(spec, 1000, 0.5, noise);
        QVERIFY(close(pure.outputNoise.norm(), 0.2 / 0.5 * noise.gammaNorm, 1e-12));
        QCOMPARE(pure.guarantee.delta, 0.0);

        spec.kind = MechanismKind::ObjPertPure;
        spec.lambda = 1.0; // Λ_c = 1e-3, the branch example above
        const auto objPure = perturbedProblem(spec, 1000, 0.4, noise);
        QVERIFY(close(objPure.mu, 1e-3 + 0.001377082986193762, 1e-12));
        QVERIFY(close(objPure.linear.norm(), 2.0 / 0.2 * noise.gammaNorm / 1000, 1e-12));
    }

    void validation_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("loss");
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("delta");
        QTest::addColumn<QString>("error");
        QTest::newRow("valid objpert") << int(MechanismKind::ObjPertGauss) << int(LossKind::Logistic) << 0.01 << 1e-5 << "";
        QTest::newRow("outpert needs lambda") << int(MechanismKind::OutPertPure) << int(LossKind::Logistic) << 0.0 << 1e-5 << "Λ > 0";
        QTest::newRow("delta 0") << int(MechanismKind::ObjPertGauss) << int(LossKind::Logistic) << 0.01 << 0.0 << "δ";
        QTest::newRow("delta 1") << int(MechanismKind::OutPertGauss) << int(LossKind::Logistic) << 1.0 << 1.0 << "δ";
        QTest::newRow("squared private") << int(MechanismKind::ObjPertPure) << int(LossKind::Squared) << 0.01 << 1e-5 << "squared";
        QTest::newRow("squared nonprivate ok") << int(MechanismKind::NonPrivate) << int(LossKind::Squared) << 0.01 << 1e-5 << "";
        QTest::newRow("negative lambda") << int(MechanismKind::NonPrivate) << int(LossKind::Logistic) << -1.0 << 1e-5 << "Λ";
    }
    void validation() {
        QFETCH(int, kind);
        QFETCH(int, loss);
        QFETCH(double, lambda);
        QFETCH(double, delta);
        QFETCH(QString, error);
        MechanismSpec spec{MechanismKind(kind), Loss(LossKind(loss)), lambda, delta};
        const QString got = QString::fromStdString(spec.validate());
        if (error.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(error), qPrintable(got));
        QCOMPARE(mechanismKindFromString(toString(MechanismKind(kind))), MechanismKind(kind));
    }

    void fitsApproachNonPrivate() {
        const Eigen::Index n = 400, p = 4;
        Rng rng(21);
        DenseMatrix X(n, p);
        Eigen::VectorXd y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            for (Eigen::Index j = 0; j < p; ++j)
                X(i, j) = uniform01(rng) - 0.5;
            y[i] = X(i, 0) + 0.5 * X(i, 1) + 0.3 * (uniform01(rng) - 0.5) > 0 ? 1.0 : -1.0;
        }
        const FeatureMatrix F(X);
        const NoiseDraw noise = drawNoise(p, rng);
        MechanismSpec spec{MechanismKind::NonPrivate, Loss(LossKind::Logistic), 1.0, 1e-5};
        const PrivateFit reference = fitPrivate(F, y, spec, 1.0, noise);
        QCOMPARE(reference.solver.status, NewtonCgStatus::Converged);
        QCOMPARE(reference.guarantee.notion, std::string("none"));
        spec.kind = MechanismKind::ObjPertGauss;
        double previous = INFINITY;
        for (double eps : {0.1, 1.0, 10.0, 100.0, 1e4}) {
            const PrivateFit fit = fitPrivate(F, y, spec, eps, noise);
            QCOMPARE(fit.solver.status, NewtonCgStatus::Converged);
            const double distance = (fit.theta - reference.theta).norm();
            QVERIFY2(distance < previous, qPrintable(QString("ε=%1 distance %2 previous %3").arg(eps).arg(distance).arg(previous)));
            previous = distance;
        }
        QVERIFY(previous < 0.05 * reference.theta.norm());
        // Output perturbation releases minimiser + σz exactly.
        spec.kind = MechanismKind::OutPertGauss;
        const PrivateFit out = fitPrivate(F, y, spec, 0.5, noise);
        QVERIFY(((out.theta - out.minimiser) - mc::outputGaussSigma(0.5, 1e-5, 1.0, n, 1.0 / n) * noise.z).norm() < 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestMechanism)
#include "test_mechanism.moc"
