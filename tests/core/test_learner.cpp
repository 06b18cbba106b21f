// The learner interface (core/learner/): scores n × K, the one prediction path against the
// formulas it replaced (exact), capabilities, the prepared problem's cached reference, a
// sweep through a prepared problem equal to the convenience call, the training loss taken from
// the solver equal to the evaluated one, and warm-started sweep paths reaching the cold minimisers.

#include "core/data/data_preparation.h"
#include "core/data/generators.h"
#include "core/learner/prediction.h"
#include "core/learners/linear_erm/linear_erm_learner.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/model/linear_objective.h"
#include "core/stability/stability_learner.h"
#include "core/sweeps/utility_sweep.h"
#include "core/util/noise.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace elab::core;

namespace {

Dataset blobs(Index rows, int classes, std::uint64_t seed) {
    GeneratorOptions options;
    options.rows = rows;
    options.classes = classes;
    options.noise = 0.4;
    options.seed = seed;
    return prepareExperimentData(generateDataset("blobs", options), std::nullopt, DataPreparation{}, seed).train;
}

MechanismSpec spec(MechanismKind kind) { return {kind, Loss(LossKind::Logistic), 1.0, 1e-5}; }

// The binary formulas as written before issue 10 (utility_metric.cpp, stability_learner.cpp).
double oldBinaryUtility(bool loss, const Loss& l, const FeatureMatrix& X, const Eigen::VectorXd& y,
                        const Eigen::VectorXd& theta) {
    Eigen::VectorXd p;
    multiply(X, theta, p);
    const Index n = p.size();
    if (loss) {
        double sum = 0.0;
        for (Index i = 0; i < n; ++i)
            sum += l.value(p[i], y[i]);
        return sum / static_cast<double>(n);
    }
    Index correct = 0;
    for (Index i = 0; i < n; ++i)
        correct += (p[i] * y[i] > 0.0) ? 1 : 0;
    return static_cast<double>(correct) / static_cast<double>(n);
}

double oldStabilityError(const FeatureMatrix& X, const Eigen::VectorXd& y, const Eigen::VectorXd& theta) {
    Eigen::VectorXd p;
    multiply(X, theta, p);
    Index wrong = 0;
    for (Index i = 0; i < p.size(); ++i)
        wrong += y[i] * p[i] <= 0.0 ? 1 : 0;
    return static_cast<double>(wrong) / static_cast<double>(p.size());
}

} // namespace

class TestLearner : public QObject {
    Q_OBJECT

private slots:
    void scoresShape() {
        const auto d = elab::test::syntheticBinary(120, 3, 4, {1.0, -1.0}, 0.2, true);
        const LinearErmLearner binary({d.X, d.y}, spec(MechanismKind::ObjPertGauss), UtilityMetric::TrainLoss);
        const auto fit = binary.fit(1.0, *binary.drawNoise(1, 0), nullptr, {}, {});
        QCOMPARE(fit->outputs(), 1);
        QCOMPARE(fit->scores(d.X).rows(), Index(120));
        QCOMPARE(fit->scores(d.X).cols(), Index(1));

        const Dataset multi = blobs(150, 3, 2);
        const LinearErmLearner ovr(sweepDataOf(multi), spec(MechanismKind::ObjPertGauss), UtilityMetric::TrainAccuracy);
        const auto fit3 = ovr.fit(1.0, *ovr.drawNoise(1, 0), nullptr, {}, {});
        QCOMPARE(ovr.models(), 3);
        QCOMPARE(fit3->outputs(), 3);
        QCOMPARE(fit3->scores(multi.features).rows(), Index(150));
        QCOMPARE(fit3->scores(multi.features).cols(), Index(3));
    }

    void predictionPathEqualsOld() {
        const auto d = elab::test::syntheticBinary(200, 4, 5, {1.0, 0.5}, 0.5, true);
        const Loss loss(LossKind::Logistic);
        for (UtilityMetric metric : {UtilityMetric::TrainLoss, UtilityMetric::TrainAccuracy}) {
            const LinearErmLearner learner({d.X, d.y}, spec(MechanismKind::OutPertGauss), metric);
            const auto fit = learner.fit(0.7, *learner.drawNoise(3, 1), nullptr, {}, {});
            const Eigen::VectorXd& theta = dynamic_cast<const LinearErmModel&>(*fit).fits().front().theta;
            ELAB_EXACT(learner.utility(*fit), oldBinaryUtility(isLossMetric(metric), loss, d.X, d.y, theta));
            ELAB_EXACT(predictionError(StabilityModel::Logistic, {theta, 0.0}, d.X, d.y),
                       oldStabilityError(d.X, d.y, theta));
        }
    }

    void regressionErrorEqualsOld() {
        const auto d = elab::test::syntheticBinary(90, 3, 9, {1.0}, 0.3);
        Eigen::VectorXd theta(3);
        theta << 0.3, -0.2, 0.7;
        const LinearModel model{theta, 0.25};
        Eigen::VectorXd p;
        multiply(d.X, theta, p);
        p.array() += 0.25;
        const double old = (p - d.y).squaredNorm() / static_cast<double>(p.size());
        ELAB_EXACT(predictionError(StabilityModel::Linear, model, d.X, d.y), old);
        const Eigen::VectorXd scores = predict(model, d.X);
        for (Index i = 0; i < p.size(); ++i)
            ELAB_EXACT(scores[i], p[i]);
    }

    void capabilities() {
        const auto d = elab::test::syntheticBinary(80, 3, 6, {1.0}, 0.3, true);
        const LinearErmLearner gauss({d.X, d.y}, spec(MechanismKind::ObjPertGauss), UtilityMetric::TrainLoss);
        QVERIFY(gauss.capabilities().taylor);
        QVERIFY(gauss.capabilities().warmStart);
        const LinearErmLearner pure({d.X, d.y}, spec(MechanismKind::OutPertPure), UtilityMetric::TrainLoss);
        QVERIFY(!pure.capabilities().taylor);
        QVERIFY(pure.capabilities().warmStart);
        const auto noise = pure.drawNoise(1, 0);
        const auto fit = pure.fit(1.0, *noise, nullptr, {}, {});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, pure.taylorPoint(1.0, *noise, *fit, false));
        // The sweep refuses measuring points for a learner without Taylor estimates.
        const auto problem = std::make_shared<const PreparedProblem>(std::make_shared<const LinearErmLearner>(
            SweepData{d.X, d.y}, spec(MechanismKind::OutPertPure), UtilityMetric::TrainLoss));
        UtilitySweepSpec s;
        s.grid = {1.0};
        s.measureAt = {1.0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runUtilitySweep(*problem, s));
    }

    void selectMechanismTakesItsRequiredLoss() {
        MechanismSpec mspec;
        mspec.model.loss = Loss(LossKind::Logistic, 0.25, 1.0);
        selectMechanism(mspec, MechanismKind::GaussianLm);
        QCOMPARE(mspec.kind, MechanismKind::GaussianLm);
        QCOMPARE(mspec.model.loss.kind(), LossKind::HuberSvm); // its only loss
        QCOMPARE(mspec.model.loss.huberWidth(), 0.25);         // the width kept
        QVERIFY(mspec.validate().empty());
        mspec.model.loss = Loss(LossKind::SmoothHinge, 0.25, 1.0);
        selectMechanism(mspec, MechanismKind::ObjPertPure); // any margin loss: kept
        QCOMPARE(mspec.model.loss.kind(), LossKind::SmoothHinge);
    }

    // What the catalog says of each mechanism agrees with what the mechanism does: its guarantee
    // (private or not, δ used or not), its validation (δ out of range, Λ = 0) and its learner.
    void catalogFlagsAgreeWithTheMechanisms() {
        for (const MechanismInfo& info : mechanismCatalog()) {
            const QByteArray name = toString(info.kind);
            QVERIFY2(info.validate && info.guarantee && info.make, name);
            MechanismSpec mspec;
            selectMechanism(mspec, info.kind);
            mspec.model.lambda = 1.0;
            QVERIFY2(mspec.validate().empty(), name);
            const PrivacyGuarantee g = info.guarantee(mspec, 1000, 0, 1.0);
            QCOMPARE(g.isPrivate, info.isPrivate);
            QCOMPARE(mspec.usesDelta(), info.usesDelta);
            if (info.isPrivate)
                QCOMPARE(g.delta > 0.0, info.usesDelta);
            // δ outside (0, 1) is refused exactly by the mechanisms that use it.
            MechanismSpec badDelta = mspec;
            badDelta.privacy.delta = 1.5;
            QCOMPARE(!badDelta.validate().empty(), info.usesDelta);
            // Λ = 0 is refused exactly by those whose sensitivity needs Λ > 0.
            MechanismSpec noLambda = mspec;
            noLambda.model.lambda = 0.0;
            QCOMPARE(!noLambda.validate().empty(), info.needsPositiveLambda);
        }
        const std::vector<MechanismKind> audited = privateMechanisms();
        QVERIFY(std::find(audited.begin(), audited.end(), MechanismKind::NonPrivate) == audited.end());
        QCOMPARE(audited.size() + 1, mechanismCatalog().size());
        QVERIFY(mechanismInfo(MechanismKind::Dpsgd).trainsInEpochs);
        QVERIFY(!mechanismInfo(MechanismKind::ObjPertGauss).trainsInEpochs);
    }

    void preparedProblemKeepsReference() {
        const auto d = elab::test::syntheticBinary(150, 4, 7, {1.0, 1.0}, 0.3, true);
        const auto problem = prepareProblem({d.X, d.y}, spec(MechanismKind::ObjPertGauss), UtilityMetric::TrainLoss);
        std::stop_source stopped;
        stopped.request_stop();
        QVERIFY(problem->reference(stopped.get_token(), {})->stopped()); // cut short: not kept
        const auto first = problem->reference({}, {});
        QVERIFY(!first->stopped());
        QCOMPARE(problem->reference({}, {}).get(), first.get());
    }

    // The training-loss metric of a fit without output noise comes from the solver's last
    // evaluation (PrivateFit::trainLoss) instead of a pass over X: the same number as evaluating
    // the released models, up to rounding, binary and one-vs-rest.
    void trainLossFromTheSolverEqualsEvaluated() {
        const auto d = elab::test::syntheticBinary(200, 4, 5, {1.0, 0.5}, 0.5, true);
        const Dataset multi = blobs(150, 3, 2);
        const Loss loss(LossKind::Logistic);
        for (MechanismKind kind :
             {MechanismKind::ObjPertGauss, MechanismKind::ObjPertPure, MechanismKind::OutPertGauss}) {
            const LinearErmLearner binary({d.X, d.y}, spec(kind), UtilityMetric::TrainLoss);
            const auto fit = binary.fit(0.7, *binary.drawNoise(3, 1), nullptr, {}, {});
            const PrivateFit& f = dynamic_cast<const LinearErmModel&>(*fit).fits().front();
            QCOMPARE(std::isnan(f.trainLoss), kind == MechanismKind::OutPertGauss); // output noise: evaluated
            ELAB_RELATIVE(binary.utility(*fit), oldBinaryUtility(true, loss, d.X, d.y, f.theta), 1e-13);
            const auto reference = binary.fitNonPrivate({}, {});
            const Eigen::VectorXd& referenceTheta =
                dynamic_cast<const LinearErmModel&>(*reference).fits().front().theta;
            ELAB_RELATIVE(binary.utility(*reference), oldBinaryUtility(true, loss, d.X, d.y, referenceTheta), 1e-13);

            const LinearErmLearner ovr(sweepDataOf(multi), spec(kind), UtilityMetric::TrainLoss);
            const auto fit3 = ovr.fit(2.0, *ovr.drawNoise(1, 0), nullptr, {}, {});
            std::vector<Eigen::VectorXd> thetas;
            for (const PrivateFit& k : dynamic_cast<const LinearErmModel&>(*fit3).fits())
                thetas.push_back(k.theta);
            ELAB_RELATIVE(
                ovr.utility(*fit3),
                evaluateOneVsRest(UtilityMetric::TrainLoss, loss, multi.features, multi.targets.classIndex, thetas),
                1e-13);
        }
    }

    // Along a sweep each fit starts from the polynomial in 1/ε through the last three minimisers
    // (LinearErmLearner::fit). Any start must reach the same minimiser: the warm-started path
    // equals cold fits at every ε to the solver's tolerance, and each model keeps at most the
    // two fits before it.
    void warmStartedPathReachesTheColdMinimisers() {
        const auto d = elab::test::syntheticBinary(400, 6, 11, {1.0, -0.5, 0.25}, 0.3, true);
        for (MechanismKind kind : {MechanismKind::ObjPertGauss, MechanismKind::ObjPertPure}) {
            const LinearErmLearner learner({d.X, d.y}, spec(kind), UtilityMetric::TrainLoss);
            const auto noise = learner.drawNoise(5, 2);
            std::shared_ptr<const TrainedModel> previous;
            std::size_t before = 0; // fits before this one on the path
            for (double eps : parseEpsGrid("0.1:10:8")) {
                const auto warm = learner.fit(eps, *noise, previous.get(), {}, {});
                const auto cold = learner.fit(eps, *noise, nullptr, {}, {});
                const PrivateFit& w = dynamic_cast<const LinearErmModel&>(*warm).fits().front();
                const PrivateFit& c = dynamic_cast<const LinearErmModel&>(*cold).fits().front();
                QCOMPARE(w.solver.status, NewtonCgStatus::Converged);
                QCOMPARE(c.solver.status, NewtonCgStatus::Converged);
                // ‖∇J‖ ≤ 1e-10 and ∇²J ⪰ μI with μ ≥ Λ/n = 1/400 bound each by 4e-8 from θ*.
                const double diff = (w.minimiser - c.minimiser).lpNorm<Eigen::Infinity>();
                QVERIFY2(diff <= 1e-7,
                         qPrintable(QString("eps %1: warm vs cold minimiser differ by %2").arg(eps).arg(diff)));
                const auto& path = dynamic_cast<const LinearErmModel&>(*warm).path();
                QCOMPARE(path.size(), std::min<std::size_t>(before++, 3)); // the cubic's points before this fit
                if (previous) {
                    QCOMPARE(path.front().eps, dynamic_cast<const LinearErmModel&>(*previous).eps());
                    QVERIFY(path.front().minimisers.front() ==
                            dynamic_cast<const LinearErmModel&>(*previous).fits().front().minimiser);
                }
                previous = warm;
            }
        }
    }

    void sweepOnPreparedProblemEqualsConvenienceCall() {
        const auto d = elab::test::syntheticBinary(300, 5, 8, {1.0, -0.5}, 0.3, true);
        UtilitySweepSpec s;
        s.mechanism = spec(MechanismKind::ObjPertGauss);
        s.grid = parseEpsGrid("0.2:5:4");
        s.repeats = 3;
        s.measureAt = {1.0};
        s.estimators = {Estimator::FirstOrder, Estimator::Anchored};
        const auto direct = runUtilitySweep({d.X, d.y}, s);
        const auto problem = prepareProblem({d.X, d.y}, s.mechanism, s.metric);
        for (int pass = 0; pass < 2; ++pass) { // the second pass reuses the kept reference
            const auto viaProblem = runUtilitySweep(*problem, s);
            QCOMPARE(viaProblem.points.size(), direct.points.size());
            for (std::size_t g = 0; g < direct.points.size(); ++g)
                for (std::size_t r = 0; r < direct.points[g].values.size(); ++r)
                    ELAB_EXACT(viaProblem.points[g].values[r], direct.points[g].values[r]);
            ELAB_EXACT(viaProblem.nonPrivate, direct.nonPrivate);
            for (std::size_t k = 0; k < direct.estimates.size(); ++k)
                for (std::size_t g = 0; g < direct.estimates[k].values.size(); ++g)
                    ELAB_EXACT(viaProblem.estimates[k].values[g], direct.estimates[k].values[g]);
        }
    }
};

QTEST_APPLESS_MAIN(TestLearner)
#include "test_learner.moc"
