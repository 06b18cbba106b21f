// Data preparation shared by the CLI and the GUI: split, seeded subsample, preprocessing,
// and the errors for inconsistent inputs.

#include "core/data/data_preparation.h"

#include "core/data/generators.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

using namespace elab::core;

namespace {

Dataset moons(Index rows, std::uint64_t seed = 3) {
    GeneratorOptions options;
    options.rows = rows;
    options.seed = seed;
    return generateDataset("moons", options);
}

bool hasStep(const Dataset& d, const std::string& name) {
    for (const auto& step : d.log)
        if (step.name == name)
            return true;
    return false;
}

} // namespace

class TestExperimentData : public QObject {
    Q_OBJECT

private slots:
    void splitsSubsamplesAndClips() {
        DataPreparation preparation;
        preparation.testFraction = 0.25;
        preparation.subsample = 100;
        const PreparedData out = prepareExperimentData(moons(400), std::nullopt, preparation, 7);
        QVERIFY(out.test.has_value());
        // Per-row coins: Binomial(400, 0.25) test rows (mean 100, sd 8.7); the rest train, subsampled to 100.
        QVERIFY2(std::abs(double(out.test->rows()) - 100.0) <= 35.0, qPrintable(QString::number(out.test->rows())));
        QCOMPARE(out.train.rows(), Index(100));
        QVERIFY(hasStep(out.train, "subsample"));
        const Eigen::VectorXd norms = out.train.features.rowNorms();
        QVERIFY2(norms.maxCoeff() <= 1.0 + 1e-12, qPrintable(QString::number(norms.maxCoeff(), 'g', 17)));
    }

    // docs/MATH.md §7: the subsample keeps the rows with the smallest content hashes, so one row
    // changed (or added) in the input replaces at most one kept row, and the step says it is
    // stable under replace-one only.
    void subsampleReplacesAtMostOneRow() {
        Dataset d = moons(400);
        auto ids = [](const Dataset& data, std::uint64_t seed) {
            std::set<std::pair<double, double>> out;
            for (const Index i : contentRowSubset(data, 150, seed))
                out.insert({data.features.value(i, 0), data.features.value(i, 1)});
            return out;
        };
        for (const std::uint64_t seed : {1u, 2u, 3u, 4u}) {
            Dataset changed = d;
            changed.features.mutableDense()(7, 0) += 10.0; // row 7 replaced by another row
            const auto a = ids(d, seed), b = ids(changed, seed);
            std::vector<std::pair<double, double>> onlyA, onlyB;
            std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyA));
            std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyB));
            QVERIFY(onlyA.size() <= 1 && onlyB.size() <= 1);
            QCOMPARE(a.size(), std::size_t(150));
        }
        DataPreparation preparation;
        preparation.subsample = 50;
        const PreparedData out = prepareExperimentData(d, std::nullopt, preparation, 3);
        const auto step = std::find_if(out.train.log.begin(), out.train.log.end(),
                                       [](const ProcessingStep& s) { return s.name == "subsample"; });
        QVERIFY(step != out.train.log.end());
        QVERIFY(step->replaceOneOnly && !step->leaksPrivacy);
    }

    void sameSeedSameRows() {
        DataPreparation preparation;
        preparation.testFraction = 0.3;
        const PreparedData a = prepareExperimentData(moons(200), std::nullopt, preparation, 11);
        const PreparedData b = prepareExperimentData(moons(200), std::nullopt, preparation, 11);
        const PreparedData c = prepareExperimentData(moons(200), std::nullopt, preparation, 12);
        QVERIFY(a.train.targets.values.get() == b.train.targets.values.get());
        QVERIFY(a.train.features.dense() == b.train.features.dense());
        QVERIFY(!(a.train.features.dense() == c.train.features.dense()));
    }

    // The GUI prepares a copy of the loaded dataset for every sweep: without a split or a
    // subsample, the prepared rows keep the loaded labels' arrays (a million rows: 12 MB).
    void preparedRowsShareTheLoadedLabels() {
        const Dataset loaded = moons(300);
        const PreparedData out = prepareExperimentData(loaded, std::nullopt, DataPreparation{}, 5);
        QVERIFY(out.train.targets.values.sharesWith(loaded.targets.values));
        QVERIFY(out.train.targets.classIndex.sharesWith(loaded.targets.classIndex));
        DataPreparation split;
        split.testFraction = 0.2;
        const PreparedData parts = prepareExperimentData(loaded, std::nullopt, split, 5);
        QVERIFY(!parts.train.targets.values.sharesWith(loaded.targets.values));
    }

    void givenTestSetIsNotSplitAgain() {
        DataPreparation preparation;
        preparation.testFraction = 0.5;
        const PreparedData out = prepareExperimentData(moons(120), moons(40, 9), preparation, 1);
        QCOMPARE(out.train.rows(), Index(120));
        QCOMPARE(out.test->rows(), Index(40));
    }

    void rejectsInconsistentInputs_data() {
        QTest::addColumn<double>("testFraction");
        QTest::addColumn<long long>("subsample");
        QTest::addColumn<bool>("otherLabelKind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fraction 1") << 1.0 << 0LL << false << "test fraction";
        QTest::newRow("negative subsample") << 0.0 << -1LL << false << "subsample";
        QTest::newRow("subsample too large") << 0.0 << 500LL << false << "more than the 100 training rows";
        QTest::newRow("test set of another label kind") << 0.0 << 0LL << true << "the test set a regression target";
    }
    void rejectsInconsistentInputs() {
        QFETCH(double, testFraction);
        QFETCH(long long, subsample);
        QFETCH(bool, otherLabelKind);
        QFETCH(QString, expected);
        DataPreparation preparation;
        preparation.testFraction = testFraction;
        preparation.subsample = subsample;
        std::optional<Dataset> test;
        if (otherLabelKind) {
            test = moons(10);
            test->targets = Targets::regression(Eigen::VectorXd::Zero(10));
        }
        try {
            prepareExperimentData(moons(100), std::move(test), preparation, 1);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestExperimentData)
#include "test_experiment_data.moc"
