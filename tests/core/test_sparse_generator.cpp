// The sparse text-like generator (core/data/sparse_generator.h): its shape and CSR invariants,
// determinism, the Zipf(1) feature frequencies against the formula (4σ/√N), the planted label
// rule, progress and stop, and the loader's query options and refusals.

#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "core/data/load_error.h"
#include "core/data/sparse_generator.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace elab::core;

namespace {

GeneratorOptions options(Index rows, Index features, Index active, double noise, std::uint64_t seed) {
    GeneratorOptions o;
    o.rows = rows;
    o.features = features;
    o.active = active;
    o.noise = noise;
    o.seed = seed;
    return o;
}

Dataset load(const std::string& spec) { return loadDataset(spec, LoadOptions{}, nullptr); }

} // namespace

class TestSparseGenerator : public QObject {
    Q_OBJECT
private slots:
    void shapeAndRows() {
        const Dataset d = generateDataset("sparse", options(5000, 300, 7, 0.1, 3));
        QVERIFY(d.features.isSparse());
        const SparseMatrix& x = d.features.sparse();
        QCOMPARE(x.rows(), Index(5000));
        QCOMPARE(x.cols(), Index(300));
        QCOMPARE(x.nonZeros(), Index(5000 * 7));
        for (Index i = 0; i < x.rows(); ++i) {
            QCOMPARE(Index(x.outerIndexPtr()[i + 1] - x.outerIndexPtr()[i]), Index(7));
            Index previous = -1;
            for (SparseMatrix::InnerIterator it(x, i); it; ++it) {
                QVERIFY2(it.col() > previous, "indices strictly increasing: distinct and sorted");
                QCOMPARE(it.value(), 1.0);
                previous = it.col();
            }
        }
        QCOMPARE(d.targets.kind, TaskKind::Binary);
        QCOMPARE(d.targets.size(), Index(5000));
        const auto counts = d.targets.classCounts();
        QVERIFY(counts[0] > 0 && counts[1] > 0);
        QCOMPARE(d.provenance.format, std::string("generated"));
        QVERIFY(d.log.front().detail.find("5000 rows") != std::string::npos);
    }

    void deterministic() {
        const Dataset a = generateDataset("sparse", options(2000, 100, 5, 0.3, 11));
        const Dataset b = generateDataset("sparse", options(2000, 100, 5, 0.3, 11));
        const Dataset c = generateDataset("sparse", options(2000, 100, 5, 0.3, 12));
        QVERIFY(a.features.sparse().isApprox(b.features.sparse()));
        QVERIFY(a.targets.classIndex == b.targets.classIndex);
        QVERIFY(!(a.targets.classIndex == c.targets.classIndex));
    }

    // active = 1: feature j is on with probability (1/(j+1)) / H_F exactly.
    void zipfFrequencies() {
        const Index rows = 200'000, features = 20;
        const Dataset d = generateDataset("sparse", options(rows, features, 1, 0.1, 5));
        std::vector<double> count(features, 0.0);
        const SparseMatrix& x = d.features.sparse();
        for (Index k = 0; k < x.nonZeros(); ++k)
            count[static_cast<std::size_t>(x.innerIndexPtr()[k])] += 1.0;
        double h = 0.0;
        for (Index j = 0; j < features; ++j)
            h += 1.0 / double(j + 1);
        for (Index j = 0; j < features; ++j) {
            const double p = 1.0 / double(j + 1) / h;
            const double sd = std::sqrt(p * (1.0 - p) / double(rows));
            ELAB_FUZZY(count[static_cast<std::size_t>(j)] / double(rows), p, 4.0 * sd);
        }
    }

    // Noise 0: the label is a function of the row's features (the planted rule); with noise,
    // rows with the same features get both labels.
    void plantedRule() {
        auto labelsPerFeature = [](const Dataset& d) {
            std::map<Index, std::set<int>> seen;
            const SparseMatrix& x = d.features.sparse();
            for (Index i = 0; i < x.rows(); ++i)
                seen[x.innerIndexPtr()[x.outerIndexPtr()[i]]].insert(d.targets.classIndex[i]);
            return seen;
        };
        bool mixed = false;
        for (const auto& [feature, labels] : labelsPerFeature(generateDataset("sparse", options(4000, 30, 1, 0.0, 2))))
            QCOMPARE(labels.size(), std::size_t(1));
        for (const auto& [feature, labels] : labelsPerFeature(generateDataset("sparse", options(4000, 30, 1, 1.0, 2))))
            mixed = mixed || labels.size() == 2;
        QVERIFY(mixed);
    }

    void progressAndStop() {
        std::vector<double> seen;
        RunContext ctx({}, [&](double f, std::string_view) { seen.push_back(f); });
        generateDataset("sparse", options(10'000, 50, 3, 0.1, 1), &ctx);
        QVERIFY(seen.size() >= 50);
        QCOMPARE(seen.back(), 1.0);
        std::stop_source stop;
        stop.request_stop();
        RunContext stopped(stop.get_token(), {});
        QVERIFY_THROWS_EXCEPTION(Cancelled, generateDataset("sparse", options(10'000, 50, 3, 0.1, 1), &stopped));
    }

    void invalid() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDataset("sparse", options(100, 1, 1, 0.1, 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDataset("sparse", options(100, 10, 11, 0.1, 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDataset("sparse", options(100, 10, 0, 0.1, 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDataset("sparse", options(1, 10, 2, 0.1, 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateDataset("sparse", options(100, 10, 2, NAN, 1)));
        QVERIFY(isGeneratorName("sparse"));
    }

    void loaderOptions() {
        const Dataset d = load("builtin:sparse?rows=3000&features=40&active=4&noise=0.2&seed=9");
        QCOMPARE(d.features.rows(), Index(3000));
        QCOMPARE(d.features.cols(), Index(40));
        QCOMPARE(d.features.storedEntries(), std::size_t(12'000));
        QCOMPARE(d.provenance.path, std::string("builtin:sparse?rows=3000&features=40&active=4&noise=0.2&seed=9"));
        QCOMPARE(load("builtin:sparse").features.rows(), Index(20'000)); // its own default size
        QCOMPARE(load("builtin:blobs?rows=1000&classes=4").targets.classCount(), 4);
    }

    void loaderRefusals_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("features on moons") << "builtin:moons?features=3"
                                           << "unknown option 'features' for builtin:moons";
        QTest::newRow("classes on sparse") << "builtin:sparse?classes=3"
                                           << "unknown option 'classes' for builtin:sparse";
        QTest::newRow("active over features") << "builtin:sparse?features=10&active=20"
                                              << "active (20) must not exceed features (10)";
        QTest::newRow("active 0") << "builtin:sparse?active=0"
                                  << "bad value '0' for active";
        QTest::newRow("too large") << "builtin:sparse?rows=100000000&active=100"
                                   << "over 10⁹ stored values";
        QTest::newRow("rows not a number") << "builtin:blobs?rows=1e6"
                                           << "bad value '1e6' for rows";
    }

    void loaderRefusals() {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        try {
            load(spec.toStdString());
            QFAIL("loaded");
        } catch (const LoadError& e) {
            QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSparseGenerator)
#include "test_sparse_generator.moc"
