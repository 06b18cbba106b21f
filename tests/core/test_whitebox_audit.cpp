// The white-box DP-SGD audit (core/audit/whitebox_dpsgd_audit.h): the per-step likelihood ratio
// against the two mixture densities written out here, and on synthetic draws against its closed
// forms (E_out[LR] = 1, E_in[log LR] = the Kullback–Leibler divergence by quadrature); the trainer's
// hook changes nothing when unused and, with canaries on weights of unused features, nothing but
// those weights; a canary's coordinate of the noisy sum is its clipped gradient when sampled plus
// the step's noise; the correct trainer stays below its claim and the broken ones (noise ÷ 10,
// noise assuming half the sensitivity) are flagged above it; numbers are the same for any thread
// count.

#include <tbb/global_control.h>

#include "core/audit/whitebox_dpsgd_audit.h"
#include "core/data/generators.h"
#include "core/data/preprocess.h"
#include "core/learner/sweep_data.h"
#include "core/learners/dpsgd/sgd_trainer.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "tests/support/audit_data.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace elab::core;

namespace {

double normalPdf(double x, double mean, double sd) {
    const double z = (x - mean) / sd;
    return std::exp(-0.5 * z * z) / (sd * std::sqrt(2.0 * std::numbers::pi));
}

// The two densities of one step's observation o = G/C, written out (noise sd s in canary units).
double pIn(double o, double q, double s) { return (1.0 - q) * normalPdf(o, 0.0, s) + q * normalPdf(o, 1.0, s); }
double pOut(double o, double q, double s, Adjacency a) {
    return a == Adjacency::AddRemove ? normalPdf(o, 0.0, s)
                                     : (1.0 - q) * normalPdf(o, 0.0, s) + q * normalPdf(o, -1.0, s);
}

// KL(p_in ‖ p_out) by the trapezoid rule on [−12s − 2, 12s + 2].
double klInOut(double q, double s, Adjacency a) {
    const double lo = -12.0 * s - 2.0, hi = 12.0 * s + 2.0;
    const int n = 200000;
    const double h = (hi - lo) / n;
    double sum = 0.0;
    for (int i = 0; i <= n; ++i) {
        const double o = lo + h * i;
        const double p = pIn(o, q, s);
        const double term = p > 0.0 ? p * std::log(p / pOut(o, q, s, a)) : 0.0;
        sum += (i == 0 || i == n) ? 0.5 * term : term;
    }
    return sum * h;
}

MechanismSpec dpsgd(int hidden) {
    MechanismSpec spec;
    selectMechanism(spec, MechanismKind::Dpsgd);
    spec.sgd.hidden = hidden;
    spec.sgd.epochs = 10;
    spec.sgd.batchSize = 40;
    return spec;
}

Eigen::VectorXi classesOf(const Dataset& d) { return classIndicesOf(sweepDataOf(d).trainY, sweepDataOf(d).classes); }

bool sameNetwork(const Network& a, const Network& b) {
    if (a.layers.size() != b.layers.size())
        return false;
    for (std::size_t l = 0; l < a.layers.size(); ++l)
        if (a.layers[l].W != b.layers[l].W || a.layers[l].b != b.layers[l].b)
            return false;
    return true;
}

} // namespace

class TestWhiteboxAudit : public QObject {
    Q_OBJECT

private slots:
    void stepLogRatioIsTheDensityRatio() {
        for (Adjacency a : {Adjacency::AddRemove, Adjacency::ReplaceOne})
            for (double q : {0.01, 0.3, 1.0})
                for (double s : {0.5, 1.0, 4.0})
                    for (double o : {-3.0, -0.4, 0.0, 0.7, 2.5}) {
                        const double expected = std::log(pIn(o, q, s) / pOut(o, q, s, a));
                        ELAB_FUZZY(whiteboxStepLogRatio(o, q, s, a), expected, 1e-12 * (1.0 + std::abs(expected)));
                    }
        // Far in the tail the densities underflow; the log-ratio stays finite and follows its
        // asymptote log q + (2o − 1)/(2s²) (add/remove).
        const double o = 400.0, q = 0.05, s = 1.0;
        ELAB_FUZZY(whiteboxStepLogRatio(o, q, s, Adjacency::AddRemove), std::log(q) + (2.0 * o - 1.0) / 2.0, 1e-9);
        const std::vector<double> obs{0.3, -1.2, 2.0};
        double sum = 0.0;
        for (double v : obs)
            sum += whiteboxStepLogRatio(v, q, s, Adjacency::ReplaceOne);
        ELAB_FUZZY(whiteboxScore(obs, q, s, Adjacency::ReplaceOne), sum, 1e-14);
    }

    void lrStatisticOnSyntheticDraws() {
        // Draws from the two mixtures with the standard library's generator (not the product's):
        // under "out" the likelihood ratio has mean 1; under "in" the log-ratio's mean is KL.
        std::mt19937_64 gen(7);
        std::normal_distribution<double> z;
        std::uniform_real_distribution<double> u;
        for (Adjacency a : {Adjacency::AddRemove, Adjacency::ReplaceOne}) {
            const double q = 0.2, s = 1.5;
            const int n = 400000;
            double lrSum = 0.0, lrSq = 0.0, llrSum = 0.0, llrSq = 0.0;
            for (int i = 0; i < n; ++i) {
                const double outMean = a == Adjacency::ReplaceOne && u(gen) < q ? -1.0 : 0.0;
                const double lr = std::exp(whiteboxStepLogRatio(outMean + s * z(gen), q, s, a));
                lrSum += lr;
                lrSq += lr * lr;
                const double inMean = u(gen) < q ? 1.0 : 0.0;
                const double llr = whiteboxStepLogRatio(inMean + s * z(gen), q, s, a);
                llrSum += llr;
                llrSq += llr * llr;
            }
            const double lrMean = lrSum / n, lrSe = std::sqrt((lrSq / n - lrMean * lrMean) / n);
            const double llrMean = llrSum / n, llrSe = std::sqrt((llrSq / n - llrMean * llrMean) / n);
            QVERIFY2(std::abs(lrMean - 1.0) < 5.0 * lrSe, qPrintable(QString::number(lrMean)));
            const double kl = klInOut(q, s, a);
            QVERIFY(kl > 0.0);
            QVERIFY2(std::abs(llrMean - kl) < 5.0 * llrSe,
                     qPrintable(QStringLiteral("%1 vs KL %2").arg(llrMean).arg(kl)));
        }
    }

    void unusedHookChangesNothing_data() {
        QTest::addColumn<int>("hidden");
        QTest::newRow("linear") << 0;
        QTest::newRow("hidden 8") << 8;
    }
    void unusedHookChangesNothing() {
        QFETCH(int, hidden);
        const Dataset d = elab::test::moonsWithEmptyColumns(120, 3);
        const SgdSpec spec = dpsgd(hidden).sgd;
        const SgdRun run{1.3, true, 11, 2};
        const Eigen::VectorXi y = classesOf(d);
        const SgdResult plain = trainSgd(d.features, y, 2, spec, run);
        SgdAuditHook empty;
        const SgdResult withEmpty = trainSgd(d.features, y, 2, spec, run, {}, nullptr, &empty);
        QVERIFY(sameNetwork(plain.net, withEmpty.net));
        SgdAuditHook watching;
        long long calls = 0;
        watching.onStep = [&](long long, const Network&, const Network&) { ++calls; };
        const SgdResult watched = trainSgd(d.features, y, 2, spec, run, {}, nullptr, &watching);
        QVERIFY(sameNetwork(plain.net, watched.net));
        QCOMPARE(calls, plain.steps);
        // Canaries on the weights of an unused feature (column 2, after x1 and x2; the intercept
        // is the last) move those weights only.
        SgdAuditHook canaries;
        canaries.canaries = {{0, 0, 2, 1e3}, {0, 1, 2, -1e3}};
        const SgdResult moved = trainSgd(d.features, y, 2, spec, run, {}, nullptr, &canaries);
        Network masked = moved.net, reference = plain.net;
        masked.layers[0].W.col(2).setZero();
        reference.layers[0].W.col(2).setZero();
        QVERIFY(sameNetwork(masked, reference));
        QVERIFY(moved.net.layers[0].W.col(2) != plain.net.layers[0].W.col(2));
    }

    void canaryCoordinateIsClippedCanaryPlusNoise() {
        // No noise: the canary's coordinate of G is C when sampled (its gradient 1e3 clipped to
        // C), else 0 — the rows add exactly 0 — and it is sampled at rate q.
        const Dataset d = elab::test::moonsWithEmptyColumns(100, 2);
        SgdSpec spec = dpsgd(0).sgd;
        spec.clip = 0.7;
        spec.epochs = 100;
        const double q = spec.samplingRate(100);
        SgdAuditHook hook;
        hook.canaries = {{0, 1, 3, 1e3}};
        long long steps = 0, sampled = 0;
        bool onlyZeroOrC = true;
        hook.onStep = [&](long long, const Network& rows, const Network& G) {
            ++steps;
            const double g = G.layers[0].W(1, 3);
            onlyZeroOrC = onlyZeroOrC && rows.layers[0].W(1, 3) == 0.0 && (g == 0.0 || g == 0.7);
            sampled += g == 0.7 ? 1 : 0;
        };
        trainSgd(d.features, classesOf(d), 2, spec, SgdRun{0.0, true, 3, 0}, {}, nullptr, &hook);
        QVERIFY(onlyZeroOrC);
        const double p = static_cast<double>(sampled) / static_cast<double>(steps);
        QVERIFY2(std::abs(p - q) < 5.0 * std::sqrt(q * (1 - q) / static_cast<double>(steps)),
                 qPrintable(QStringLiteral("%1 of %2 steps, q = %3").arg(sampled).arg(steps).arg(q)));
        // With noise: G − C·(sampled) is the step's own standard normal times σC, as stepNoise draws it.
        const double sigma = 2.0;
        const Index col = 3, unit = 1, rowsOfW = 2;
        bool noiseMatches = true;
        hook.onStep = [&](long long step, const Network&, const Network& G) {
            Eigen::VectorXd z;
            stepNoise(z, G.parameterCount(), 3, 0, step, 1);
            const double g = G.layers[0].W(unit, col);
            const double n = z(col * rowsOfW + unit) * sigma * 0.7; // W is column-major, first in the vector
            noiseMatches = noiseMatches && (std::abs(g - n) < 1e-12 || std::abs(g - n - 0.7) < 1e-12);
        };
        trainSgd(d.features, classesOf(d), 2, spec, SgdRun{sigma, true, 3, 0}, {}, nullptr, &hook);
        QVERIFY(noiseMatches);
    }

    void correctTrainerStaysBelowItsClaim_data() {
        QTest::addColumn<int>("view");
        QTest::addColumn<long long>("publicRows");
        QTest::newRow("iterates, replace-one") << 0 << 0LL;
        QTest::newRow("iterates, add/remove") << 0 << 200LL;
        QTest::newRow("residual, replace-one") << 1 << 0LL;
    }
    void correctTrainerStaysBelowItsClaim() {
        // At 95 % confidence each; the seeds are fixed, so the test is deterministic, and it would
        // fail for a bound that ignored the Clopper–Pearson margin (the observed rates give more).
        QFETCH(int, view);
        QFETCH(long long, publicRows);
        const Dataset d = elab::test::moonsWithEmptyColumns(200, 30);
        WhiteboxAuditSpec spec;
        spec.mechanism = dpsgd(0);
        spec.mechanism.sgd.publicRows = publicRows;
        spec.view = static_cast<WhiteboxView>(view);
        spec.eps = 2.0;
        spec.runs = 200;
        double most = 0.0;
        for (std::uint64_t seed : {1, 2, 3}) {
            spec.seed = seed;
            const WhiteboxAuditResult r = runWhiteboxAudit(sweepDataOf(d), spec);
            QCOMPARE(r.adjacency, publicRows > 0 ? Adjacency::AddRemove : Adjacency::ReplaceOne);
            QCOMPARE(r.canaries.size(), view == 0 ? std::size_t(60) : std::size_t(2 * 33));
            QCOMPARE(r.scoresIn.size(), std::size_t(200) * r.canaries.size() / 2);
            QVERIFY2(!r.violated(), qPrintable(QString::fromStdString(whiteboxAuditVerdict(r))));
            most = std::max(most, r.bound.epsLB);
        }
        QVERIFY(most > 0.0); // the audit sees something: the trials separate
    }

    void brokenTrainersAreFlagged_data() {
        QTest::addColumn<double>("noiseDivisor");
        QTest::addColumn<double>("clipMultiplier");
        QTest::newRow("noise ÷ 10") << 10.0 << 1.0;
        QTest::newRow("sensitivity halved") << 1.0 << 2.0;
    }
    void brokenTrainersAreFlagged() {
        QFETCH(double, noiseDivisor);
        QFETCH(double, clipMultiplier);
        const Dataset d = elab::test::moonsWithEmptyColumns(200, 30);
        WhiteboxAuditSpec spec;
        spec.mechanism = dpsgd(0);
        spec.eps = 2.0;
        spec.runs = 1000;
        spec.view = WhiteboxView::Residual;
        const WhiteboxAuditResult correct = runWhiteboxAudit(sweepDataOf(d), spec);
        spec.noiseDivisor = noiseDivisor;
        spec.clipMultiplier = clipMultiplier;
        const WhiteboxAuditResult broken = runWhiteboxAudit(sweepDataOf(d), spec);
        QVERIFY2(broken.violated(), qPrintable(QString::fromStdString(whiteboxAuditVerdict(broken))));
        QVERIFY(broken.bound.epsLB > correct.bound.epsLB);
        ELAB_EXACT(broken.sigma, correct.sigma); // the claim (and the score's σ) is the correct trainer's
    }

    void sameNumbersForAnyThreadCount() {
        const Dataset d = elab::test::moonsWithEmptyColumns(100, 5);
        WhiteboxAuditSpec spec;
        spec.mechanism = dpsgd(4);
        spec.runs = 6;
        spec.threads = 1;
        const WhiteboxAuditResult one = runWhiteboxAudit(sweepDataOf(d), spec);
        spec.threads = 2;
        const WhiteboxAuditResult two = runWhiteboxAudit(sweepDataOf(d), spec);
        QCOMPARE(one.scoresIn.size(), std::size_t(6 * 20 / 2));
        for (std::size_t i = 0; i < one.scoresIn.size(); ++i) {
            ELAB_EXACT(one.scoresIn[i], two.scoresIn[i]);
            ELAB_EXACT(one.scoresOut[i], two.scoresOut[i]);
        }
        ELAB_EXACT(one.bound.epsLB, two.bound.epsLB);
    }

    void stopsWhenCancelled() {
        const Dataset d = elab::test::moonsWithEmptyColumns(100, 5);
        WhiteboxAuditSpec spec;
        spec.mechanism = dpsgd(0);
        spec.runs = 20;
        std::stop_source source;
        source.request_stop();
        RunContext ctx(source.get_token(), {});
        const WhiteboxAuditResult r = runWhiteboxAudit(sweepDataOf(d), spec, &ctx);
        QVERIFY(r.stopped);
        QCOMPARE(r.bound.epsLB, 0.0);
        QVERIFY(QString::fromStdString(whiteboxAuditVerdict(r)).contains(QStringLiteral("no verdict")));
    }

    void refusals() {
        const Dataset d = elab::test::moonsWithEmptyColumns(60, 0);
        WhiteboxAuditSpec spec;
        spec.mechanism = dpsgd(0);
        try {
            runWhiteboxAudit(sweepDataOf(d), spec);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("0 in every training row")), e.what());
        }
        spec.view = WhiteboxView::Residual; // needs no unused feature
        spec.runs = 2;
        QCOMPARE(runWhiteboxAudit(sweepDataOf(d), spec).canaries.size(), std::size_t(2 * 3));
        selectMechanism(spec.mechanism, MechanismKind::ObjPertGauss);
        QVERIFY(QString::fromStdString(spec.validate()).contains(QStringLiteral("DP-SGD only")));
        SgdAuditHook outside;
        outside.canaries = {{0, 5, 0, 1.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainSgd(d.features, classesOf(d), 2, dpsgd(0).sgd,
                                                                 SgdRun{1.0, true, 1, 0}, {}, nullptr, &outside));
    }
};

QTEST_APPLESS_MAIN(TestWhiteboxAudit)
#include "test_whitebox_audit.moc"
