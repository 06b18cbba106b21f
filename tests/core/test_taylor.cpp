// Taylor estimation (MATH.md §4): θ′ and F′ against finite differences (re-solve at ε ± h
// with the same z) to 1e-5 relative; F″ against the second difference; the estimators'
// closed forms; Algorithm 1 inverts the first-order line.

#include "core/learners/linear_erm/private_fit.h"
#include "core/learners/linear_erm/taylor.h"
#include "core/model/linear_objective.h"
#include "core/util/noise.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

elab::test::BinaryProblem makeProblem(Index n, Index p, std::uint64_t seed) {
    return elab::test::syntheticBinary(n, p, seed, {1.0, 0.0, -1.0}, 0.4, true);
}

NewtonCgOptions tight() {
    NewtonCgOptions o;
    o.gradientTolerance = 1e-14;
    o.relativeTolerance = 0.0;
    o.maxIterations = 200;
    return o;
}

} // namespace

Q_DECLARE_METATYPE(elab::core::LossKind)

class TestTaylor : public QObject {
    Q_OBJECT

private slots:
    void derivativesMatchFiniteDifferences_data() {
        QTest::addColumn<LossKind>("loss");
        QTest::addColumn<double>("eps");
        QTest::newRow("logistic eps 0.25") << LossKind::Logistic << 0.25;
        QTest::newRow("logistic eps 2.5") << LossKind::Logistic << 2.5;
        QTest::newRow("smooth hinge eps 1") << LossKind::SmoothHinge << 1.0;
    }
    void derivativesMatchFiniteDifferences() {
        QFETCH(LossKind, loss);
        QFETCH(double, eps);
        const auto pr = makeProblem(500, 5, 3);
        Rng rng(4);
        const NoiseDraw noise = drawNoise(5, rng);
        const MechanismSpec spec{MechanismKind::ObjPertGauss, Loss(loss), 1e-2, 1e-5};
        const auto fitAt = [&](double e) { return fitPrivate(pr.X, pr.y, spec, e, noise, nullptr, {}, tight()); };
        const PrivateFit centre = fitAt(eps);
        QCOMPARE(centre.solver.status, NewtonCgStatus::Converged);
        const UtilityData train{pr.X, pr.y};
        const TaylorPoint point = taylorPoint(pr.X, pr.y, spec, eps, noise.z, centre.theta, train, true);

        const double h = 1e-4 * eps;
        const PrivateFit plus = fitAt(eps + h), minus = fitAt(eps - h);
        const Eigen::VectorXd fdTheta = (plus.theta - minus.theta) / (2 * h);
        const double relTheta = (fdTheta - point.thetaD1).norm() / point.thetaD1.norm();
        QVERIFY2(relTheta < 1e-5, qPrintable(QString("θ′ relative difference %1").arg(relTheta)));

        LinearObjective metric(pr.X, pr.y, Loss(loss), 0.0);
        const double f0 = metric.evaluate(centre.theta), fp = metric.evaluate(plus.theta),
                     fm = metric.evaluate(minus.theta);
        ELAB_EXACT(point.value, f0);
        const double fd1 = (fp - fm) / (2 * h);
        QVERIFY2(std::abs(fd1 - point.d1) < 1e-5 * std::abs(point.d1),
                 qPrintable(QString("F′ fd %1 analytic %2").arg(fd1).arg(point.d1)));
        // Second difference with a larger step (its rounding error grows like 1/h²).
        const double H = 1e-2 * eps;
        const double fpp = metric.evaluate(fitAt(eps + H).theta), fmm = metric.evaluate(fitAt(eps - H).theta);
        const double fd2 = (fpp - 2 * f0 + fmm) / (H * H);
        QVERIFY2(std::abs(fd2 - point.d2) < 1e-3 * std::abs(point.d2),
                 qPrintable(QString("F″ fd %1 analytic %2").arg(fd2).arg(point.d2)));
    }

    void estimatorClosedForms() {
        TaylorPoint p;
        p.eps = 2.0;
        p.value = 0.5;
        p.d1 = -0.1;
        p.d2 = 0.04;
        QCOMPARE(estimateUtility(p, Estimator::FirstOrder, 3.0), 0.4);
        QCOMPARE(estimateUtility(p, Estimator::SecondOrder, 3.0), 0.5 - 0.1 + 0.02);
        QCOMPARE(estimateUtility(p, Estimator::InverseEps, 4.0), 0.5 - 0.1 * 2.0 * 2.0 / 4.0);
        QCOMPARE(estimateUtility(p, Estimator::InverseEps, INFINITY), 0.5 - 0.2);
        QCOMPARE(estimateUtility(p, Estimator::FirstOrder, INFINITY), -INFINITY);
        for (Estimator e : {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps})
            QCOMPARE(estimateUtility(p, e, p.eps), p.value); // every estimator passes through F(ε̄)
        const TaylorAnchor anchor{0.3, 0.05};
        QCOMPARE(estimateUtility(p, Estimator::Anchored, p.eps, &anchor), p.value);
        QCOMPARE(estimateUtility(p, Estimator::Anchored, INFINITY, &anchor), 0.3);
        // Hermite in v = ε^{−1/2}: slope at v̄ matches dF/dv = −2ε̄^{3/2}F′, slope at 0 the anchor's.
        const auto at = [&](double v) { return estimateUtility(p, Estimator::Anchored, 1.0 / (v * v), &anchor); };
        const double v1 = 1.0 / std::sqrt(2.0), dv = 1e-6;
        ELAB_FUZZY((at(v1 + dv) - at(v1 - dv)) / (2 * dv), -2.0 * std::pow(2.0, 1.5) * -0.1, 1e-6);
        ELAB_FUZZY((at(dv) - 0.3) / dv, 0.05, 1e-5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateUtility(p, Estimator::Anchored, 1.0));
        // Algorithm 1 inverts the first-order line.
        QCOMPARE(epsilonForTarget(p, 0.4), 3.0);
        for (Estimator e : {Estimator::FirstOrder, Estimator::SecondOrder, Estimator::InverseEps, Estimator::Anchored})
            QCOMPARE(estimatorFromString(toString(e)), e);
    }

    void anchorSlopeMatchesNoisePath() {
        // Along v = ε^{−1/2} with this repetition's z, F(v) − F_np ≈ v·slopeV for small v:
        // fit at ε = 1/v² and compare the difference quotient (error O(v)).
        const auto pr = makeProblem(400, 4, 8);
        Rng rng(9);
        const NoiseDraw noise = drawNoise(4, rng);
        const MechanismSpec spec{MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1.0, 1e-5};
        MechanismSpec nonPrivate = spec;
        nonPrivate.kind = MechanismKind::NonPrivate;
        const PrivateFit np = fitPrivate(pr.X, pr.y, nonPrivate, 1.0, noise, nullptr, {}, tight());
        const UtilityData train{pr.X, pr.y};
        const TaylorAnchor anchor = taylorAnchor(pr.X, pr.y, spec, np.theta, noise.z, train);
        QVERIFY(std::abs(anchor.slopeV) > 1e-6); // one repetition's slope is not zero
        LinearObjective metric(pr.X, pr.y, spec.model.loss, 0.0);
        double previousError = INFINITY;
        for (double v : {1e-2, 1e-3}) {
            const PrivateFit fit = fitPrivate(pr.X, pr.y, spec, 1.0 / (v * v), noise, &np.theta, {}, tight());
            const double quotient = (metric.evaluate(fit.theta) - anchor.value) / v;
            const double error = std::abs(quotient - anchor.slopeV);
            QVERIFY2(error < 0.05 * std::abs(anchor.slopeV) + 1e-9,
                     qPrintable(QString("v=%1 quotient %2 slope %3").arg(v).arg(quotient).arg(anchor.slopeV)));
            QVERIFY(error < previousError); // shrinks with v: first order is right
            previousError = error;
        }
    }
};

QTEST_APPLESS_MAIN(TestTaylor)
#include "test_taylor.moc"
