// One feature dominating the rows' norms is found where it is (a sampling weight in the
// hundreds of thousands beside features in [0, 1]), dense and sparse, and not where none is.

#include "core/data/norm_dominance.h"

#include "core/data/dataset_loader.h"
#include "core/util/random.h"
#include "resources/builtin_resources.h"
#include "tests/support/test_support.h"

#include <QtTest>

using namespace elab::core;

namespace {

/// n rows: feature 0 uniform in [0, 1], feature 1 = weight·u (u uniform in [0.5, 1]), feature 2 in [0, 1].
Dataset weighted(Index n, double weight, bool sparse) {
    Eigen::MatrixXd x(n, 3);
    Rng rng(3);
    for (Index i = 0; i < n; ++i)
        x.row(i) << uniform01(rng), weight * (0.5 + 0.5 * uniform01(rng)), uniform01(rng);
    Dataset d;
    d.featureNames = {"age", "fnlwgt", "hours"};
    if (sparse)
        d.features = FeatureMatrix(SparseMatrix(x.sparseView().eval()));
    else
        d.features = FeatureMatrix(x);
    Eigen::VectorXi classes = Eigen::VectorXi::Zero(n);
    d.targets = Targets::classification(classes, {"<=50K", ">50K"});
    return d;
}

} // namespace

class TestNormDominance : public QObject {
    Q_OBJECT
private slots:
    void aWeightColumnDominates_data() {
        QTest::addColumn<bool>("sparse");
        QTest::newRow("dense") << false;
        QTest::newRow("sparse") << true;
    }
    void aWeightColumnDominates() {
        QFETCH(bool, sparse);
        const auto found = dominantFeature(weighted(200, 1e5, sparse));
        QVERIFY(found.has_value());
        QCOMPARE(QString::fromStdString(found->feature), QStringLiteral("fnlwgt"));
        QCOMPARE(found->rowShare, 1.0);
        QVERIFY(dominanceNote(*found).find("'fnlwgt'") != std::string::npos);
        // Feature 1 in [0.5, 1] beside two in [0, 1]: ≥ 90 % of the norm in some rows only (< half).
        QVERIFY(!dominantFeature(weighted(200, 1.0, sparse)).has_value());
    }

    void realData() {
        // Iris: four lengths of the same order. Breast cancer's raw columns: worst_area and mean_area
        // (thousands) share the norm, neither holds 90 % of it alone.
        for (const char* spec : {"builtin:iris", "builtin:breast_cancer"})
            QVERIFY2(!dominantFeature(loadDataset(spec, LoadOptions{}, elab::resources::builtinBytesProvider())), spec);
        // Adult: the sampling weight fnlwgt (up to 1.5·10⁶) holds ≥ 90 % of nearly every row's norm.
        ELAB_REQUIRE_SHARED_DATASETS();
        LoadOptions options;
        options.csv.labelColumn = "income";
        const auto found =
            dominantFeature(loadDataset(EPSILONLAB_SHARED_DIR "/datasets/adult/adult_train.csv", options, {}));
        QVERIFY(found.has_value());
        QCOMPARE(QString::fromStdString(found->feature), QStringLiteral("fnlwgt"));
        QVERIFY2(found->rowShare > 0.99, qPrintable(QString::number(found->rowShare)));
    }

    void majorityClassAndItsNote() {
        // 7 of 10 rows in class 1: the majority rate is 0.7, named.
        Dataset d;
        d.features = FeatureMatrix(Eigen::MatrixXd::Zero(10, 1));
        d.targets = Targets::classification((Eigen::VectorXi(10) << 0, 1, 1, 1, 0, 1, 1, 0, 1, 1).finished(),
                                            {"<=50K", ">50K"});
        const auto m = majorityClass(d);
        QVERIFY(m.has_value());
        QCOMPARE(m->name, std::string(">50K"));
        ELAB_FUZZY(m->rate, 0.7, 1e-15);
        // At the rate, or within the margin above it: the note; clearly above: none.
        QVERIFY(majorityNote(0.70, *m).find("no better than always answering '>50K'") != std::string::npos);
        QVERIFY(!majorityNote(0.705, *m).empty());
        QVERIFY(majorityNote(0.72, *m).empty());
        // Regression has no majority class.
        Dataset r = d;
        r.targets = Targets::regression(Eigen::VectorXd::Zero(10));
        QVERIFY(!majorityClass(r).has_value());
    }
};

QTEST_GUILESS_MAIN(TestNormDominance)
#include "test_norm_dominance.moc"
