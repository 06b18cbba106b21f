// DP-SGD (docs/MATH.md §3.6; issue 12): the per-example gradients and their norms ‖δ‖·‖a‖
// against a naive per-example computation and finite differences; clipping bounds every
// per-example norm (total and per layer); the noise (moments with fixed seeds, k·σ/√N bounds, and
// its exact scale σC in a step); the Poisson sampling rate; determinism for 1 and 2 threads;
// cancellation; and the learner through the mechanism catalog.

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/learner/sweep_data.h"
#include "core/learners/dpsgd/dpsgd_learner.h"
#include "core/learners/dpsgd/network.h"
#include "core/learners/dpsgd/sgd_trainer.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/optim/dense_products.h"
#include "core/util/noise.h"
#include "core/util/normal_sampler.h"

#include "tests/support/generated_data.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace elab::core;

namespace {

/// A small random problem: n rows in R^p with ‖x‖ ≤ 1, K classes.
struct Problem {
    FeatureMatrix X;
    Eigen::VectorXi y;
};

Problem randomProblem(Index n, Index p, int K, std::uint64_t seed) {
    Rng rng(seed);
    NormalSampler normal(rng);
    Eigen::MatrixXd X(n, p);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < p; ++j)
            X(i, j) = normal();
        X.row(i) /= std::max(1.0, X.row(i).norm());
    }
    Eigen::VectorXi y(n);
    for (Index i = 0; i < n; ++i)
        y(i) = static_cast<int>(uniformIndex(rng, static_cast<std::uint64_t>(K)));
    return {FeatureMatrix(std::move(X)), y};
}

/// Cross-entropy of one example (no dropout).
double exampleLoss(const Network& net, const FeatureMatrix& X, const Eigen::VectorXi& y, Index i) {
    const Eigen::MatrixXd logits = networkLogits(net, X.selectRows({i}));
    return classificationMetrics(logits, y.segment(i, 1)).loss;
}

/// The flat vector of a network's parameters (layer by layer: W column-major, then b).
Eigen::VectorXd flat(const Network& net) {
    Eigen::VectorXd v(net.parameterCount());
    Index at = 0;
    for (const DenseLayer& l : net.layers) {
        v.segment(at, l.W.size()) = l.W.reshaped();
        at += l.W.size();
        v.segment(at, l.b.size()) = l.b;
        at += l.b.size();
    }
    return v;
}

double layerNorm(const DenseLayer& l) { return std::sqrt(l.W.squaredNorm() + l.b.squaredNorm()); }

SgdSpec smallSpec(int hidden) {
    SgdSpec s;
    s.hidden = hidden;
    s.epochs = 3;
    s.batchSize = 16;
    s.clip = 1.0;
    s.learningRate = 0.5;
    return s;
}

} // namespace

class TestDpsgd : public QObject {
    Q_OBJECT

private slots:
    void perExampleNormsMatchNaivePerExampleGradients_data() {
        QTest::addColumn<int>("hidden");
        QTest::newRow("linear") << 0;
        QTest::newRow("hidden 7") << 7;
    }
    void perExampleNormsMatchNaivePerExampleGradients() {
        QFETCH(int, hidden);
        const Problem pr = randomProblem(12, 5, 3, 1);
        Network net = initialNetwork(5, hidden, 3, 42);
        for (DenseLayer& l : net.layers) // non-zero biases and a linear model away from 0
            l.b.setLinSpaced(-0.3, 0.4), l.W.array() += 0.1;
        BatchWork work;
        Network sum = net;
        Eigen::VectorXd norms;
        clippedGradientSum(net, pr.X, pr.y, nullptr, {false, ClipMode::Total, 1.0}, work, sum, &norms);
        // Naive: one example at a time, its whole gradient formed and measured.
        Network naiveSum = net;
        naiveSum.setZero();
        for (Index i = 0; i < pr.X.rows(); ++i) {
            Network g = net;
            BatchWork w1;
            clippedGradientSum(net, pr.X.selectRows({i}), pr.y.segment(i, 1), nullptr, {false, ClipMode::Total, 1.0},
                               w1, g);
            ELAB_RELATIVE(flat(g).norm(), norms(i), 1e-12);
            naiveSum.addScaled(g, 1.0);
        }
        QVERIFY((flat(naiveSum) - flat(sum)).norm() <= 1e-12 * flat(sum).norm());
    }

    void gradientsMatchFiniteDifferences() {
        const Problem pr = randomProblem(6, 4, 3, 2);
        const Network net = initialNetwork(4, 5, 3, 7);
        const Index i = 3;
        Network g = net;
        BatchWork w;
        clippedGradientSum(net, pr.X.selectRows({i}), pr.y.segment(i, 1), nullptr, {false, ClipMode::Total, 1.0}, w, g);
        const Eigen::VectorXd analytic = flat(g);
        const double h = 1e-6;
        Index at = 0;
        for (std::size_t l = 0; l < net.layers.size(); ++l) {
            for (Index k = 0; k < net.layers[l].W.size() + net.layers[l].b.size(); ++k, ++at) {
                Network plus = net, minus = net;
                auto entry = [&](Network& n) -> double& {
                    DenseLayer& L = n.layers[l];
                    return k < L.W.size() ? L.W.reshaped()(k) : L.b(k - L.W.size());
                };
                entry(plus) += h;
                entry(minus) -= h;
                const double fd = (exampleLoss(plus, pr.X, pr.y, i) - exampleLoss(minus, pr.X, pr.y, i)) / (2.0 * h);
                ELAB_FUZZY(analytic(at), fd, 1e-6);
            }
        }
    }

    void clippingBoundsEveryPerExampleNorm_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("total") << int(ClipMode::Total);
        QTest::newRow("per layer") << int(ClipMode::PerLayer);
    }
    void clippingBoundsEveryPerExampleNorm() {
        QFETCH(int, mode);
        const ClipRule rule{true, static_cast<ClipMode>(mode), 0.05}; // small: most examples are clipped
        const Problem pr = randomProblem(20, 6, 4, 3);
        const Network net = initialNetwork(6, 9, 4, 11);
        Network sum = net, naive = net;
        naive.setZero();
        BatchWork w;
        Eigen::VectorXd norms;
        clippedGradientSum(net, pr.X, pr.y, nullptr, rule, w, sum, &norms);
        int clipped = 0;
        for (Index i = 0; i < pr.X.rows(); ++i) {
            Network g = net;
            BatchWork w1;
            clippedGradientSum(net, pr.X.selectRows({i}), pr.y.segment(i, 1), nullptr, rule, w1, g);
            if (rule.mode == ClipMode::Total) {
                QVERIFY(flat(g).norm() <= rule.threshold * (1.0 + 1e-12));
            } else {
                for (const DenseLayer& l : g.layers)
                    QVERIFY(layerNorm(l) <= rule.threshold * (1.0 + 1e-12));
                QVERIFY(flat(g).norm() <= rule.threshold * std::sqrt(2.0) * (1.0 + 1e-12)); // the sensitivity C√L
            }
            clipped += norms(i) > rule.threshold ? 1 : 0;
            naive.addScaled(g, 1.0);
        }
        QVERIFY(clipped >= 10);
        QVERIFY((flat(naive) - flat(sum)).norm() <= 1e-12 * flat(sum).norm());
    }

    void stepNoiseIsStandardNormalAndIndependentOfThreads() {
        Eigen::VectorXd z1, z2;
        const Index N = 200000;
        stepNoise(z1, N, 9, 0, 5, 1);
        stepNoise(z2, N, 9, 0, 5, 2);
        QVERIFY(z1 == z2);
        const double k = 5.0;
        const double mean = z1.mean();
        const double var = (z1.array() - mean).square().sum() / (N - 1);
        ELAB_FUZZY(mean, 0.0, k / std::sqrt(double(N)));
        ELAB_FUZZY(var, 1.0, k * std::sqrt(2.0 / N));
        const double tail = (z1.array().abs() > 2.0).cast<double>().mean();
        ELAB_FUZZY(tail, 0.0455003, k * std::sqrt(0.0455 * 0.9545 / N));
        // Another step, another stream.
        Eigen::VectorXd z3;
        stepNoise(z3, N, 9, 0, 6, 1);
        QVERIFY(std::abs(z1.dot(z3)) / N < k / std::sqrt(double(N)));
    }

    void oneStepAddsNoiseOfScaleSigmaC() {
        // Linear model from 0, one step, η/S known: θ(σ) = −η/S (G + σC z), so
        // θ(σ₂) − θ(σ₁) = −η/S (σ₂ − σ₁) C z exactly, z the step's standard normals.
        const Problem pr = randomProblem(50, 4, 3, 4);
        SgdSpec s = smallSpec(0);
        s.epochs = 1;
        s.batchSize = 50; // q = 1: one step per epoch
        s.clip = 0.7;
        const SgdResult a = trainSgd(pr.X, pr.y, 3, s, {1.0, true, 3, 0});
        const SgdResult b = trainSgd(pr.X, pr.y, 3, s, {4.0, true, 3, 0});
        QCOMPARE(a.steps, 1LL);
        Eigen::VectorXd z;
        stepNoise(z, a.net.parameterCount(), 3, 0, 0, 1);
        const Eigen::VectorXd expected = -(s.learningRate / s.batchSize) * 3.0 * s.clip * z;
        QVERIFY((flat(b.net) - flat(a.net) - expected).norm() <= 1e-12 * expected.norm());
    }

    void poissonSamplingHasRateQ() {
        const Index n = 5000;
        const double q = 0.02;
        const int steps = 400;
        double total = 0.0;
        for (int t = 0; t < steps; ++t) {
            const auto rows = poissonSample(n, q, 17, 1, t);
            total += static_cast<double>(rows.size());
            QVERIFY(std::is_sorted(rows.begin(), rows.end()));
        }
        // Mean batch size qn = 100 with sd √(nq(1−q)/steps).
        ELAB_FUZZY(total / steps, q * n, 5.0 * std::sqrt(n * q * (1 - q) / steps));
        QVERIFY(poissonSample(n, q, 17, 1, 0) != poissonSample(n, q, 17, 1, 1));
    }

    void trainingIsDeterministicForAnyThreadCount() {
        const Problem pr = randomProblem(300, 8, 3, 5);
        SgdSpec s = smallSpec(20);
        s.dropout = DropoutKind::Gaussian;
        s.dropoutRate = 0.3;
        s.threads = 1;
        const SgdResult one = trainSgd(pr.X, pr.y, 3, s, {2.0, true, 8, 1});
        s.threads = 2;
        const SgdResult two = trainSgd(pr.X, pr.y, 3, s, {2.0, true, 8, 1});
        QVERIFY(flat(one.net) == flat(two.net));
        const SgdResult otherRep = trainSgd(pr.X, pr.y, 3, s, {2.0, true, 8, 2});
        QVERIFY(flat(one.net) != flat(otherRep.net));
    }

    void concurrentRunsEqualSequentialOnes() {
        // Several runs at once (as the sweeps and the audit train them) must not disturb each other:
        // with Debian's sequential OpenBLAS, concurrent products corrupted each other (2026-11-25).
        const Problem pr = randomProblem(400, 12, 3, 9);
        SgdSpec s = smallSpec(16);
        s.threads = 1;
        constexpr int kRuns = 12;
        std::vector<Eigen::VectorXd> sequential;
        for (int r = 0; r < kRuns; ++r)
            sequential.push_back(flat(trainSgd(pr.X, pr.y, 3, s, {2.0, true, 4, r}).net));
        for (int trial = 0; trial < 3; ++trial) {
            std::vector<Eigen::VectorXd> concurrent(kRuns);
            tbb::task_arena arena(2);
            arena.execute([&] {
                tbb::parallel_for(0, kRuns, [&](int r) {
                    concurrent[static_cast<std::size_t>(r)] = flat(trainSgd(pr.X, pr.y, 3, s, {2.0, true, 4, r}).net);
                });
            });
            for (int r = 0; r < kRuns; ++r)
                QVERIFY2(
                    concurrent[static_cast<std::size_t>(r)] == sequential[static_cast<std::size_t>(r)],
                    qPrintable(QStringLiteral("run %1 (%2)").arg(r).arg(QString::fromLatin1(denseProductBackend()))));
        }
    }

    void cancelStopsBetweenSteps() {
        const Problem pr = randomProblem(200, 4, 2, 6);
        std::stop_source source;
        SgdMonitor monitor;
        int epochsSeen = 0;
        monitor.onEpoch = [&](const EpochReport&) {
            if (++epochsSeen == 1)
                source.request_stop();
        };
        const SgdResult r = trainSgd(pr.X, pr.y, 2, smallSpec(0), {1.0, true, 1, 0}, source.get_token(), &monitor);
        QVERIFY(r.stopped);
        QCOMPARE(epochsSeen, 1);
        QCOMPARE(r.steps, smallSpec(0).stepsPerEpoch(200));
    }

    void learnsMoonsAndAccuracyGrowsWithEpsilon() {
        const auto moons = elab::test::generated("moons", 600, 2, 0.15, 3);
        const SweepData data = sweepDataOf(*moons);
        MechanismSpec spec;
        selectMechanism(spec, MechanismKind::Dpsgd);
        spec.sgd.hidden = 32;
        spec.sgd.epochs = 30;
        spec.sgd.batchSize = 60;
        spec.sgd.learningRate = 0.5;
        spec.privacy.delta = 1e-5;
        const auto problem = prepareProblem(data, spec, UtilityMetric::TrainAccuracy);
        const PrivateLearner& learner = problem->learner();
        const double nonPrivate = learner.utility(*learner.fitNonPrivate({}, {}));
        QVERIFY2(nonPrivate > 0.95, qPrintable(QString::number(nonPrivate))); // the hidden layer bends the boundary
        double low = 0.0, high = 0.0;
        for (int r = 0; r < 3; ++r) {
            const auto noise = learner.drawNoise(12, r);
            low += learner.utility(*learner.fit(0.1, *noise, nullptr, {}, {})) / 3.0;
            high += learner.utility(*learner.fit(20.0, *noise, nullptr, {}, {})) / 3.0;
        }
        QVERIFY2(high > low + 0.02, qPrintable(QString("ε = 0.1: %1, ε = 20: %2").arg(low).arg(high)));
        QVERIFY2(high > 0.85, qPrintable(QString::number(high)));
    }

    // PLD is the default: it proves less ε than RDP for the same σ, so it needs less noise for ε;
    // the guarantee names it and states its own ε for the σ (recomputed here by the accountants).
    void pldCalibratesByDefault_data() {
        QTest::addColumn<long long>("publicRows");
        QTest::addColumn<double>("eps");
        for (long long rows : {0LL, 1439LL})
            for (double eps : {0.5, 1.0, 8.0})
                QTest::addRow("%s eps %g", rows > 0 ? "add-remove" : "replace-one", eps) << rows << eps;
    }
    void pldCalibratesByDefault() {
        QFETCH(long long, publicRows);
        QFETCH(double, eps);
        QCOMPARE(SgdSpec{}.accountant, AccountantKind::Pld);
        MechanismSpec spec;
        selectMechanism(spec, MechanismKind::Dpsgd);
        spec.sgd.epochs = 100;
        spec.sgd.batchSize = 100;
        spec.sgd.publicRows = publicRows;
        spec.privacy.delta = 1e-4;
        const PrivacyGuarantee g = mechanismInfo(MechanismKind::Dpsgd).guarantee(spec, 1439, 10, eps);
        QCOMPARE(g.branch, std::string("pld"));
        QVERIFY2(g.source.find("σ by PLD") != std::string::npos, g.source.c_str());
        const SgdPrivacyParams p{g.parameter("sigma"), 100.0 / 1439.0, 1500, 1e-4};
        const auto at = [&](AccountantKind k) {
            return publicRows > 0 ? accountEpsilon(k, p).epsilon : replaceOneEpsilon(k, p).epsilon;
        };
        ELAB_EXACT(g.epsilon, at(AccountantKind::Pld));
        QVERIFY(g.epsilon <= eps && g.epsilon >= 0.99 * eps);
        QVERIFY2(at(AccountantKind::Rdp) > eps,
                 qPrintable(QString("RDP ε %1 at PLD's σ").arg(at(AccountantKind::Rdp))));
        MechanismSpec rdp = spec;
        rdp.sgd.accountant = AccountantKind::Rdp;
        const PrivacyGuarantee r = mechanismInfo(MechanismKind::Dpsgd).guarantee(rdp, 1439, 10, eps);
        QVERIFY2(r.source.find("σ by RDP") != std::string::npos, r.source.c_str());
        QVERIFY(g.parameter("sigma") < r.parameter("sigma"));
    }

    void withPublicNTheGuaranteeIsAddRemove() {
        MechanismSpec spec;
        selectMechanism(spec, MechanismKind::Dpsgd);
        spec.sgd.accountant = AccountantKind::Rdp; // the RDP accountant's own figure below
        spec.sgd.epochs = 100;
        spec.sgd.batchSize = 100;
        spec.sgd.publicRows = 1439;
        spec.privacy.delta = 1e-4;
        // N declared public sets q and T whatever the training rows are.
        const PrivacyGuarantee g = mechanismInfo(MechanismKind::Dpsgd).guarantee(spec, 1200, 10, 1.0);
        QVERIFY(g.isPrivate);
        QCOMPARE(g.adjacency, Adjacency::AddRemove);
        QVERIFY(g.epsilon <= 1.0 && g.epsilon >= 0.999);
        QCOMPARE(g.delta, 1e-4);
        QCOMPARE(g.parameter("steps"), 100.0 * 15.0);
        ELAB_RELATIVE(g.parameter("q"), 100.0 / 1439.0, 1e-15);
        QCOMPARE(g.parameter("rows"), 1439.0);
        QVERIFY(g.parameter("sigma") > 0.5);
        // The accountant's own figure at σ, q, T, δ.
        SgdPrivacyParams p{g.parameter("sigma"), 100.0 / 1439.0, 1500, 1e-4};
        ELAB_EXACT(g.epsilon, accountEpsilon(AccountantKind::Rdp, p).epsilon);
        ELAB_RELATIVE(g.parameter("eps_replace_one"), 2.0 * g.epsilon, 1e-15);
        QVERIFY(g.assumptions.front().find("add or remove") != std::string::npos);
        QVERIFY(std::any_of(g.assumptions.begin(), g.assumptions.end(), [](const std::string& a) {
            return a.find("N = 1439 declared public") != std::string::npos;
        }));
        // The published zCDP procedure: the guarantee shown is what RDP proves for its σ.
        spec.sgd.accountant = AccountantKind::ZcdpPublished;
        const PrivacyGuarantee z = mechanismInfo(MechanismKind::Dpsgd).guarantee(spec, 1439, 10, 1.0);
        p.sigma = z.parameter("sigma");
        ELAB_EXACT(z.epsilon, accountEpsilon(AccountantKind::Rdp, p).epsilon);
        QVERIFY(!z.notes.empty() && z.notes.front().find("not a valid proof") != std::string::npos);
    }

    void withoutPublicNTheGuaranteeIsReplaceOneWithinTheSlidersEpsilon_data() {
        QTest::addColumn<int>("accountant");
        QTest::addColumn<double>("eps");
        for (AccountantKind k : {AccountantKind::Rdp, AccountantKind::AdvancedComposition})
            for (double eps : {0.3, 1.0, 8.0})
                QTest::addRow("%s eps %g", toString(k), eps) << int(k) << eps;
    }
    void withoutPublicNTheGuaranteeIsReplaceOneWithinTheSlidersEpsilon() {
        QFETCH(int, accountant);
        QFETCH(double, eps);
        MechanismSpec spec;
        selectMechanism(spec, MechanismKind::Dpsgd);
        spec.sgd.epochs = 20;
        spec.sgd.batchSize = 100;
        spec.sgd.accountant = static_cast<AccountantKind>(accountant);
        spec.privacy.delta = 1e-4;
        const PrivacyGuarantee g = mechanismInfo(MechanismKind::Dpsgd).guarantee(spec, 1439, 10, eps);
        QVERIFY(g.isPrivate);
        QCOMPARE(g.adjacency, Adjacency::ReplaceOne);
        // The stated replace-one (ε, δ) is within the slider's (ε, δ) ...
        QVERIFY2(g.epsilon <= eps, qPrintable(QString("ε %1 > %2").arg(g.epsilon).arg(eps)));
        QVERIFY2(g.delta <= 1e-4, qPrintable(QString("δ %1 > 1e-4").arg(g.delta)));
        QVERIFY(g.epsilon >= 0.99 * eps); // and uses it (no needless noise)
        // ... and is group privacy of the accountant's add/remove (ε_a, δ_a), recomputed here.
        const double q = 100.0 / 1439.0;
        // (δ_a is δ/(1 + e^{ε'/2}) for the least ε' ≤ ε that holds, so at least the calibration's.)
        const double deltaA = g.parameter("delta_add_remove");
        QVERIFY(deltaA >= 1e-4 / (1.0 + std::exp(eps / 2.0)) * (1.0 - 1e-14));
        const SgdPrivacyParams p{g.parameter("sigma"), q, 20 * 15, deltaA};
        const double epsA = accountEpsilon(spec.sgd.accountant, p).epsilon;
        ELAB_EXACT(g.parameter("eps_add_remove"), epsA);
        ELAB_RELATIVE(g.epsilon, 2.0 * epsA, 1e-15);
        ELAB_RELATIVE(g.delta, (1.0 + std::exp(epsA)) * deltaA, 1e-15);
        QCOMPARE(g.parameter("rows"), 1439.0);
        ELAB_RELATIVE(g.parameter("q"), q, 1e-15);
        QVERIFY2(g.assumptions.front().find("replace one training row") != std::string::npos,
                 g.assumptions.front().c_str());
        // More noise than the add/remove guarantee at the same ε with N public needs.
        MechanismSpec open = spec;
        open.sgd.publicRows = 1439;
        QVERIFY(g.parameter("sigma") >
                mechanismInfo(MechanismKind::Dpsgd).guarantee(open, 1439, 10, eps).parameter("sigma"));
        // The ε spent by the end of training, in the same terms, is the guarantee's.
        ELAB_EXACT(DpsgdLearner::epsilonSpent(spec, 1439, g.parameter("sigma"), 20 * 15), g.epsilon);
    }

    void theLearnerTrainsWithTheGuaranteesSigma() {
        const auto moons = elab::test::generated("moons", 300, 2, 0.15, 3);
        const SweepData data = sweepDataOf(*moons);
        for (long long publicRows : {0LL, 1000LL}) {
            MechanismSpec spec;
            selectMechanism(spec, MechanismKind::Dpsgd);
            spec.sgd.hidden = 0;
            spec.sgd.epochs = 3;
            spec.sgd.publicRows = publicRows;
            const DpsgdLearner learner(data, spec, UtilityMetric::TrainAccuracy);
            const PrivacyGuarantee g = learner.guarantee(0.7);
            ELAB_EXACT(learner.sigmaFor(0.7), g.parameter("sigma"));
            QCOMPARE(g.adjacency, publicRows > 0 ? Adjacency::AddRemove : Adjacency::ReplaceOne);
            ELAB_RELATIVE(g.parameter("q"), 64.0 / (publicRows > 0 ? 1000.0 : 300.0), 1e-15);
        }
    }

    void badSettingsAreRefused() {
        SgdSpec s;
        s.hidden = 0;
        s.dropout = DropoutKind::Bernoulli;
        QVERIFY(s.validate().find("hidden") != std::string::npos);
        SgdSpec negative;
        negative.publicRows = -1;
        QVERIFY(negative.validate().find("public row count") != std::string::npos);
        s.hidden = 4;
        s.dropoutRate = 1.0;
        QVERIFY(!s.validate().empty());
        const Problem pr = randomProblem(10, 3, 2, 1);
        Eigen::VectorXi bad = pr.y;
        bad(0) = 5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainSgd(pr.X, bad, 2, smallSpec(0), {1.0, true, 1, 0}));
    }
};

QTEST_APPLESS_MAIN(TestDpsgd)
#include "test_dpsgd.moc"
