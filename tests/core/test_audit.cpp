// The privacy audit (issue 14; docs/MATH.md §5): Clopper–Pearson bounds against known values;
// the bound on randomised response (whose exact ε is known) approaches ε as T grows and exceeds
// it no more often than the confidence allows; every shipped mechanism audited at ε ∈ {0.5, 2}
// stays within its claim; the same mechanisms with their noise divided by 10 (a test-only
// switch) are caught; the run is bit-identical for 1 and 2 threads.

#include <tbb/global_control.h>

#include "core/audit/audit_bound.h"
#include "core/audit/clopper_pearson.h"
#include "core/audit/mechanism_audit.h"
#include "core/data/generators.h"
#include "core/data/preprocess.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/plain_language.h"
#include "core/util/random.h"
#include "tests/support/audit_data.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace elab::core;

using elab::test::moonsWithRareFeature;

namespace {

// T runs of ε-randomised response on each neighbour (the bit 0 on D, 1 on D′): the score is the
// released bit. Its exact privacy is ε: FPR = FNR = 1/(1 + e^ε).
void randomisedResponse(double eps, int T, std::uint64_t seed, std::vector<double>& d, std::vector<double>& d1) {
    Rng rng(seed);
    const double keep = std::exp(eps) / (1.0 + std::exp(eps));
    d.resize(static_cast<std::size_t>(T));
    d1.resize(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
        d[static_cast<std::size_t>(t)] = uniform01(rng) < keep ? 0.0 : 1.0;
        d1[static_cast<std::size_t>(t)] = uniform01(rng) < keep ? 1.0 : 0.0;
    }
}

// The settings each mechanism is audited with, and the runs per neighbour: output perturbation
// and the Gaussian classifier with Λ = 100 (with a small Λ the logistic loss saturates and the
// canary moves the minimiser far less than the sensitivity the noise is calibrated to), DP-SGD
// full-batch (q = 1, 5 steps, a softmax-linear model).
struct Audited {
    MechanismSpec spec;
    int runs;
};

Audited audited(MechanismKind kind, Index rows) {
    Audited a{{}, 2000};
    selectMechanism(a.spec, kind);
    if (kind == MechanismKind::OutPertPure || kind == MechanismKind::OutPertGauss || kind == MechanismKind::GaussianLm)
        a.spec.model.lambda = 100.0;
    if (kind == MechanismKind::ObjPertGauss || kind == MechanismKind::GaussianLm)
        a.runs = 4000;
    if (kind == MechanismKind::Dpsgd) {
        a.spec.sgd.hidden = 0;
        a.spec.sgd.epochs = 5;
        a.spec.sgd.batchSize = static_cast<int>(rows);
        a.runs = 1000;
    }
    return a;
}

} // namespace

class TestAudit : public QObject {
    Q_OBJECT

private slots:
    void clopperPearsonKnownValues() {
        // k = 0 of n: the upper bound is 1 − a^{1/n} exactly.
        ELAB_FUZZY(clopperPearsonUpper(0, 10, 0.025), 1.0 - std::pow(0.025, 0.1), 1e-12);
        ELAB_FUZZY(clopperPearsonUpper(0, 100, 0.05), 1.0 - std::pow(0.05, 0.01), 1e-12);
        QCOMPARE(clopperPearsonUpper(10, 10, 0.025), 1.0);
        QCOMPARE(clopperPearsonLower(0, 10, 0.025), 0.0);
        // k = n: the lower bound is a^{1/n}.
        ELAB_FUZZY(clopperPearsonLower(10, 10, 0.025), std::pow(0.025, 0.1), 1e-12);
        // 5 of 10, two-sided 95 %: [0.187086, 0.812914] (the standard table value).
        ELAB_FUZZY(clopperPearsonLower(5, 10, 0.025), 0.187086, 1e-6);
        ELAB_FUZZY(clopperPearsonUpper(5, 10, 0.025), 0.812914, 1e-6);
        // 1 of 20 at one-sided 97.5 %: 0.248733.
        ELAB_FUZZY(clopperPearsonUpper(1, 20, 0.025), 0.248733, 1e-6);
    }

    void boundFormula() {
        // Perfect separation with m runs: ε_LB = log((1 − δ − FNR⁺)/FPR⁺) with both at 1 − (α/2)^{1/m}.
        const double u = 1.0 - std::pow(0.025, 1.0 / 100);
        ELAB_FUZZY(epsilonLowerBound(0, 0, 100, 0.0, 0.05), std::log((1.0 - u) / u), 1e-12);
        QCOMPARE(epsilonLowerBound(50, 50, 100, 0.0, 0.05), 0.0); // a coin: nothing
    }

    void randomisedResponseApproachesItsEpsilon() {
        const double eps = 1.0;
        double previous = 0.0;
        for (int T : {400, 4000, 40000}) {
            std::vector<double> d, d1;
            randomisedResponse(eps, T, 11, d, d1);
            const AuditBound b = auditBound(d, d1, 0.0);
            qInfo("randomised response, ε = 1, T = %d: ε_LB = %.3f", T, b.epsLB);
            QVERIFY2(b.epsLB <= eps, qPrintable(QStringLiteral("T = %1: ε_LB = %2 > ε").arg(T).arg(b.epsLB)));
            QVERIFY2(b.epsLB > previous,
                     qPrintable(QStringLiteral("T = %1: ε_LB = %2 not above %3").arg(T).arg(b.epsLB).arg(previous)));
            previous = b.epsLB;
        }
        QVERIFY2(previous > 0.9, qPrintable(QString::number(previous))); // 40,000 runs: within 0.1 of ε
    }

    void pointEstimateFormula() {
        // Perfect separation, 10 evaluated runs per neighbour: both rates (0 + ½)/11, so the point
        // estimate is log((1 − 0.5/11)/(0.5/11)) = log 21; it is above the bound, which has confidence.
        const std::vector<double> d(20, 0.0), d1(20, 1.0);
        const AuditBound b = auditBound(d, d1, 0.0);
        ELAB_FUZZY(b.pointEstimate, std::log(21.0), 1e-12);
        QVERIFY(b.pointEstimate > b.epsLB);
        // Identical samples: the observed rates say nothing.
        const AuditBound none = auditBound(d, d, 0.0);
        QCOMPARE(none.epsLB, 0.0);
        QVERIFY(none.pointEstimate < 0.2);
    }

    void tiesGoToTheBestSeparatingThreshold() {
        // Two normal samples 0.1 sd apart, 200 runs per half: no threshold certifies anything on
        // the first half, so every τ ties at ε_LB = 0 there. The tie goes to the τ with the largest
        // TPR − FPR on the first half — inside the two samples, not below every score (which says
        // D′ for every run: a false-positive rate of 1, the degenerate attack once shown).
        std::mt19937_64 rng(5);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::vector<double> d(400), d1(400);
        for (double& v : d)
            v = normal(rng);
        for (double& v : d1)
            v = normal(rng) + 0.1;
        const AuditBound b = auditBound(d, d1, 0.0);
        QVERIFY2(b.fpr > 0.05 && b.fpr < 0.95,
                 qPrintable(QStringLiteral("FPR %1, τ = %2").arg(b.fpr).arg(b.threshold)));
        QVERIFY2(std::abs(b.threshold) < 2.0, qPrintable(QString::number(b.threshold)));
        QVERIFY(b.epsLB <= 1.0);
    }

    void randomisedResponseRarelyExceedsItsEpsilon() {
        // 400 independent audits of 200 runs each (fixed seeds): ε_LB > ε must happen in at most
        // α = 5 % of them (20); Clopper–Pearson makes it much rarer.
        const double eps = 1.0;
        int above = 0;
        for (int k = 0; k < 400; ++k) {
            std::vector<double> d, d1;
            randomisedResponse(eps, 200, deriveSeed(3, static_cast<std::uint64_t>(k)), d, d1);
            above += auditBound(d, d1, 0.0).epsLB > eps ? 1 : 0;
        }
        qInfo("randomised response, ε = 1: %d of 400 audits of 200 runs above ε", above);
        QVERIFY2(above <= 20, qPrintable(QString::number(above)));
    }

    void everyMechanismWithinItsClaim_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("eps");
        for (const MechanismInfo& info : mechanismCatalog()) {
            if (info.kind == MechanismKind::NonPrivate)
                continue;
            for (double eps : {0.5, 2.0})
                QTest::newRow(
                    qPrintable(QStringLiteral("%1 at ε = %2").arg(QString::fromUtf8(toString(info.kind))).arg(eps)))
                    << static_cast<int>(info.kind) << eps;
        }
    }
    void everyMechanismWithinItsClaim() {
        QFETCH(int, kind);
        QFETCH(double, eps);
        const Dataset data = moonsWithRareFeature();
        const Audited a = audited(static_cast<MechanismKind>(kind), data.rows());
        AuditSpec spec;
        spec.mechanism = a.spec;
        spec.eps = eps;
        spec.runs = a.runs;
        spec.seed = 17;
        const AuditResult r = runAudit(sweepDataOf(data), spec);
        qInfo("%s", auditVerdict(r).c_str());
        QVERIFY2(!r.violated(), auditVerdict(r).c_str());
        QCOMPARE(r.scoresD.size(), std::size_t(a.runs));
        QVERIFY(std::none_of(r.scoresD.begin(), r.scoresD.end(), [](double v) { return std::isnan(v); }));
        QVERIFY(r.canary.nonPrivateShift > 0.0); // the canary moves the non-private model
        QVERIFY2(r.canary.description.find("unit row along feature") != std::string::npos,
                 r.canary.description.c_str());
    }

    void tooLittleNoiseIsCaught_data() {
        QTest::addColumn<int>("kind");
        for (const MechanismInfo& info : mechanismCatalog())
            if (info.kind != MechanismKind::NonPrivate)
                QTest::newRow(toString(info.kind)) << static_cast<int>(info.kind);
    }
    void tooLittleNoiseIsCaught() {
        // Power: trained at 10·ε (its noise calibrated to ε = 20) while ε = 2 is claimed. The same
        // settings and runs as above; with these runs the audit can show up to about 5.6–6.3.
        QFETCH(int, kind);
        const Dataset data = moonsWithRareFeature();
        const Audited a = audited(static_cast<MechanismKind>(kind), data.rows());
        AuditSpec spec;
        spec.mechanism = a.spec;
        spec.eps = 2.0;
        spec.runs = a.runs;
        spec.seed = 17;
        spec.noiseDivisor = 10.0;
        const AuditResult r = runAudit(sweepDataOf(data), spec);
        qInfo("%s", auditVerdict(r).c_str());
        QVERIFY2(r.violated(), auditVerdict(r).c_str());
    }

    void theWorstCasePairCatchesWhatMoonsCannot() {
        // On the worst-case pair (one feature, Huber loss, the last row as the canary) a row moves
        // the minimiser by the full sensitivity and the noise is one-dimensional. Two broken
        // versions no audit on moons flagged (docs/audit.md, "Honest power") are flagged here:
        // pure output perturbation trained at 2ε (its noise for half the sensitivity) at ε = 2,
        // and objective perturbation (ε, δ) with noise ÷ 10 at ε = 8; the correct one is within
        // its claim and, being the worst case, close to it.
        const Dataset rows = elab::test::worstCasePair(100);
        const SweepData data = sweepDataOf(rows);
        auto audit = [&](MechanismKind kind, double eps, double divisor) {
            AuditSpec spec;
            selectMechanism(spec.mechanism, kind);
            spec.mechanism.model.lambda = 100.0;
            spec.mechanism.model.loss = Loss(LossKind::HuberSvm, 0.1);
            spec.eps = eps;
            spec.runs = 30000;
            spec.seed = 1;
            spec.noiseDivisor = divisor;
            spec.canaryRow = data.trainX.rows() - 1;
            const AuditResult r = runAudit(data, spec);
            qInfo("%s", auditVerdict(r).c_str());
            return r;
        };
        const AuditResult correct = audit(MechanismKind::OutPertPure, 2.0, 1.0);
        QVERIFY2(!correct.violated(), auditVerdict(correct).c_str());
        QVERIFY2(correct.bound.epsLB > 1.5, auditVerdict(correct).c_str()); // moons: 0.15–0.46
        const AuditResult halved = audit(MechanismKind::OutPertPure, 2.0, 2.0);
        QVERIFY2(halved.violated(), auditVerdict(halved).c_str());
        const AuditResult tenth = audit(MechanismKind::ObjPertGauss, 8.0, 10.0);
        QVERIFY2(tenth.violated(), auditVerdict(tenth).c_str());
    }

    void dpsgdIsAuditedAsConfigured_data() {
        QTest::addColumn<qlonglong>("publicRows");
        QTest::newRow("N not declared: replace-one at |D|") << qlonglong(0);
        QTest::newRow("N = 100 declared public: add/remove") << qlonglong(100);
    }
    void dpsgdIsAuditedAsConfigured() {
        // docs/MATH.md D14: full batch on 100 rows, 5 epochs. Were N the private row count under an
        // add/remove claim, D′ = D ∪ {canary} would run with its own N = 101 (q = 100/101, 10 steps
        // instead of 5) and the audit would show ε ≥ 1.9 at the claimed 0.5. As configured: without N
        // the claim is replace-one and D′ keeps 100 rows; with N both neighbours use N = 100.
        QFETCH(qlonglong, publicRows);
        const Dataset data = moonsWithRareFeature();
        AuditSpec spec;
        spec.mechanism = audited(MechanismKind::Dpsgd, data.rows()).spec;
        spec.mechanism.sgd.publicRows = publicRows;
        spec.eps = 0.5;
        spec.runs = 1000;
        spec.seed = 17;
        const AuditResult r = runAudit(sweepDataOf(data), spec);
        qInfo("%s", auditVerdict(r).c_str());
        QVERIFY2(!r.violated(), auditVerdict(r).c_str());
        QCOMPARE(r.adjacency, publicRows > 0 ? Adjacency::AddRemove : Adjacency::ReplaceOne);
        QVERIFY(r.guarantee.epsilon <= spec.eps);
    }

    void sameNumbersForAnyThreadCount() {
        const Dataset data = moonsWithRareFeature(80);
        AuditSpec spec;
        spec.mechanism = audited(MechanismKind::ObjPertGauss, 80).spec;
        spec.runs = 40;
        spec.threads = 1;
        const AuditResult one = runAudit(sweepDataOf(data), spec);
        spec.threads = 2;
        const AuditResult two = runAudit(sweepDataOf(data), spec);
        QVERIFY(one.scoresD == two.scoresD);
        QVERIFY(one.scoresDPrime == two.scoresDPrime);
        ELAB_EXACT(one.bound.epsLB, two.bound.epsLB);
    }

    void plainLanguageNumbers() {
        ELAB_FUZZY(posteriorBound(0.1, 1.0), std::exp(1.0) * 0.1 / (std::exp(1.0) * 0.1 + 0.9), 1e-15);
        QCOMPARE(posteriorBound(0.1, 0.0), 0.1);
        PrivacyGuarantee g;
        g.isPrivate = true;
        g.epsilon = 1.0;
        g.delta = 1e-5;
        const std::vector<std::string> s = plainLanguage(g, 569);
        QCOMPARE(s.size(), std::size_t(4));
        QVERIFY2(s[0].find("e^ε = 2.718") != std::string::npos, s[0].c_str());
        QVERIFY2(s[1].find("with 10 % certainty can, after seeing the model, believe it with at most 23.2 %") !=
                     std::string::npos,
                 s[1].c_str());
        QVERIFY2(s[2].find("n·δ = 0.00569, far below 1") != std::string::npos, s[2].c_str());
        QVERIFY2(s[3].find("replaced") != std::string::npos, s[3].c_str());
        g.adjacency = Adjacency::AddRemove;
        g.delta = 0.01;
        const std::vector<std::string> t = plainLanguage(g, 569);
        QVERIFY2(t[2].find("too large") != std::string::npos, t[2].c_str());
        QVERIFY2(t[3].find("added or removed") != std::string::npos, t[3].c_str());
        QVERIFY(plainLanguage(PrivacyGuarantee{}, 10).empty());
    }

    void refusals() {
        const Dataset data = moonsWithRareFeature(50);
        AuditSpec spec;
        spec.mechanism = MechanismSpec{};
        selectMechanism(spec.mechanism, MechanismKind::NonPrivate);
        try {
            runAudit(sweepDataOf(data), spec);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("nothing to audit")), e.what());
        }
        selectMechanism(spec.mechanism, MechanismKind::ObjPertGauss);
        spec.runs = 3;
        QVERIFY(QString::fromStdString(spec.validate()).contains(QStringLiteral("at least 4 runs")));
    }
};

QTEST_APPLESS_MAIN(TestAudit)
#include "test_audit.moc"
