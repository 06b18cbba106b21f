// Public bounds (docs/MATH.md §1.4): parsing CSV and JSON bounds files with located errors,
// the map formula, the step on dense and sparse data; private bounds (§1.5): the exponential
// mechanism's interval probabilities against the formula, its sampled draws checked
// statistically, and the ε it spends carried into the prepared data.

#include "core/data/bounds_file.h"
#include "core/data/csv_loader.h"
#include "core/data/feature_bounds.h"
#include "core/data/libsvm_loader.h"
#include "core/data/load_error.h"
#include "core/data/preprocess.h"
#include "core/data/private_bounds.h"
#include "core/util/noise.h"
#include "core/util/random.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace elab::core;

using elab::test::errorOf;

namespace {

Dataset people() {
    return loadCsv("age,hours,job,y\n20,10,a,p\n50,40,b,q\n95,60,a,p\n17,99,b,q\n", "people.csv", CsvOptions{});
}

Index feature(const Dataset& d, const std::string& name) {
    for (Index j = 0; j < d.featureCount(); ++j)
        if (d.featureName(j) == name)
            return j;
    return -1;
}

} // namespace

class TestFeatureBounds : public QObject {
    Q_OBJECT

private slots:
    void parsesCsvAndJson() {
        const PublicBounds a = parseBounds("# Census ranges\ncolumn,lo,hi\nage, 17, 90\nhours;1;99\n", "b.csv");
        QCOMPARE(a.columns.size(), std::size_t(2));
        QVERIFY((a.columns[0] == ColumnBound{"age", 17, 90}));
        QVERIFY((a.columns[1] == ColumnBound{"hours", 1, 99}));
        QCOMPARE(QString::fromStdString(a.source), QStringLiteral("b.csv"));
        const PublicBounds b = parseBounds(R"([{"column": "age", "lo": 17, "hi": 90}])", "b.json");
        QVERIFY((b.columns[0] == ColumnBound{"age", 17, 90}));
        const PublicBounds c =
            parseBounds(R"({"range": "symmetric", "columns": [{"column": "x", "lo": -1, "hi": 3}]})", "c.json");
        QCOMPARE(c.target, BoundsTarget::Symmetric);
        const PublicBounds d = parseBounds(R"({"age": [17, 90], "hours": [1, 99]})", "d.json");
        QCOMPARE(d.columns.size(), std::size_t(2));
        // What boundsJsonText writes, parseBounds reads back.
        const PublicBounds e = parseBounds(boundsJsonText(c), "e.json");
        QVERIFY(e.columns == c.columns && e.target == c.target);
    }

    void locatedErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad lo") << "age,x17,90\n"
                                << "b.csv:1:2: lo of column 'age' is not a finite number: 'x17'";
        QTest::newRow("bad hi, line 3") << "column,lo,hi\nage,17,90\nhours,1,lots\n"
                                        << "b.csv:3:3: hi of column 'hours' is not a finite number: 'lots'";
        QTest::newRow("lo >= hi") << "age,90,17\n"
                                  << "b.csv:1: column 'age': lo (90) must be below hi (17)";
        QTest::newRow("equal") << "age,5,5\n"
                               << "column 'age': lo (5) must be below hi (5)";
        QTest::newRow("fields") << "age,17\n"
                                << "b.csv:1: expected 3 fields (column, lo, hi), found 2";
        QTest::newRow("duplicate") << "age,1,2\nage,3,4\n"
                                   << "b.csv:2: column 'age' has two bounds";
        QTest::newRow("infinite") << "age,1,inf\n"
                                  << "hi of column 'age' is not a finite number";
        QTest::newRow("empty") << "\n  \n"
                               << "b.csv: the bounds file is empty";
        QTest::newRow("json lo string") << R"([{"column": "a", "lo": "1", "hi": 2}])"
                                        << "entry 1 (column 'a'): lo is not a number";
        QTest::newRow("json bad range") << R"({"range": "wide", "columns": []})"
                                        << "\"range\" must be \"unit\" or \"symmetric\"";
        QTest::newRow("json syntax") << R"([{"column": )"
                                     << "b.csv: not valid JSON";
        QTest::newRow("json number overflow") << R"([{"column": "a", "lo": 1e400, "hi": 2}])"
                                              << "b.csv: not valid JSON: [json.exception.out_of_range.406] "
                                                 "number overflow parsing '1e400'";
    }
    void locatedErrors() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QByteArray bytes = text.toUtf8();
        const QString message =
            errorOf([&] { parseBounds(std::string_view(bytes.constData(), bytes.size()), "b.csv"); });
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    // A CSV bounds file in Latin-1 or another 8-bit encoding: its column names are refused
    // where they are read, since the bounds are written back as JSON (saved sessions), which
    // holds only UTF-8 (found by the bounds fuzzer: the name was accepted, then writing it threw).
    void nonUtf8ColumnNameRefused_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<int>("offset");
        QTest::newRow("latin-1") << QByteArray("capital\xB0gain") << 7;
        QTest::newRow("truncated") << QByteArray("caf\xC3") << 3;
        QTest::newRow("overlong") << QByteArray("a\xC0\xAF") << 1;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80x") << 0;
        QTest::newRow("beyond U+10FFFF") << QByteArray("x\xF4\x90\x80\x80") << 1;
    }
    void nonUtf8ColumnNameRefused() {
        QFETCH(QByteArray, name);
        QFETCH(int, offset);
        const std::string text = "age,17,90\n" + name.toStdString() + ",0,99999\n";
        const QString message = errorOf([&] { parseBounds(text, "b.csv"); });
        const QString expected = QStringLiteral("b.csv:2:1: the column name is not UTF-8 text (byte 0x%1 at offset %2")
                                     .arg(QString::number(static_cast<unsigned char>(name[offset]), 16).toUpper())
                                     .arg(offset);
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
    void utf8ColumnNameRoundTrips() {
        const std::string text = "temp\xC3\xA9rature,-40,50\n\xE2\x82\xAC,0,1\n\xF0\x9F\x98\x80,1,2\n";
        const PublicBounds b = parseBounds(text, "b.csv");
        QCOMPARE(b.columns.size(), std::size_t{3});
        QCOMPARE(b.columns[0].column, std::string("temp\xC3\xA9rature"));
        const PublicBounds again = parseBounds(boundsJsonText(b), "b.json");
        QVERIFY(again.columns == b.columns);
    }

    void unknownAndCategoricalColumnsNamed() {
        const Dataset d = people();
        PublicBounds b;
        b.source = "b.csv";
        b.columns = {{"age", 17, 90}, {"weight", 0, 200}, {"job", 0, 1}, {"height", 0, 3}};
        const QString message = errorOf([&] { boundFeatureColumns(d, b); });
        QVERIFY2(message.contains("bounds for unknown columns weight, height"), qPrintable(message));
        QVERIFY2(message.contains("bounds are for numeric columns, not job (categorical)"), qPrintable(message));
        QVERIFY2(message.contains("[b.csv]"), qPrintable(message));
    }

    void mapFormula() {
        const ColumnBound age{"age", 17, 90};
        QCOMPARE(mapToBounds(17, age, BoundsTarget::Unit), 0.0);
        QCOMPARE(mapToBounds(90, age, BoundsTarget::Unit), 1.0);
        ELAB_FUZZY(mapToBounds(53.5, age, BoundsTarget::Unit), 0.5, 1e-15);
        QCOMPARE(mapToBounds(5, age, BoundsTarget::Unit), 0.0);   // clipped below
        QCOMPARE(mapToBounds(120, age, BoundsTarget::Unit), 1.0); // clipped above
        QCOMPARE(mapToBounds(17, age, BoundsTarget::Symmetric), -1.0);
        ELAB_FUZZY(mapToBounds(53.5, age, BoundsTarget::Symmetric), 0.0, 1e-15);
    }

    void stepOnDenseData() {
        Dataset train = people();
        Dataset test = people();
        PreprocessOptions options;
        options.bounds.columns = {{"age", 17, 90}, {"hours", 1, 99}};
        options.bounds.source = "census.csv";
        options.norm = NormPolicy::None;
        preprocess(train, &test, options);
        const Index age = feature(train, "age"), hours = feature(train, "hours"), job = feature(train, "job=b");
        const DenseMatrix& X = train.features.dense();
        ELAB_FUZZY(X(0, age), 3.0 / 73.0, 1e-15);
        QCOMPARE(X(2, age), 1.0); // 95 > 90: clipped
        ELAB_FUZZY(X(1, hours), 39.0 / 98.0, 1e-15);
        QCOMPARE(X(1, job), 1.0); // one-hot untouched
        QVERIFY(test.features.dense() == X);
        bool found = false;
        for (const ProcessingStep& s : train.log)
            if (s.name == "public bounds") {
                found = true;
                QVERIFY(!s.leaksPrivacy);
                QVERIFY2(s.detail.find("1 training value was outside") != std::string::npos, s.detail.c_str());
                QVERIFY2(s.detail.find("(census.csv)") != std::string::npos, s.detail.c_str());
            }
        QVERIFY(found);
        QCOMPARE(train.preparationEpsilon, 0.0);
    }

    void sparseKeepsZeros() {
        Dataset d = loadLibsvm("+1 1:4 3:8\n-1 2:2\n", "s.libsvm", LibsvmOptions{});
        Dataset copy = d;
        PublicBounds b;
        b.columns = {{"f1", 0, 8}, {"f3", 0, 4}};
        applyPublicBounds(d, nullptr, b);
        QCOMPARE(d.features.value(0, 0), 0.5);
        QCOMPARE(d.features.value(0, 2), 1.0);
        QCOMPARE(d.features.value(1, 1), 2.0); // unbounded column unchanged
        QCOMPARE(d.features.sparse().nonZeros(), copy.features.sparse().nonZeros());
        PublicBounds shifted;
        shifted.columns = {{"f1", 1, 8}};
        const QString message = errorOf([&] { applyPublicBounds(copy, nullptr, shifted); });
        QVERIFY2(message.contains("on sparse data a bound must keep 0 at 0"), qPrintable(message));
    }

    void candidatesAreRoundAndPublic() {
        const std::vector<double> c = boundCandidates(100.0);
        QVERIFY(std::is_sorted(c.begin(), c.end()));
        QCOMPARE(c.front(), -100.0);
        QCOMPARE(c.back(), 100.0);
        QVERIFY(std::find(c.begin(), c.end(), 0.0) != c.end());
        QVERIFY(std::find(c.begin(), c.end(), 63.0) != c.end());
        QVERIFY(std::find(c.begin(), c.end(), 0.00125) != c.end());
        QCOMPARE(c.size(), std::size_t(2 * (5 * 10 + 1) + 1)); // 5 decades of 10, D itself, ±, and 0
    }

    void laplaceNoiseStatistics() {
        // Fixed seed, N draws of Lap(b): mean 0 and variance 2b² within 5 standard errors
        // (Var of the sample variance of a Laplace: (24 − 4)·b⁴ / N).
        Rng rng(2024);
        const double b = 3.0;
        const int N = 200000;
        double sum = 0.0, sq = 0.0;
        int beyond = 0;
        for (int i = 0; i < N; ++i) {
            const double x = laplaceNoise(b, rng);
            sum += x;
            sq += x * x;
            beyond += std::abs(x) > 2.0 * b ? 1 : 0;
        }
        const double mean = sum / N, var = sq / N;
        QVERIFY2(std::abs(mean) <= 5.0 * std::sqrt(2.0 * b * b / N), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(var - 2 * b * b) <= 5.0 * std::sqrt(20.0 * std::pow(b, 4) / N),
                 qPrintable(QString::number(var)));
        // P(|X| > 2b) = e^{−2}.
        const double p = std::exp(-2.0);
        QVERIFY(std::abs(static_cast<double>(beyond) / N - p) <= 5.0 * std::sqrt(p * (1 - p) / N));
    }

    void aboveThresholdFollowsItsNoise() {
        // One count far below the threshold, then one exactly at it: with threshold noise
        // Lap(2/ε) and query noise Lap(4/ε), the second is picked with probability
        // P(Lap(4/ε) − Lap(2/ε) ≥ 0) = ½ (symmetric), the first with a vanishing one.
        const std::vector<double> counts{0.0, 1000.0};
        const int N = 20000;
        int second = 0, first = 0;
        for (int r = 0; r < N; ++r) {
            Rng rng(deriveSeed(7, static_cast<std::uint64_t>(r)));
            const std::size_t k = aboveThreshold(counts, 1000.0, 1.0, rng);
            second += k == 1 ? 1 : 0;
            first += k == 0 ? 1 : 0;
        }
        QCOMPARE(first, 0);
        QVERIFY2(std::abs(second / double(N) - 0.5) <= 5 * std::sqrt(0.25 / N), qPrintable(QString::number(second)));
    }

    void privateBoundsFindTheTightestRoundValues() {
        // 20,000 ages in 20..70: only 86 % are ≤ 63 and all are ≤ 80, so the upper bound is 80
        // (the first candidate above 63); 90 % are ≥ 25 and all are ≥ 20: the lower bound is 20.
        // The counts are ~1,800 rows from the threshold against noise Lap(8): no randomness shows.
        std::string text = "age,y\n";
        Rng rng(5);
        for (int i = 0; i < 20000; ++i)
            text += std::to_string(20 + static_cast<int>(uniformIndex(rng, 51))) + (i % 2 ? ",a\n" : ",b\n");
        const Dataset train = loadCsv(text, "ages.csv", CsvOptions{});
        PrivateBoundsOptions options;
        options.epsilon = 1.0;
        options.domain = 1000;
        const PublicBounds b = estimatePrivateBounds(train, {}, options);
        QCOMPARE(b.columns.size(), std::size_t(1));
        QCOMPARE(b.columns[0].lo, 20.0);
        QCOMPARE(b.columns[0].hi, 80.0);
        QCOMPARE(b.estimateEpsilon, 1.0);
        QVERIFY2(b.source.find("0.5 per bound") != std::string::npos, b.source.c_str()); // ε_b / (2 · 1 column)
        QVERIFY(b.source.find("rough") == std::string::npos);
        // Few rows at a small ε: said, not hidden.
        const PublicBounds rough = estimatePrivateBounds(train.selectRows({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), {}, options);
        QVERIFY2(rough.source.find("the bounds are rough") != std::string::npos, rough.source.c_str());
    }

    void preparationCarriesTheBoundsEpsilon() {
        Dataset train = people();
        PreprocessOptions options;
        options.bounds.columns = {{"age", 17, 90}}; // public: hours is estimated
        options.privateBounds = PrivateBoundsOptions{};
        options.privateBounds->epsilon = 0.4;
        options.privateBounds->domain = 1000;
        preprocess(train, nullptr, options);
        QCOMPARE(train.preparationEpsilon, 0.4);
        bool found = false;
        for (const ProcessingStep& s : train.log)
            found = found || (s.name == "private bounds" && s.detail.find("ε = 0.4") != std::string::npos &&
                              s.detail.find("hours [") != std::string::npos);
        QVERIFY(found);
        QVERIFY(train.selectRows({0, 1}).preparationEpsilon == 0.4);
    }

    void hintNamesTheLargestColumns() {
        const Dataset d = people();
        const std::string hint = boundsHint(d, PublicBounds{});
        QVERIFY2(hint.find("without public bounds: hours (up to 99), age (up to 95).") != std::string::npos,
                 hint.c_str());
        PublicBounds b;
        b.columns = {{"age", 17, 90}, {"hours", 1, 99}};
        QVERIFY(boundsHint(d, b).empty());
        // Columns already within [−1, 1] need no bounds for the norm step.
        QVERIFY(
            boundsHint(loadCsv("a,b,y\n0.5,-0.2,p\n0.1,0.9,q\n", "small.csv", CsvOptions{}), PublicBounds{}).empty());
    }

    void hintListsUnboundedColumns() {
        const Dataset d = people();
        PublicBounds b;
        b.columns = {{"age", 17, 90}};
        const std::vector<std::string> rest = unboundedNumericColumns(d, b);
        QCOMPARE(rest.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(rest[0]), QStringLiteral("hours"));
    }
};

QTEST_APPLESS_MAIN(TestFeatureBounds)
#include "test_feature_bounds.moc"
