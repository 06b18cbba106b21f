// Seeded 2-D teaching sets: shapes, balance, determinism, geometry and the Gaussian jitter.

#include "core/data/generators.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace elab::core;

namespace {

Dataset generate(const QString& name, Index rows, double noise, std::uint64_t seed, int classes = 3) {
    GeneratorOptions o;
    o.rows = rows;
    o.noise = noise;
    o.seed = seed;
    o.classes = classes;
    return generateDataset(name.toStdString(), o);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

class TestGenerators : public QObject {
    Q_OBJECT
private slots:
    void shapes_data();
    void shapes();
    void determinism_data();
    void determinism();
    void circlesGeometry_data();
    void circlesGeometry();
    void moonsGeometry();
    void xorGeometry();
    void blobsCentres();
    void blobsGaussianSpread();
    void pinnedValues();
    void invalid_data();
    void invalid();
    void isGeneratorName_data();
    void isGeneratorName();
};

void TestGenerators::shapes_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("classes");
    QTest::addColumn<QStringList>("classNames");
    const QStringList abc = {"A", "B", "C"};
    QTest::newRow("blobs 400, 3 classes") << "blobs" << 400 << 3 << abc;
    QTest::newRow("blobs 401, 4 classes") << "blobs" << 401 << 4 << QStringList{"A", "B", "C", "D"};
    QTest::newRow("blobs 402, 4 classes: 2 extra rows") << "blobs" << 402 << 4 << QStringList{"A", "B", "C", "D"};
    QTest::newRow("blobs 11, 4 classes: 3 extra rows") << "blobs" << 11 << 4 << QStringList{"A", "B", "C", "D"};
    QTest::newRow("blobs one row per class") << "blobs" << 3 << 3 << abc;
    QTest::newRow("moons 400") << "moons" << 400 << 2 << QStringList{"upper moon", "lower moon"};
    QTest::newRow("moons 401") << "moons" << 401 << 2 << QStringList{"upper moon", "lower moon"};
    QTest::newRow("xor 400") << "xor" << 400 << 2 << QStringList{"x1·x2 < 0", "x1·x2 > 0"};
    QTest::newRow("xor 3") << "xor" << 3 << 2 << QStringList{"x1·x2 < 0", "x1·x2 > 0"};
    QTest::newRow("circles 400") << "circles" << 400 << 2 << QStringList{"outer", "inner"};
    QTest::newRow("circles 2") << "circles" << 2 << 2 << QStringList{"outer", "inner"};
}

void TestGenerators::shapes() {
    QFETCH(QString, name);
    QFETCH(int, rows);
    QFETCH(int, classes);
    QFETCH(QStringList, classNames);
    // The classes option is read by blobs only: the binary sets get an invalid 1 and ignore it.
    const Dataset d = generate(name, rows, 0.1, 5, name == "blobs" ? classes : 1);
    QCOMPARE(d.validate(), std::string());
    QCOMPARE(d.name, name.toStdString());
    QCOMPARE(d.rows(), Index(rows));
    QCOMPARE(d.featureCount(), Index(2));
    QVERIFY(!d.features.isSparse());
    QVERIFY(d.features.dense().allFinite());
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x1", "x2"}));
    QCOMPARE(d.targets.kind, classes == 2 ? TaskKind::Binary : TaskKind::Multiclass);
    QCOMPARE(d.targets.classCount(), classes);
    for (int c = 0; c < classes; ++c) {
        QCOMPARE(QString::fromStdString(d.targets.classNames[std::size_t(c)]), classNames[c]);
        // As even as possible: the first rows % classes classes get one extra row.
        QCOMPARE(int(d.targets.classCounts()[std::size_t(c)]), rows / classes + (c < rows % classes));
    }
    QCOMPARE(d.provenance.format, std::string("generated"));
    QCOMPARE(d.columns.size(), std::size_t(3));
    QCOMPARE(d.log.size(), std::size_t(1));
    QCOMPARE(d.log[0].name, std::string("generated"));
    QVERIFY(!d.log[0].leaksPrivacy);
    for (const std::string& part : {std::to_string(rows) + " rows", std::string("noise 0.1"), std::string("seed 5")})
        QVERIFY2(contains(d.log[0].detail, part), d.log[0].detail.c_str());
    if (rows >= 400) { // rows are shuffled: class 0 is not all at the top
        const auto top = (d.targets.classIndex->head(rows / 2).array() == 0).count();
        QVERIFY2(top > rows / classes / 4 && top < rows / classes, qPrintable(QString::number(top)));
    }
}

void TestGenerators::determinism_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"blobs", "moons", "xor", "circles"})
        QTest::newRow(name) << name;
}

void TestGenerators::determinism() {
    QFETCH(QString, name);
    const Dataset a = generate(name, 300, 0.2, 11), b = generate(name, 300, 0.2, 11);
    QCOMPARE(a.features.dense(), b.features.dense()); // bit-identical
    QVERIFY(a.targets.classIndex.get() == b.targets.classIndex.get());
    const Dataset c = generate(name, 300, 0.2, 12);
    QVERIFY(a.features.dense() != c.features.dense());
    QVERIFY(a.targets.classIndex.get() != c.targets.classIndex.get()); // the row order differs too
}

void TestGenerators::circlesGeometry_data() {
    QTest::addColumn<double>("noise");
    QTest::addColumn<double>("meanTol");
    QTest::newRow("noise 0: exact radii") << 0.0 << 1e-15;
    // E r ≈ R + σ²/(2R) (bias ≤ 0.0025), sd of the mean σ/√1000 ≈ 0.0016.
    QTest::newRow("noise 0.05: mean radii") << 0.05 << 0.01;
}

void TestGenerators::circlesGeometry() {
    QFETCH(double, noise);
    QFETCH(double, meanTol);
    const Dataset d = generate("circles", 2000, noise, 3);
    const Eigen::VectorXd r = d.features.rowNorms();
    double sum[2] = {0, 0}, sq[2] = {0, 0};
    const double radius[2] = {1.0, 0.5};
    for (Index i = 0; i < r.size(); ++i) {
        const int c = d.targets.classIndex[i];
        sum[c] += r[i];
        sq[c] += (r[i] - radius[c]) * (r[i] - radius[c]);
        if (noise == 0.0)
            ELAB_FUZZY(r[i], radius[c], 1e-15);
    }
    for (int c = 0; c < 2; ++c) {
        ELAB_FUZZY(sum[c] / 1000.0, radius[c], meanTol);
        if (noise > 0.0) // radial residual sd ≈ σ; the sample sd is within 10 % (4.5 sds)
            ELAB_FUZZY(std::sqrt(sq[c] / 1000.0), noise, 0.1 * noise);
    }
}

// Noise 0: scikit-learn's moons translated by (−0.5, −0.25): the upper moon lies on the unit
// circle around (−0.5, −0.25) above its centre, the lower one around (0.5, 0.25) below it;
// the whole set has mean 0.
void TestGenerators::moonsGeometry() {
    const Dataset d = generate("moons", 500, 0.0, 9);
    const DenseMatrix& x = d.features.dense();
    for (Index i = 0; i < x.rows(); ++i) {
        const bool upper = d.targets.classIndex[i] == 0;
        const double cx = upper ? -0.5 : 0.5, cy = upper ? -0.25 : 0.25;
        ELAB_FUZZY(std::hypot(x(i, 0) - cx, x(i, 1) - cy), 1.0, 1e-15);
        QVERIFY(upper ? x(i, 1) >= cy - 1e-15 : x(i, 1) <= cy + 1e-15);
        QCOMPARE(d.targets.values[i], upper ? -1.0 : 1.0);
    }
    ELAB_FUZZY(x.col(0).mean(), 0.0, 1e-15);
    ELAB_FUZZY(x.col(1).mean(), 0.0, 1e-15);
    ELAB_FUZZY(x.col(0).minCoeff(), -1.5, 1e-15);
    ELAB_FUZZY(x.col(0).maxCoeff(), 1.5, 1e-15);
}

void TestGenerators::xorGeometry() {
    const Dataset clean = generate("xor", 2000, 0.0, 4);
    const DenseMatrix& x = clean.features.dense();
    int quadrant[4] = {0, 0, 0, 0};
    for (Index i = 0; i < x.rows(); ++i) {
        QVERIFY(x.row(i).cwiseAbs().maxCoeff() <= 1.0 && x(i, 0) * x(i, 1) != 0.0);
        QCOMPARE(clean.targets.values[i], x(i, 0) * x(i, 1) > 0 ? 1.0 : -1.0);
        ++quadrant[(x(i, 0) > 0 ? 0 : 1) + (x(i, 1) > 0 ? 0 : 2)];
    }
    for (int q = 0; q < 4; ++q) // 500 expected, sd ≈ 16
        QVERIFY2(std::abs(quadrant[q] - 500) <= 80, qPrintable(QString::number(quadrant[q])));
    // Jitter σ = 0.1 flips one coordinate's sign with p = σ/√(2π) ≈ 0.040, the label with
    // 2p(1 − p) ≈ 0.077: agreement ≈ 0.923, sd ≈ 0.006.
    const Dataset noisy = generate("xor", 2000, 0.1, 4);
    const DenseMatrix& y = noisy.features.dense();
    int agree = 0;
    for (Index i = 0; i < y.rows(); ++i)
        agree += (y(i, 0) * y(i, 1) > 0 ? 1.0 : -1.0) == noisy.targets.values[i];
    ELAB_FUZZY(agree / 2000.0, 0.923, 0.025);
}

void TestGenerators::blobsCentres() {
    const Dataset d = generate("blobs", 50, 0.0, 2, 5);
    for (Index i = 0; i < d.rows(); ++i) {
        const double angle = 2.0 * std::numbers::pi * d.targets.classIndex[i] / 5.0;
        ELAB_FUZZY(d.features.dense()(i, 0), std::cos(angle), 1e-15);
        ELAB_FUZZY(d.features.dense()(i, 1), std::sin(angle), 1e-15);
    }
}

// The jitter is N(0, sd²) per coordinate, sd = 2·noise·2·sin(π/C): per class, the sample
// mean is within 4·sd/√n of the centre, the sample variance within 4·sd²·√(2/n) of sd², and
// the fraction inside ±1 sd within 4 sds of Φ(1) − Φ(−1) = 0.6827.
void TestGenerators::blobsGaussianSpread() {
    const int classes = 4, perClass = 2500;
    const double sd = 2.0 * 0.1 * 2.0 * std::sin(std::numbers::pi / classes);
    const Dataset d = generate("blobs", classes * perClass, 0.1, 8, classes);
    for (int c = 0; c < classes; ++c) {
        const double angle = 2.0 * std::numbers::pi * c / classes;
        const double centre[2] = {std::cos(angle), std::sin(angle)};
        for (Index j = 0; j < 2; ++j) {
            std::vector<double> dev;
            for (Index i = 0; i < d.rows(); ++i)
                if (d.targets.classIndex[i] == c)
                    dev.push_back(d.features.dense()(i, j) - centre[j]);
            const Eigen::Map<const Eigen::VectorXd> v(dev.data(), Index(dev.size()));
            const double mean = v.mean(), var = (v.array() - mean).square().sum() / (perClass - 1);
            ELAB_FUZZY(mean, 0.0, 4.0 * sd / std::sqrt(perClass));
            ELAB_FUZZY(var, sd * sd, 4.0 * sd * sd * std::sqrt(2.0 / perClass));
            const double inside = double((v.array().abs() < sd).count()) / perClass;
            ELAB_FUZZY(inside, 0.682689492137, 4.0 * std::sqrt(0.6827 * 0.3173 / perClass));
        }
    }
}

// Same seed → same data on every platform and every version: pinned values (own samplers,
// no std::*_distribution). A change here means saved sessions no longer reproduce.
void TestGenerators::pinnedValues() {
    const Dataset d = generate("blobs", 6, 0.1, 1, 3);
    // clang-format off
    const double expected[6][2] = {{-0.61487125161768386, -0.646817513527428},
                                   {1.4378436162786024, -0.00059634043797924543},
                                   {-0.57680935484367402, 0.57233177095367971},
                                   {-0.60534487883298638, 0.847284186424198},
                                   {1.0377684512352454, 0.23796383272562574},
                                   {-0.089141701450199728, -0.67765691510523163}};
    // clang-format on
    const int expectedClass[6] = {2, 0, 1, 1, 0, 2};
    for (Index i = 0; i < 6; ++i) {
        QCOMPARE(d.targets.classIndex[i], expectedClass[i]);
        for (Index j = 0; j < 2; ++j) // libm's log, cos and sin may differ by an ulp
            ELAB_FUZZY(d.features.dense()(i, j), expected[i][j], 1e-12);
    }
}

void TestGenerators::invalid_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("noise");
    QTest::addColumn<int>("classes");
    QTest::newRow("unknown generator") << "spiral" << 100 << 0.1 << 3;
    QTest::newRow("one row") << "moons" << 1 << 0.1 << 3;
    QTest::newRow("fewer rows than classes") << "blobs" << 3 << 0.1 << 4;
    QTest::newRow("negative noise") << "circles" << 100 << -0.1 << 3;
    QTest::newRow("NaN noise") << "xor" << 100 << std::nan("") << 3;
    QTest::newRow("infinite noise") << "xor" << 100 << HUGE_VAL << 3;
    QTest::newRow("blobs, one class") << "blobs" << 100 << 0.1 << 1;
    QTest::newRow("blobs, 27 classes") << "blobs" << 100 << 0.1 << 27;
}

void TestGenerators::invalid() {
    QFETCH(QString, name);
    QFETCH(int, rows);
    QFETCH(double, noise);
    QFETCH(int, classes);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate(name, rows, noise, 1, classes));
}

void TestGenerators::isGeneratorName_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("expected");
    for (const char* name : {"blobs", "moons", "xor", "circles"})
        QTest::newRow(name) << name << true;
    QTest::newRow("built-in CSV") << "iris" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("case matters") << "Moons" << false;
    QTest::newRow("trailing space") << "xor " << false;
}

void TestGenerators::isGeneratorName() {
    QFETCH(QString, name);
    QFETCH(bool, expected);
    QCOMPARE(elab::core::isGeneratorName(name.toStdString()), expected);
}

QTEST_APPLESS_MAIN(TestGenerators)
#include "test_generators.moc"
