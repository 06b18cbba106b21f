// Comparing mechanisms (core/sweeps/mechanism_comparison.h): the ranking and the least ε on
// hand-made values; ε_m on a curve linear in log ε against its closed form; the verification on
// breast cancer against separate measurements at the ε it reports, with the sweep's seeds.

#include "core/sweeps/mechanism_comparison.h"

#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "resources/builtin_resources.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

SweepPoint point(double eps, double mean) {
    SweepPoint p;
    p.eps = eps;
    p.mean = mean;
    return p;
}

struct Problem {
    Dataset train;
    std::shared_ptr<const PreparedProblem> problem;
};

Problem breastCancer() {
    Problem p;
    DataPreparation preparation;
    p.train = prepareExperimentData(
                  loadDataset("builtin:breast_cancer", LoadOptions{}, elab::resources::builtinBytesProvider()),
                  std::nullopt, preparation, 1)
                  .train;
    p.problem =
        prepareProblem(sweepDataOf(p.train), {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 0.01, 1e-5},
                       UtilityMetric::TrainLoss);
    return p;
}

/// The mean training loss at eps over `repeats` repetitions with seed, measured on its own.
double measure(const PreparedProblem& problem, double eps, int repeats, std::uint64_t seed) {
    UtilitySweepSpec spec;
    spec.grid = {eps};
    spec.repeats = repeats;
    spec.seed = seed;
    spec.estimators.clear();
    spec.reference = false;
    return runUtilitySweep(problem, spec).points.front().mean;
}

} // namespace

class TestMechanismComparison : public QObject {
    Q_OBJECT

private slots:
    void rankingOrdersLossesUpAndAccuraciesDown() {
        const std::vector<double> values{0.3, NAN, 0.1, 0.3, 0.2};
        QCOMPARE(rankByUtility(values, UtilityMetric::TrainLoss), (std::vector<std::size_t>{2, 4, 0, 3, 1}));
        QCOMPARE(rankByUtility(values, UtilityMetric::TestAccuracy), (std::vector<std::size_t>{0, 3, 4, 2, 1}));
        QCOMPARE(rankByUtility({}, UtilityMetric::TrainLoss), std::vector<std::size_t>{});
    }

    void leastEpsSkipsMissingAndKeepsTheFirstTie() {
        QCOMPARE(leastEps({std::nullopt, 2.0, 0.5, 0.5}), std::optional<std::size_t>(2));
        QCOMPARE(leastEps({std::nullopt, std::nullopt}), std::optional<std::size_t>());
        QCOMPARE(leastEps({}), std::optional<std::size_t>());
    }

    // Linear in log ε from 1.0 at ε = 1 to 0.0 at ε = 10: 0.5 is met at √10 (a loss), and an
    // accuracy of 0.75 at 10^(1/4).
    void measuredEpsIsTheCrossingInLogEps() {
        const std::vector<SweepPoint> falling{point(1.0, 1.0), point(10.0, 0.0)};
        ELAB_RELATIVE(*measuredTargetEps(falling, 0.5, UtilityMetric::TrainLoss), std::sqrt(10.0), 1e-9);
        const std::vector<SweepPoint> rising{point(1.0, 0.0), point(10.0, 1.0)};
        ELAB_RELATIVE(*measuredTargetEps(rising, 0.75, UtilityMetric::TestAccuracy), std::pow(10.0, 0.75), 1e-9);
        QVERIFY(!measuredTargetEps(falling, -0.1, UtilityMetric::TrainLoss));
        QCOMPARE(*measuredTargetEps(falling, 2.0, UtilityMetric::TrainLoss), 1.0); // met from the first point
    }

    // A real sweep: the verified ε meets the target when measured on its own with the same seed,
    // and ε_m is not above it; an unreachable target measures nothing.
    void verifiedEpsMeetsTheTargetWhenMeasuredAgain() {
        const Problem p = breastCancer();
        UtilitySweepSpec sweep;
        sweep.grid = parseEpsGrid("0.05:50:7");
        sweep.repeats = 4;
        sweep.seed = 9;
        sweep.estimators.clear();
        const UtilitySweepResult r = runUtilitySweep(*p.problem, sweep);
        TargetEpsSpec spec;
        spec.repeats = 4;
        spec.seed = 9;
        for (double target : {0.6, 0.45, 0.4}) {
            spec.target = target;
            const TargetEps found = verifyTargetEps(*p.problem, r.points, spec);
            QVERIFY(found.measured && found.verified);
            QVERIFY(*found.measured <= *found.verified);
            const double again = measure(*p.problem, *found.verified, 4, 9);
            QVERIFY2(again <= target, qPrintable(QStringLiteral("target %1: verified ε = %2 measures %3")
                                                     .arg(target)
                                                     .arg(*found.verified)
                                                     .arg(again)));
            for (const TargetEpsStep& s : found.steps)
                QCOMPARE(s.mean, measure(*p.problem, s.eps, 4, 9)); // the sweep's seeds: the same draws
        }
        spec.target = 0.01;
        const TargetEps none = verifyTargetEps(*p.problem, r.points, spec);
        QVERIFY(!none.measured && !none.verified && none.steps.empty());
    }

    // A curve that claims the target is met below ε = 0.3 where the loss is far above it:
    // the measurement at ε_m misses, the bisection runs towards the grid point that met (taken
    // as measured) and each step's ε lies in the shrinking bracket.
    void bisectionTowardsTheGridPointThatMet() {
        const Problem p = breastCancer();
        const double target = 0.5;
        const std::vector<SweepPoint> points{point(0.1, 10.0), point(0.3, 0.0), point(50.0, 0.3)};
        TargetEpsSpec spec;
        spec.target = target;
        spec.repeats = 3;
        spec.seed = 4;
        spec.maxSteps = 4;
        spec.relativeWidth = 1e-4;
        const TargetEps found = verifyTargetEps(*p.problem, points, spec);
        QVERIFY(found.measured && *found.measured > 0.1 && *found.measured < 0.3);
        QCOMPARE(found.steps.size(), std::size_t(5)); // ε_m, then maxSteps (the bracket stays wider)
        double lo = *found.measured;
        QCOMPARE(found.steps.front().eps, lo);
        for (const TargetEpsStep& s : found.steps) {
            QVERIFY(!s.meets);
            QVERIFY(s.eps >= lo && s.eps < 0.3);
            QCOMPARE(s.mean, measure(*p.problem, s.eps, 3, 4));
            lo = s.eps;
        }
        QCOMPARE(*found.verified, 0.3);
    }
};

QTEST_GUILESS_MAIN(TestMechanismComparison)
#include "test_mechanism_comparison.moc"
