// Colour-blind readability of every chart colour set (ui/charts/palettes.h): in each set, every
// pair of colours differs by ΔE*ab ≥ 15 in normal vision and under simulated protanopia,
// deuteranopia and tritanopia. Simulation (Machado, Oliveira & Fernandes 2009, severity 1,
// linear RGB) and CIELAB are written here from the paper and the CIE definitions, not taken
// from the product; scripts/cvd_check.py computes the same. The product's colour functions are
// checked to draw from these sets.

#include "ui/charts/chart_geometry.h"
#include "ui/charts/palettes.h"
#include "ui/views/regions/regions_chart_model.h"

#include <QtTest>

#include <array>
#include <cmath>
#include <limits>

using namespace elab::ui;
namespace palette = elab::ui::charts::palette;

namespace {

using Vec = std::array<double, 3>;
using Mat = std::array<Vec, 3>;

constexpr double kThreshold = 15.0;
const Mat kIdentity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
const Mat kProtanopia = {
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
const Mat kDeuteranopia = {
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
const Mat kTritanopia = {
    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};

Vec times(const Mat& m, const Vec& v) {
    Vec r{};
    for (int i = 0; i < 3; ++i)
        r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    return r;
}

double linear(int channel) {
    const double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

/// CIELAB (D65) of an sRGB colour as seen through the simulation m.
Vec seen(QRgb rgb, const Mat& m) {
    Vec v = times(m, {linear(qRed(rgb)), linear(qGreen(rgb)), linear(qBlue(rgb))});
    for (double& c : v)
        c = std::clamp(c, 0.0, 1.0);
    const Mat toXyz = {
        {{0.4124564, 0.3575761, 0.1804375}, {0.2126729, 0.7151522, 0.0721750}, {0.0193339, 0.1191920, 0.9503041}}};
    const Vec xyz = times(toXyz, v);
    const Vec white = {0.95047, 1.0, 1.08883};
    Vec f{};
    for (int i = 0; i < 3; ++i) {
        const double t = xyz[i] / white[i];
        constexpr double d = 6.0 / 29.0;
        f[i] = t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
    }
    return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

double distance(QRgb a, QRgb b, const Mat& m) {
    const Vec x = seen(a, m), y = seen(b, m);
    return std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

} // namespace

class TestPalettes : public QObject {
    Q_OBJECT
private slots:
    void theSimulationAndTheDistanceAreTheirDefinitions() {
        // Machado's matrices keep white white and black black (rows sum to 1).
        for (const Mat* m : {&kProtanopia, &kDeuteranopia, &kTritanopia}) {
            QVERIFY(distance(0xFFFFFF, 0xFFFFFF, *m) < 1e-9);
            QVERIFY2(std::abs(seen(0xFFFFFF, *m)[0] - 100.0) < 0.01, "white keeps L* = 100");
        }
        // CIELAB of sRGB red (D65): L* 53.24, a* 80.09, b* 67.20 (standard tables).
        const Vec red = seen(0xFF0000, kIdentity);
        QVERIFY2(std::abs(red[0] - 53.24) < 0.05 && std::abs(red[1] - 80.09) < 0.05 && std::abs(red[2] - 67.20) < 0.05,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(red[0]).arg(red[1]).arg(red[2])));
        // The check can fail: the red ring the regions used round misclassified points and the
        // vermillion of a class are far apart in normal vision, close for deuteranopes.
        QVERIFY(distance(0xD7191C, 0xD55E00, kIdentity) > 25.0);
        QVERIFY(distance(0xD7191C, 0xD55E00, kDeuteranopia) < kThreshold);
    }

    void everyColourSetIsReadableWithEveryDeficiency_data() {
        QTest::addColumn<int>("set");
        const auto sets = palette::chartColourSets();
        QVERIFY(sets.size() >= 10);
        for (std::size_t i = 0; i < sets.size(); ++i)
            QTest::newRow(sets[i].name.c_str()) << static_cast<int>(i);
    }
    void everyColourSetIsReadableWithEveryDeficiency() {
        QFETCH(int, set);
        const palette::ColourSet s = palette::chartColourSets()[static_cast<std::size_t>(set)];
        const std::array<std::pair<const char*, const Mat*>, 4> visions = {{{"normal", &kIdentity},
                                                                            {"protanopia", &kProtanopia},
                                                                            {"deuteranopia", &kDeuteranopia},
                                                                            {"tritanopia", &kTritanopia}}};
        for (const auto& [vision, m] : visions)
            for (std::size_t i = 0; i < s.colours.size(); ++i)
                for (std::size_t j = i + 1; j < s.colours.size(); ++j) {
                    const double d = distance(s.colours[i], s.colours[j], *m);
                    QVERIFY2(d >= kThreshold, qPrintable(QStringLiteral("%1, %2: #%3 and #%4 are %5 apart")
                                                             .arg(QString::fromStdString(s.name), vision)
                                                             .arg(s.colours[i], 6, 16, QLatin1Char('0'))
                                                             .arg(s.colours[j], 6, 16, QLatin1Char('0'))
                                                             .arg(d)));
                }
    }

    void theChartsDrawFromTheCheckedSets() {
        for (int i = 0; i < 8; ++i)
            QCOMPARE(charts::paletteColor(i).rgb() & 0xFFFFFF, palette::kOkabeIto[static_cast<std::size_t>(i)]);
        for (int k = 0; k < 10; ++k)
            QCOMPARE(regionsClassColor(k, 10).rgb() & 0xFFFFFF, palette::kTolMuted[static_cast<std::size_t>(k)]);
        for (int k = 0; k < 3; ++k)
            QCOMPARE(regionsClassColor(k, 3).rgb() & 0xFFFFFF, palette::kOkabeIto[static_cast<std::size_t>(k)]);
        QCOMPARE(misclassifiedColor().rgb() & 0xFFFFFF, palette::kMisclassified);
    }
};

QTEST_MAIN(TestPalettes)
#include "test_palettes.moc"
