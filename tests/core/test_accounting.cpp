// The DP-SGD accountants (docs/MATH.md §3.6; issue 12): the RDP accountant against Google's
// dp_accounting (every row of ../shared/docs/dp-accounting-vectors.csv when present, four of
// its rows always), the advanced-composition bound against hand-computed values, the paper's
// zCDP procedure against its printed formulas, calibration that never overshoots, and the
// replace-one equivalent.

#include "core/accounting/accountant.h"
#include "core/accounting/rdp.h"
#include "core/accounting/utility_cost.h"

#include "tests/support/test_support.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace elab::core;

namespace {

struct Vector {
    double sigma, q;
    long long steps;
    double delta, epsilon;
};

SgdPrivacyParams params(double sigma, double q, long long steps, double delta) {
    SgdPrivacyParams p;
    p.sigma = sigma;
    p.q = q;
    p.steps = steps;
    p.delta = delta;
    return p;
}

} // namespace

class TestAccounting : public QObject {
    Q_OBJECT

private slots:
    void rdpMatchesDpAccountingRowsAlwaysAvailable() {
        // Rows 2, 44, 97 and 105 of dp-accounting-vectors.csv (Google's dp_accounting
        // RdpAccountant, default orders), kept here so that a bare clone checks them too.
        const Vector rows[] = {{0.6, 1.0, 1, 1e-05, 8.603286599774938},
                               {1.0, 0.01, 1000, 1e-05, 2.101366525420273},
                               {4.0, 0.004, 10000, 1e-05, 0.383767042658125},
                               {10.0, 0.1, 10000, 1e-05, 4.750321781987502}};
        for (const Vector& v : rows)
            ELAB_RELATIVE(rdpEpsilon(v.sigma, v.q, v.steps, v.delta).epsilon, v.epsilon, 1e-6);
    }

    void rdpMatchesEveryDpAccountingVector() {
        QFile file(QStringLiteral(EPSILONLAB_SHARED_DIR "/docs/dp-accounting-vectors.csv"));
        if (!file.exists())
            QSKIP("../shared/docs/dp-accounting-vectors.csv is not present beside this checkout");
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        QCOMPARE(QString::fromUtf8(file.readLine()).trimmed(),
                 QStringLiteral("noise_multiplier,sampling_rate,steps,delta,epsilon"));
        int rows = 0;
        while (!file.atEnd()) {
            const QStringList f = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
            if (f.size() != 5)
                continue;
            const Vector v{f[0].toDouble(), f[1].toDouble(), f[2].toLongLong(), f[3].toDouble(), f[4].toDouble()};
            const double eps = rdpEpsilon(v.sigma, v.q, v.steps, v.delta).epsilon;
            ELAB_RELATIVE(eps, v.epsilon, 1e-6);
            // Fewer orders never report less: the integer ones only, and a sparse subset.
            const std::vector<double> integers{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 48, 128, 256, 512, 1024};
            const std::vector<double> sparse{1.5, 2.5, 3.5, 7.5, 15, 40};
            QVERIFY(rdpEpsilon(v.sigma, v.q, v.steps, v.delta, integers).epsilon >= eps);
            QVERIFY(rdpEpsilon(v.sigma, v.q, v.steps, v.delta, sparse).epsilon >= eps);
            ++rows;
        }
        QCOMPARE(rows, 112);
    }

    void anOrderOutsideTheDefaultsCanBeTighter() {
        // MATH.md asks that other orders never report less than the reference. That cannot hold
        // in general: every order gives a valid bound, and one the default set skips can be
        // tighter. σ = 4, q = 0.1, T = 1: order 64 (the defaults jump from 63 to 128) gives
        // 0.13898 against the reference's 0.13948. The product uses the default orders, so it
        // reports the reference's value.
        const double reference = 0.1394758845; // dp-accounting-vectors.csv, σ = 4, q = 0.1, T = 1
        ELAB_RELATIVE(rdpEpsilon(4.0, 0.1, 1, 1e-5).epsilon, reference, 1e-6);
        const RdpConversion with64 = rdpEpsilon(4.0, 0.1, 1, 1e-5, {2, 8, 16, 32, 63, 64, 128});
        QCOMPARE(with64.order, 64.0);
        QVERIFY(with64.epsilon < reference * (1.0 - 1e-3));
    }

    void rdpOfTheFullBatchGaussianIsClosedForm() {
        // q = 1: RDP(α) = α/(2σ²) per step exactly; the fractional orders agree with their neighbours.
        ELAB_RELATIVE(rdpSubsampledGaussian(1.0, 2.0, 7.3), 7.3 / 8.0, 1e-15);
        QCOMPARE(rdpSubsampledGaussian(0.0, 2.0, 7.3), 0.0);
        QVERIFY(std::isinf(rdpSubsampledGaussian(0.5, 0.0, 2.0)));
        // Subsampling only helps, and RDP increases with the order (a property of Rényi divergence).
        double previous = 0.0;
        for (double a : {1.5, 2.0, 2.5, 3.0, 4.7, 8.0, 16.0}) {
            const double r = rdpSubsampledGaussian(0.05, 1.3, a);
            QVERIFY2(r > previous, qPrintable(QString("order %1: %2 after %3").arg(a).arg(r).arg(previous)));
            QVERIFY(r < a / (2.0 * 1.3 * 1.3));
            previous = r;
        }
        // Integer order 2 has the closed form log(1 + q²(e^{1/σ²} − 1)) (Mironov et al. 2019).
        const double q = 0.02, s = 0.9;
        ELAB_RELATIVE(rdpSubsampledGaussian(q, s, 2.0), std::log1p(q * q * std::expm1(1.0 / (s * s))), 1e-12);
    }

    void rdpConversionFollowsTheFormula() {
        const std::vector<double> orders{2.0, 8.0};
        const std::vector<double> rdp{0.5, 3.0};
        const double delta = 1e-5;
        const double e2 = 0.5 + std::log(1.0 / 2.0) - (std::log(delta) + std::log(2.0)) / 1.0;
        const double e8 = 3.0 + std::log(7.0 / 8.0) - (std::log(delta) + std::log(8.0)) / 7.0;
        const RdpConversion c = rdpToEpsilon(orders, rdp, delta);
        ELAB_RELATIVE(c.epsilon, std::min(e2, e8), 1e-14);
        QCOMPARE(c.order, e2 < e8 ? 2.0 : 8.0);
        // Tiny RDP: the KL bound gives ε = 0.
        QCOMPARE(rdpToEpsilon({2.0}, {1e-12}, 1e-5).epsilon, 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rdpToEpsilon({2.0}, {0.1}, 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rdpToEpsilon({2.0, 3.0}, {0.1}, 1e-5));
    }

    void advancedCompositionMatchesHandComputedValues() {
        // σ = 10, q = 0.01, T = 1000, δ = 1e-5, δ' = 5e-6: δ_it = 5e-7, ε_it = √(2 log(1.25/δ_it))/σ,
        // ε₁ = log(1 + q(e^{ε_it} − 1)), ε = √(2T log(1/δ'))ε₁ + Tε₁(e^{ε₁} − 1) = 1.1739776933175254
        // (computed independently in Python).
        ELAB_RELATIVE(advancedCompositionEpsilon(params(10.0, 0.01, 1000, 1e-5), 5e-6), 1.1739776933175254, 1e-12);
        // σ = 4, q = 0.1, T = 50, δ = 1e-4, δ' = 2e-5: ε_it = 1.187 ≥ 1, outside the classical
        // Gaussian mechanism's proof: no guarantee.
        QVERIFY(std::isinf(advancedCompositionEpsilon(params(4.0, 0.1, 50, 1e-4), 2e-5)));
        // The accountant takes the best split: no worse than the hand-computed one, and close.
        const AccountantResult r = accountEpsilon(AccountantKind::AdvancedComposition, params(10.0, 0.01, 1000, 1e-5));
        QVERIFY(r.proven);
        QVERIFY(r.epsilon <= 1.1739776933175254);
        QVERIFY(r.epsilon > 1.0);
        const double dp = r.parameter("delta_prime");
        ELAB_RELATIVE(advancedCompositionEpsilon(params(10.0, 0.01, 1000, 1e-5), dp), r.epsilon, 1e-12);
        // AC is looser than RDP at the same settings (why the paper's DPD-AC needs more noise).
        QVERIFY(r.epsilon > accountEpsilon(AccountantKind::Rdp, params(10.0, 0.01, 1000, 1e-5)).epsilon);
    }

    void zcdpPublishedFollowsThePapersFormulas() {
        // Forward: from σ back through the printed steps to ε_tot.
        const double epsTot = 0.5, delta = 1e-4, q = 0.01;
        const long long T = 20000; // MNIST, 200 epochs of q = 0.01
        const double sigma = zcdpPublishedSigma(epsTot, delta, q, T);
        const double deltaIter = delta / q;                                        // δ_iter = δ'/ν, δ' = δ
        const double epsIter = std::sqrt(2.0 * std::log(1.25 / deltaIter)) / sigma; // σ = √(2 log(1.25/δ_iter))/ε_iter
        const double epsPrime = std::log(1.0 + q * (std::exp(epsIter) - 1.0));      // eq. (7)
        const double tauOverDelta2 = 2.0 * std::log(1.25 / delta) / (epsPrime * epsPrime); // τ ≥ 2 log(1.25/δ')Δ²/ε'²
        const double rho = T / (2.0 * tauOverDelta2);                              // ρ = TΔ²/(2τ)
        ELAB_RELATIVE(rho + 2.0 * std::sqrt(rho * std::log(1.0 / delta)), epsTot, 1e-9); // eq. (6)
        // Not the paper's σ = 3.23: the printed procedure gives ≈ 10.3 here (docs/dpsgd.md).
        QVERIFY(sigma > 9.0 && sigma < 11.5);
        // ε for that σ inverts the map, and is labelled unproven.
        const AccountantResult r = accountEpsilon(AccountantKind::ZcdpPublished, params(sigma, q, T, delta));
        ELAB_RELATIVE(r.epsilon, epsTot, 1e-9);
        QVERIFY(!r.proven);
    }

    void calibrationNeverOvershoots_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("target");
        QTest::addColumn<double>("q");
        QTest::addColumn<qlonglong>("steps");
        for (AccountantKind k : {AccountantKind::Rdp, AccountantKind::AdvancedComposition, AccountantKind::ZcdpPublished})
            for (double target : {0.5, 1.0, 10.0}) {
                QTest::addRow("%s eps %g digits", toString(k), target) << int(k) << target << 100.0 / 1439.0 << qlonglong(1439);
                QTest::addRow("%s eps %g mnist", toString(k), target) << int(k) << target << 0.01 << qlonglong(20000);
            }
    }
    void calibrationNeverOvershoots() {
        QFETCH(int, kind);
        QFETCH(double, target);
        QFETCH(double, q);
        QFETCH(qlonglong, steps);
        const auto k = static_cast<AccountantKind>(kind);
        const Calibration c = calibrateSigma(k, target, params(0.0, q, steps, 1e-4));
        QVERIFY2(c.result.epsilon <= target, qPrintable(QString("ε %1 > target %2").arg(c.result.epsilon).arg(target)));
        if (c.reachedTarget)
            ELAB_RELATIVE(c.result.epsilon, target, 1e-3);
        else // AC: the least noise it can certify gives less than the target
            QCOMPARE(k, AccountantKind::AdvancedComposition);
        // Re-accounting the returned σ gives the same ε (the calibration reports what it checked).
        ELAB_EXACT(accountEpsilon(k, params(c.sigma, q, steps, 1e-4)).epsilon, c.result.epsilon);
        // And a little less noise would overshoot (or not be certified at all).
        QVERIFY(accountEpsilon(k, params(c.sigma * (1.0 - 1e-3), q, steps, 1e-4)).epsilon > target);
    }

    void epsilonGrowsWithStepsAndRateAndFallsWithNoise() {
        for (AccountantKind k : {AccountantKind::Rdp, AccountantKind::AdvancedComposition, AccountantKind::ZcdpPublished}) {
            const double base = accountEpsilon(k, params(6.0, 0.01, 1000, 1e-5)).epsilon;
            QVERIFY(accountEpsilon(k, params(6.0, 0.01, 2000, 1e-5)).epsilon > base);
            QVERIFY(accountEpsilon(k, params(6.0, 0.02, 1000, 1e-5)).epsilon > base);
            QVERIFY(accountEpsilon(k, params(8.0, 0.01, 1000, 1e-5)).epsilon < base);
            QCOMPARE(accountEpsilon(k, params(6.0, 0.01, 0, 1e-5)).epsilon, 0.0); // no steps, nothing spent
        }
    }

    void utilityCostReadsTheSweepAtTheEquivalentEps() {
        // A measured curve linear in log ε: accuracy = 0.5 + 0.1·log10(ε) on [0.01, 100].
        MeasuredCurve curve;
        for (double e : {0.01, 0.1, 1.0, 10.0, 100.0}) {
            curve.eps.push_back(e);
            curve.value.push_back(0.5 + 0.1 * std::log10(e));
        }
        ELAB_RELATIVE(*curve.at(std::sqrt(10.0)), 0.55, 1e-12); // interpolation in log ε
        QVERIFY(!curve.at(200.0));
        const SgdPrivacyParams schedule{1.0, 0.01, 2000, 1e-5};
        // RDP against itself: no cost.
        const UtilityCost same = utilityCost(curve, AccountantKind::Rdp, schedule, AccountantKind::Rdp, 1.0, true);
        ELAB_RELATIVE(same.equivalentEps, 1.0, 1e-3);
        QVERIFY(same.cost && std::abs(*same.cost) < 1e-3);
        // Advanced composition needs more noise: the sweep trained with that noise at a smaller ε.
        const UtilityCost ac = utilityCost(curve, AccountantKind::Rdp, schedule, AccountantKind::AdvancedComposition, 1.0, true);
        QVERIFY(ac.sigma > same.sigma);
        QVERIFY(ac.equivalentEps < 1.0);
        ELAB_RELATIVE(*ac.value, 0.5 + 0.1 * std::log10(ac.equivalentEps), 1e-12);
        ELAB_RELATIVE(*ac.cost, 0.5 - *ac.value, 1e-12); // the curve at ε = 1 is 0.5
        QVERIFY(*ac.cost > 0.0);
        // A loss: lower is better, the cost is the increase.
        const UtilityCost loss = utilityCost(curve, AccountantKind::Rdp, schedule, AccountantKind::AdvancedComposition, 1.0, false);
        ELAB_RELATIVE(*loss.cost, -*ac.cost, 1e-12);
    }

    void replaceOneByGroupPrivacy() {
        const EpsDelta r = replaceOneEquivalent(1.5, 1e-5);
        QCOMPARE(r.epsilon, 3.0);
        ELAB_RELATIVE(r.delta, (1.0 + std::exp(1.5)) * 1e-5, 1e-15);
    }

    void badInputIsRefusedWithAReason() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, accountEpsilon(AccountantKind::Rdp, params(1.0, 0.0, 10, 1e-5)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, accountEpsilon(AccountantKind::Rdp, params(1.0, 0.1, -1, 1e-5)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, accountEpsilon(AccountantKind::Rdp, params(-1.0, 0.1, 10, 1e-5)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, accountEpsilon(AccountantKind::Rdp, params(1.0, 0.1, 10, 1.0)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, calibrateSigma(AccountantKind::Rdp, 0.0, params(1.0, 0.1, 10, 1e-5)));
        QCOMPARE(accountantKindFromString("zcdp-published"), AccountantKind::ZcdpPublished);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, accountantKindFromString("moments"));
        const std::string why = params(1.0, 1.5, 10, 1e-5).validate();
        QVERIFY(why.find("sampling rate") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestAccounting)
#include "test_accounting.moc"
