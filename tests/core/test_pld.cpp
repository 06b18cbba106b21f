// The PLD accountant (core/privacy/pld.h; docs/MATH.md §3.6, accountant 4): every row of
// docs/dp-accounting-pld-vectors.csv (Google's dp_accounting PLDAccountant) within 1e-3 relative
// and never below it by more than dp_accounting's own discretisation excess; never above RDP; the
// Gaussian mechanism (q = 1) against the exact analytic Gaussian δ (Balle & Wang), one step and
// T steps (= one Gaussian with σ/√T); one subsampled step against numerical integration of the
// hockey-stick divergence; a finer grid never reporting more; calibration round trips; the FFT
// against the definition of the DFT.

#include "core/privacy/accountant.h"
#include "core/privacy/analytic_gaussian.h"
#include "core/privacy/pld.h"
#include "core/privacy/rdp.h"
#include "core/util/fft.h"

#include "tests/support/test_support.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>
#include <optional>
#include <vector>

using namespace elab::core;

namespace {

struct Vector {
    PldNeighbours neighbours;
    double sigma, q;
    long long steps;
    double delta, h, epsilon, excess;
};

std::vector<Vector> readVectors() {
    std::vector<Vector> rows;
    QFile file(QStringLiteral(EPSILONLAB_SOURCE_DIR "/docs/dp-accounting-pld-vectors.csv"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return rows;
    const QString header = QString::fromUtf8(file.readLine()).trimmed();
    if (header != QStringLiteral("relation,noise_multiplier,sampling_rate,steps,delta,value_discretization_interval,"
                                 "epsilon,discretization_error"))
        return rows;
    while (!file.atEnd()) {
        const QStringList f = QString::fromUtf8(file.readLine()).trimmed().split(QLatin1Char(','));
        if (f.size() != 8)
            continue;
        rows.push_back({f[0] == QStringLiteral("replace_one") ? PldNeighbours::ReplaceOne : PldNeighbours::AddRemove,
                        f[1].toDouble(), f[2].toDouble(), f[3].toLongLong(), f[4].toDouble(), f[5].toDouble(),
                        f[6].toDouble(), f[7].toDouble()});
    }
    return rows;
}

/// The exact ε at δ of the Gaussian mechanism with noise sd σ on sensitivity Δ: the root of the
/// analytic Gaussian δ(ε) (analytic_gaussian.h, Balle & Wang Thm 8), by bisection.
double exactGaussianEpsilon(double sigma, double sensitivity, double delta) {
    double lo = 0.0, hi = 1.0;
    while (mechanism_constants::gaussianDelta(hi, sigma, sensitivity) > delta)
        hi *= 2.0;
    if (mechanism_constants::gaussianDelta(0.0, sigma, sensitivity) <= delta)
        return 0.0;
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        (mechanism_constants::gaussianDelta(mid, sigma, sensitivity) > delta ? lo : hi) = mid;
    }
    return hi;
}

double normalPdf(double x, double mean, double sd) {
    const double z = (x - mean) / sd;
    return std::exp(-0.5 * z * z) / (sd * std::sqrt(2.0 * std::numbers::pi));
}

/// δ(ε) = ∫ (p − e^ε q)_+ of one subsampled step by Simpson's rule on a fine grid, for the pair
/// (p, q) given by the shifts of the sampled component (0 for N(0, σ²) alone).
double integratedStepDelta(double sigma, double q, double eps, double shiftP, double shiftQ) {
    const auto density = [&](double x, double shift) {
        return shift == 0.0 ? normalPdf(x, 0.0, sigma)
                            : (1.0 - q) * normalPdf(x, 0.0, sigma) + q * normalPdf(x, shift, sigma);
    };
    const double a = -14.0 * sigma - 1.0, b = 14.0 * sigma + 1.0;
    const int n = 400000;
    const double step = (b - a) / n;
    double sum = 0.0;
    for (int i = 0; i <= n; ++i) {
        const double x = a + step * i;
        const double f = std::max(0.0, density(x, shiftP) - std::exp(eps) * density(x, shiftQ));
        sum += f * ((i == 0 || i == n) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0));
    }
    return sum * step / 3.0;
}

} // namespace

class TestPld : public QObject {
    Q_OBJECT

private slots:
    void matchesEveryDpAccountingVector() {
        const std::vector<Vector> rows = readVectors();
        QCOMPARE(rows.size(), std::size_t{88}); // the file is in the repository: its absence is a failure
        int replaceRows = 0;
        for (const Vector& v : rows) {
            const PldEpsilon e = pldEpsilon(v.sigma, v.q, v.steps, v.delta, v.neighbours);
            const QByteArray where = QStringLiteral("σ = %1, q = %2, T = %3, δ = %4, %5")
                                         .arg(v.sigma)
                                         .arg(v.q)
                                         .arg(v.steps)
                                         .arg(v.delta)
                                         .arg(v.neighbours == PldNeighbours::ReplaceOne ? "replace-one" : "add/remove")
                                         .toUtf8();
            const double rel = std::abs(e.epsilon - v.epsilon) / v.epsilon;
            QVERIFY2(rel <= 1e-3, where + QByteArray(": ε = ") + QByteArray::number(e.epsilon, 'g', 12) +
                                      " against dp_accounting's " + QByteArray::number(v.epsilon, 'g', 12));
            // dp_accounting's ε exceeds the exact one by at most about its excess; ours is an upper
            // bound on the exact one, so it lies no lower than dp_accounting's minus that excess.
            QVERIFY2(e.epsilon >= v.epsilon - v.excess,
                     where + QByteArray(": ε = ") + QByteArray::number(e.epsilon, 'g', 12) + " below " +
                         QByteArray::number(v.epsilon, 'g', 12) + " − " + QByteArray::number(v.excess, 'g', 3));
            replaceRows += v.neighbours == PldNeighbours::ReplaceOne;
        }
        QVERIFY(replaceRows >= 10);
    }

    void neverAboveRdp() {
        // RDP is a valid bound too, but looser: the PLD accountant's ε is below it on every row
        // (replace-one: below RDP's group-privacy figure).
        for (const Vector& v : readVectors()) {
            const double pld = pldEpsilon(v.sigma, v.q, v.steps, v.delta, v.neighbours).epsilon;
            const double rdp =
                v.neighbours == PldNeighbours::AddRemove
                    ? rdpEpsilon(v.sigma, v.q, v.steps, v.delta).epsilon
                    : replaceOneEpsilon(AccountantKind::Rdp, SgdPrivacyParams{v.sigma, v.q, v.steps, v.delta}).epsilon;
            QVERIFY2(pld <= rdp, qPrintable(QStringLiteral("σ = %1, q = %2, T = %3: PLD %4 > RDP %5")
                                                .arg(v.sigma)
                                                .arg(v.q)
                                                .arg(v.steps)
                                                .arg(pld, 0, 'g', 10)
                                                .arg(rdp, 0, 'g', 10)));
        }
    }

    void gaussianMechanismIsTheAnalyticGaussian() {
        // q = 1, one step: the Gaussian mechanism, whose exact ε(δ) the analytic Gaussian gives;
        // T steps: one Gaussian with σ/√T. Replace-one: sensitivity 2.
        struct Case {
            double sigma;
            long long steps;
            double delta;
        };
        for (const Case& c : {Case{1.0, 1, 1e-5}, Case{0.7, 1, 1e-6}, Case{4.0, 1, 1e-5}, Case{3.0, 10, 1e-5},
                              Case{10.0, 100, 1e-5}, Case{20.0, 1000, 1e-3}}) {
            const double exact = exactGaussianEpsilon(c.sigma / std::sqrt(static_cast<double>(c.steps)), 1.0, c.delta);
            const double pld = pldEpsilon(c.sigma, 1.0, c.steps, c.delta).epsilon;
            QVERIFY2(pld >= exact * (1.0 - 1e-12), qPrintable(QStringLiteral("σ = %1, T = %2: %3 < exact %4")
                                                                  .arg(c.sigma)
                                                                  .arg(c.steps)
                                                                  .arg(pld, 0, 'g', 12)
                                                                  .arg(exact, 0, 'g', 12)));
            ELAB_RELATIVE(pld, exact, 5e-4);
            const double exactReplace =
                exactGaussianEpsilon(c.sigma / std::sqrt(static_cast<double>(c.steps)), 2.0, c.delta);
            const double pldReplace = pldEpsilon(c.sigma, 1.0, c.steps, c.delta, PldNeighbours::ReplaceOne).epsilon;
            QVERIFY(pldReplace >= exactReplace * (1.0 - 1e-12));
            ELAB_RELATIVE(pldReplace, exactReplace, 5e-4);
        }
        // δ at a given ε, one step: never below the exact δ, and not above the exact δ at the grid
        // point below ε (connect the dots is exact at the grid points and in between interpolates).
        const double h = pldEpsilon(1.5, 1.0, 1, 1e-5).discretization;
        for (double eps : {0.1, 0.5, 1.0, 2.0, 4.0}) {
            const double exact = mechanism_constants::gaussianDelta(eps, 1.5, 1.0);
            const double pld = pldDelta(1.5, 1.0, 1, eps);
            QVERIFY(pld >= exact * (1.0 - 1e-9));
            QVERIFY(pld <= mechanism_constants::gaussianDelta(std::floor(eps / h) * h, 1.5, 1.0) * (1.0 + 1e-9));
            ELAB_RELATIVE(pld, exact, 1e-2);
        }
    }

    void oneSubsampledStepIsItsHockeyStickIntegral() {
        // The remove pair ((1−q)N(0) + qN(−1), N(0)), the add pair (N(0), (1−q)N(0) + qN(1)) and
        // the replace pair, integrated numerically: the step's δ(ε) (the larger of remove and add
        // under add/remove) and the discretised one-step δ, never below it.
        for (const double sigma : {0.8, 2.0})
            for (const double q : {0.01, 0.2})
                for (const double eps : {0.05, 0.3, 1.0}) {
                    const double remove = integratedStepDelta(sigma, q, eps, -1.0, 0.0);
                    const double add = integratedStepDelta(sigma, q, eps, 0.0, 1.0);
                    const double replace = integratedStepDelta(sigma, q, eps, -1.0, 1.0);
                    const double addRemove = std::max(remove, add);
                    if (addRemove > 1e-12)
                        ELAB_RELATIVE(pldStepDelta(sigma, q, eps), addRemove, 1e-7);
                    if (replace > 1e-12)
                        ELAB_RELATIVE(pldStepDelta(sigma, q, eps, PldNeighbours::ReplaceOne), replace, 1e-7);
                    const double discretised = pldDelta(sigma, q, 1, eps);
                    QVERIFY(discretised >= addRemove * (1.0 - 1e-9));
                    ELAB_FUZZY(discretised, addRemove, 1e-3 * addRemove + 1e-15);
                    QVERIFY(pldDelta(sigma, q, 1, eps, PldNeighbours::ReplaceOne) >= replace * (1.0 - 1e-9));
                }
    }

    void aFinerGridNeverReportsMore() {
        // Connect the dots on a grid that contains the coarser one dominates less, and composition
        // keeps the order: ε(h) ≥ ε(h/2) ≥ ε(h/4) (to floating-point noise), and the automatic h's
        // ε lies between the finest's and 1e-3 above it.
        for (const double sigma : {1.0, 5.0}) {
            double previous = std::numeric_limits<double>::infinity();
            for (const double h : {4e-4, 2e-4, 1e-4, 5e-5}) {
                PldSettings s;
                s.discretization = h;
                const double eps = pldEpsilon(sigma, 0.01, 2000, 1e-5, PldNeighbours::AddRemove, s).epsilon;
                QVERIFY2(
                    eps <= previous * (1.0 + 1e-9),
                    qPrintable(QStringLiteral("σ = %1, h = %2: %3 > %4").arg(sigma).arg(h).arg(eps).arg(previous)));
                previous = eps;
            }
            const PldEpsilon automatic = pldEpsilon(sigma, 0.01, 2000, 1e-5);
            QVERIFY(automatic.discretization > 0.0);
            QVERIFY(automatic.epsilon >= previous * (1.0 - 1e-6));
            QVERIFY(automatic.epsilon <= previous * (1.0 + 1e-3));
        }
    }

    void monotoneInNoiseAndSteps() {
        double last = std::numeric_limits<double>::infinity();
        for (double sigma = 0.6; sigma < 12.0; sigma *= 1.4) {
            const double eps = pldEpsilon(sigma, 0.02, 500, 1e-5).epsilon;
            QVERIFY(eps < last);
            last = eps;
        }
        last = 0.0;
        for (long long t : {1LL, 10LL, 100LL, 1000LL, 10000LL}) {
            const double eps = pldEpsilon(2.0, 0.02, t, 1e-5).epsilon;
            QVERIFY(eps > last);
            last = eps;
        }
        QCOMPARE(pldEpsilon(1.0, 0.1, 0, 1e-5).epsilon, 0.0);
        QVERIFY(std::isinf(pldEpsilon(0.0, 0.1, 10, 1e-5).epsilon));
    }

    void calibrationRoundTrips() {
        // σ for ε at the settings of the headline (q = 0.01, T = 20,000, δ = 1e-5) and others: ε(σ)
        // ≤ target within 1e-5 relative, 0.1 % less noise exceeds it, and less noise than RDP's.
        struct Case {
            double eps, q;
            long long steps;
            double delta;
        };
        for (const Case& c : {Case{10.0, 0.01, 20000, 1e-5}, Case{1.0, 0.01, 20000, 1e-5}, Case{0.5, 0.01, 20000, 1e-5},
                              Case{2.0, 0.05, 300, 1e-6}, Case{0.2, 1.0, 1, 1e-5}}) {
            const SgdPrivacyParams p{1.0, c.q, c.steps, c.delta};
            const Calibration cal = calibrateSigma(AccountantKind::Pld, c.eps, p);
            QCOMPARE(cal.result.kind, AccountantKind::Pld);
            QVERIFY(cal.reachedTarget);
            QVERIFY(cal.result.epsilon <= c.eps);
            QVERIFY(cal.result.epsilon >= c.eps * (1.0 - 1e-5));
            ELAB_EXACT(accountEpsilon(AccountantKind::Pld, SgdPrivacyParams{cal.sigma, c.q, c.steps, c.delta}).epsilon,
                       cal.result.epsilon);
            QVERIFY(pldEpsilon(cal.sigma * (1.0 - 1e-3), c.q, c.steps, c.delta).epsilon > c.eps);
            QVERIFY(cal.sigma < calibrateSigma(AccountantKind::Rdp, c.eps, p).sigma);
            // Replace-one: the replace pair's PLD at σ meets the target, with less noise than
            // RDP by group privacy.
            const std::optional<Calibration> rep = calibrateSigmaReplaceOneWithinLimit(AccountantKind::Pld, c.eps, p);
            QVERIFY(rep.has_value());
            QVERIFY(rep->result.epsilon <= c.eps);
            ELAB_EXACT(
                replaceOneEpsilon(AccountantKind::Pld, SgdPrivacyParams{rep->sigma, c.q, c.steps, c.delta}).epsilon,
                rep->result.epsilon);
            QVERIFY(rep->sigma < calibrateSigmaReplaceOneWithinLimit(AccountantKind::Rdp, c.eps, p)->sigma);
        }
        // A target no σ ≤ the limit reaches: none.
        QVERIFY(!pldCalibrateSigma(1e-9, 0.5, 1000, 1e-5, PldNeighbours::AddRemove, 10.0));
    }

    void registeredAsAnAccountant() {
        QCOMPARE(accountantKindFromString("pld"), AccountantKind::Pld);
        QCOMPARE(std::string(toString(AccountantKind::Pld)), std::string("pld"));
        const AccountantResult r = accountEpsilon(AccountantKind::Pld, SgdPrivacyParams{1.1, 0.01, 1000, 1e-5});
        ELAB_EXACT(r.epsilon, pldEpsilon(1.1, 0.01, 1000, 1e-5).epsilon);
        QVERIFY(r.proven);
        QVERIFY(r.parameter("discretization") > 0.0);
        const std::vector<AccountantResult> many =
            accountEpsilons(AccountantKind::Pld, SgdPrivacyParams{1.1, 0.01, 1, 1e-5}, {10, 100});
        QCOMPARE(many.size(), std::size_t{2});
        ELAB_EXACT(many[1].epsilon, pldEpsilon(1.1, 0.01, 100, 1e-5).epsilon);
        const AccountantResult rep = replaceOneEpsilon(AccountantKind::Pld, SgdPrivacyParams{1.1, 0.01, 1000, 1e-5});
        ELAB_EXACT(rep.epsilon, pldEpsilon(1.1, 0.01, 1000, 1e-5, PldNeighbours::ReplaceOne).epsilon);
    }

    void invalidParametersAreRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(-1.0, 0.1, 10, 1e-5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(1.0, 0.0, 10, 1e-5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(1.0, 1.5, 10, 1e-5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(1.0, 0.1, -1, 1e-5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(1.0, 0.1, 10, 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pldEpsilon(1.0, 0.1, 2'000'000'000'000LL, 1e-5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 pldCalibrateSigma(0.0, 0.1, 10, 1e-5, PldNeighbours::AddRemove, 1e6));
    }

    void fftIsTheDiscreteFourierTransform() {
        // Against Σ x_j e^{−2πijk/N} summed directly, and the inverse restores the input.
        for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{64}}) {
            std::vector<std::complex<double>> x(n);
            for (std::size_t j = 0; j < n; ++j)
                x[j] = {std::sin(1.3 * static_cast<double>(j) + 0.2), std::cos(0.7 * static_cast<double>(j * j))};
            std::vector<std::complex<double>> y = x;
            const Fft fft(n);
            fft.forward(y);
            for (std::size_t k = 0; k < n; ++k) {
                std::complex<double> direct = 0.0;
                for (std::size_t j = 0; j < n; ++j)
                    direct += x[j] * std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(j * k) /
                                                         static_cast<double>(n));
                ELAB_FUZZY(std::abs(y[k] - direct), 0.0, 1e-12 * static_cast<double>(n));
            }
            fft.inverse(y);
            for (std::size_t j = 0; j < n; ++j)
                ELAB_FUZZY(std::abs(y[j] - x[j]), 0.0, 1e-13);
        }
        // Lengths past the cache block (2048), where stages run fused in pairs (an even and an odd
        // count of them): some outputs against the direct sum, and the round trip.
        for (const std::size_t n : {std::size_t{8192}, std::size_t{16384}}) {
            std::vector<std::complex<double>> x(n);
            for (std::size_t j = 0; j < n; ++j)
                x[j] = {std::sin(0.37 * static_cast<double>(j)), std::cos(1e-3 * static_cast<double>(j * j % 9973))};
            std::vector<std::complex<double>> y = x;
            const Fft fft(n);
            fft.forward(y);
            for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{777}, n / 2 + 3, n - 1}) {
                std::complex<double> direct = 0.0;
                for (std::size_t j = 0; j < n; ++j)
                    direct += x[j] * std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>((j * k) % n) /
                                                         static_cast<double>(n));
                ELAB_FUZZY(std::abs(y[k] - direct), 0.0, 1e-9);
            }
            fft.inverse(y);
            for (std::size_t j = 0; j < n; ++j)
                ELAB_FUZZY(std::abs(y[j] - x[j]), 0.0, 1e-12);
        }
        QCOMPARE(Fft::nextPowerOfTwo(1000), std::size_t{1024});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Fft(12));
    }
};

QTEST_APPLESS_MAIN(TestPld)
#include "test_pld.moc"
