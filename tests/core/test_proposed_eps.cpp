// The proposed ε on real data (iris, breast cancer, Adult): estimates are held at the non-private
// loss, and a proposal from an estimate is either within 2× of the ε that a separate, denser
// measurement finds to meet the target, or set aside. Before this rule, iris at target 0.3 from
// ε̄ = 1 proposed ε = 2.5 where the measured loss was 0.55 (0.3 is met only past ε ≈ 30), and the
// inverse-eps line fell to −0.18 at ε = 10, below the non-private loss 0.21.

#include "core/sweeps/proposed_eps.h"

#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/learner/sweep_data.h"
#include "resources/builtin_resources.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

namespace {

struct Case {
    Dataset train;
    UtilitySweepResult sweep;    ///< measuring point ε̄ = 1, a coarse grid (seed 1)
    UtilitySweepResult measured; ///< the reference: a denser grid, more repetitions, another seed
};

Dataset load(const std::string& spec) {
    return loadDataset(spec, LoadOptions{}, elab::resources::builtinBytesProvider());
}

Case runCase(Dataset data) {
    DataPreparation preparation; // the CLI's defaults: rows clipped to ‖x‖ ≤ 1, nothing else
    Case c{prepareExperimentData(std::move(data), std::nullopt, preparation, 1).train, {}, {}};
    UtilitySweepSpec spec;
    spec.mechanism = {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 0.01, 1e-5};
    spec.grid = parseEpsGrid("0.05:100:12");
    spec.repeats = 6;
    spec.measureAt = {1.0};
    spec.estimators = {Estimator::InverseEps, Estimator::FirstOrder};
    spec.seed = 1;
    c.sweep = runUtilitySweep(sweepDataOf(c.train), spec);
    spec.grid = parseEpsGrid("0.05:100:24");
    spec.repeats = 24;
    spec.measureAt.clear();
    spec.seed = 2;
    c.measured = runUtilitySweep(sweepDataOf(c.train), spec);
    return c;
}

/// The smallest ε where the measured mean shifted by `standardErrors` standard errors meets
/// target: the measured ε with its uncertainty (at small ε the loss is heavy-tailed).
std::optional<double> measuredEps(const UtilitySweepResult& r, double target, double standardErrors) {
    std::vector<SweepPoint> shifted = r.points;
    for (SweepPoint& p : shifted)
        p.mean += standardErrors * p.sd / std::sqrt(static_cast<double>(p.values.size()));
    return smallestEpsMeeting(measuredCurve(shifted), target, true, 0.05, 100.0);
}

/// Targets spread between the loss at the smallest ε and the non-private loss.
std::vector<double> targets(const UtilitySweepResult& r) {
    std::vector<double> t;
    const double top = r.points.front().mean, floor = r.nonPrivate;
    for (double f : {0.4, 0.2, 0.1, 0.05, 0.025, 0.0125})
        t.push_back(floor + f * (top - floor));
    return t;
}

} // namespace

class TestProposedEps : public QObject {
    Q_OBJECT

    void checkDataset(const QString& name, Dataset data) {
        const Case c = runCase(std::move(data));
        const MeasuringFit& fit = c.sweep.measuring.front();
        QVERIFY(std::isfinite(fit.nonPrivate));
        QCOMPARE(fit.nonPrivate, c.sweep.nonPrivate);
        int fromEstimate = 0, setAside = 0;
        for (Estimator estimator : {Estimator::InverseEps, Estimator::FirstOrder}) {
            // Held at the non-private loss everywhere, up to ε = ∞.
            for (double eps = 0.01; eps < 1e4; eps *= 1.5)
                QVERIFY2(meanEstimate(fit, estimator, eps) >= c.sweep.nonPrivate,
                         qPrintable(QStringLiteral("%1, %2 at ε = %3: %4 below the non-private %5")
                                        .arg(name, toString(estimator))
                                        .arg(eps)
                                        .arg(meanEstimate(fit, estimator, eps))
                                        .arg(c.sweep.nonPrivate)));
            const double atInfinity = meanEstimate(fit, estimator, INFINITY);
            QVERIFY(!(atInfinity < c.sweep.nonPrivate));
            for (double target : targets(c.sweep)) {
                // Before the grid is measured (the GUI's first seconds) the estimate alone decides;
                // with the grid, the measurements may overrule it.
                for (bool withGrid : {false, true}) {
                    const std::vector<SweepPoint> none;
                    const ProposedEps p = proposeEps(withGrid ? c.sweep.points : none, &fit, estimator, target,
                                                     UtilityMetric::TrainLoss, 0.05, 100.0);
                    const auto truth = measuredEps(c.measured, target, 0.0);
                    const auto early = measuredEps(c.measured, target, -2.0),
                               late = measuredEps(c.measured, target, 2.0);
                    const QString where =
                        QStringLiteral("%1, %2, target %3%4: proposed %5, measured %6 (± 2 standard errors: %7 to %8)")
                            .arg(name, toString(estimator))
                            .arg(target)
                            .arg(withGrid ? ", with the grid" : "")
                            .arg(p.eps ? *p.eps : NAN)
                            .arg(truth ? *truth : NAN)
                            .arg(early ? *early : NAN)
                            .arg(late ? *late : NAN);
                    QCOMPARE(p.setAside.has_value(), p.doubt != EstimateDoubt::None);
                    if (p.setAside) {
                        ++setAside;
                        QVERIFY2(!p.fromEstimate && !doubtText(p, true).empty(), qPrintable(where));
                    }
                    // Within 2× of the measured ε, widened by its ± 2 standard errors. At ε = 0.05 the loss
                    // is heavy-tailed (breast cancer: sd 5.9 over 12 draws): a target met at the
                    // reference's first grid point has no measured ε to compare with.
                    if (!p.fromEstimate || !truth || *truth <= 1.001 * c.measured.grid.front())
                        continue;
                    ++fromEstimate;
                    QVERIFY2(*p.eps >= 0.5 * *early && (!late || *p.eps <= 2.0 * *late), qPrintable(where));
                }
            }
        }
        qInfo("%s: %d proposals from the estimate kept, %d set aside", qPrintable(name), fromEstimate, setAside);
        QVERIFY(fromEstimate + setAside > 0); // the rule was exercised
    }

private slots:
    void iris() { checkDataset(QStringLiteral("iris"), load("builtin:iris")); }
    void breastCancer() { checkDataset(QStringLiteral("breast cancer"), load("builtin:breast_cancer")); }
    void adult() {
        ELAB_REQUIRE_SHARED_DATASETS();
        checkDataset(QStringLiteral("Adult (a9a)"), load(EPSILONLAB_SHARED_DIR "/datasets/adult/a9a_train.libsvm"));
    }

    // The case that was 10× off: iris, target 0.3, ε̄ = 1. The inverse-eps line meets 0.3 at
    // ε ≈ 2.5 and passes the non-private loss 0.21 soon after, while the 1/ε curve through F(ε̄)
    // and that level meets 0.3 only past ε = 5; the estimate alone is set aside for that, and with
    // the grid the measured curve (0.3 only past ε ≈ 30) gives the proposal.
    void irisTargetThatWasTenTimesOff() {
        const Case c = runCase(load("builtin:iris"));
        const MeasuringFit& fit = c.sweep.measuring.front();
        QVERIFY(unboundedEstimate(fit, Estimator::InverseEps, 10.0) < c.sweep.nonPrivate); // the line's own fall
        const ProposedEps alone = proposeEps({}, &fit, Estimator::InverseEps, 0.3, UtilityMetric::TrainLoss, 0.05, 100);
        QCOMPARE(alone.doubt, EstimateDoubt::LevelCurveDisagrees);
        QVERIFY(alone.setAside && *alone.setAside < 5.0 && !alone.eps);
        QVERIFY(alone.doubtEps > 2.0 * *alone.setAside);
        const ProposedEps grid =
            proposeEps(c.sweep.points, &fit, Estimator::InverseEps, 0.3, UtilityMetric::TrainLoss, 0.05, 100);
        QCOMPARE(grid.doubt, EstimateDoubt::ContradictedByMeasurements);
        QVERIFY(grid.eps && !grid.fromEstimate && *grid.eps > 10.0);
    }

    void doubtNames() {
        QCOMPARE(QString(toString(EstimateDoubt::ContradictedByMeasurements)),
                 QStringLiteral("contradicted-by-measurements"));
        QCOMPARE(QString(toString(EstimateDoubt::PassesNonPrivate)), QStringLiteral("passes-non-private"));
        QCOMPARE(QString(toString(EstimateDoubt::EstimatorsDisagree)), QStringLiteral("estimators-disagree"));
        QCOMPARE(QString(toString(EstimateDoubt::LevelCurveDisagrees)), QStringLiteral("level-curve-disagrees"));
        QCOMPARE(QString(toString(EstimateDoubt::FarFromMeasuringPoint)), QStringLiteral("far-from-measuring-point"));
        ProposedEps p;
        QVERIFY(doubtText(p, true).empty());
    }
};

QTEST_GUILESS_MAIN(TestProposedEps)
#include "test_proposed_eps.moc"
