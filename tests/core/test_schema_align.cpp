// A test file encoded with the training schema (issue 13): CSV levels and columns matched by
// name (unseen levels → all-zero one-hot, counted), LIBSVM widths reconciled, labels by name,
// located errors; the real Adult CSV and a9a pairs of ../shared (skipped when absent).

#include "core/data/csv_loader.h"
#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/data/libsvm_loader.h"
#include "core/data/schema_align.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>

using namespace elab::core;

using elab::test::errorOf;

namespace {

Dataset csv(const char* text) { return loadCsv(text, "t.csv", CsvOptions{}); }
Dataset libsvm(const char* text) { return loadLibsvm(text, "t.libsvm", LibsvmOptions{}); }

Index feature(const Dataset& d, const std::string& name) {
    for (Index j = 0; j < d.featureCount(); ++j)
        if (d.featureName(j) == name)
            return j;
    return -1;
}

std::string lastStep(const Dataset& d) { return d.log.empty() ? std::string() : d.log.back().detail; }

} // namespace

class TestSchemaAlign : public QObject {
    Q_OBJECT

private slots:
    void csvLevelsMatchedByName() {
        const Dataset train = csv("age,colour,y\n30,red,a\n40,green,b\n50,blue,a\n");
        // The test file lacks 'green', has an unseen 'pink' (2 rows), and orders levels otherwise.
        Dataset test = csv("age,colour,y\n31,pink,a\n41,red,b\n51,blue,b\n61,pink,a\n");
        const SchemaAlignment a = alignToTrainingSchema(train, test);
        QVERIFY(a.changed);
        QCOMPARE(test.featureCount(), train.featureCount());
        QCOMPARE(a.unseenLevelRows, Index(2));
        QVERIFY2(a.unseenLevels.find("colour=pink (2 rows)") != std::string::npos, a.unseenLevels.c_str());
        const Index red = feature(train, "colour=red"), blue = feature(train, "colour=blue"),
                    green = feature(train, "colour=green"), age = feature(train, "age");
        QVERIFY(red >= 0 && blue >= 0 && green >= 0 && age >= 0);
        const DenseMatrix& X = test.features.dense();
        QCOMPARE(X(0, age), 31.0);
        QCOMPARE(X.row(0).sum() - X(0, age), 0.0); // pink: all-zero one-hot
        QCOMPARE(X(1, red), 1.0);
        QCOMPARE(X(2, blue), 1.0);
        QCOMPARE(X.col(green).sum(), 0.0);
        QVERIFY(test.featureNames == train.featureNames);
        QVERIFY(lastStep(test).find("2 rows have a level the training file lacks") != std::string::npos);
    }

    void labelsMatchedByName() {
        const Dataset train = csv("x,y\n1,no\n2,yes\n3,maybe\n");
        Dataset test = csv("x,y\n1,yes\n2,no\n"); // two classes of its own, in its own order
        alignToTrainingSchema(train, test);
        QCOMPARE(test.targets.kind, TaskKind::Multiclass);
        QVERIFY(test.targets.classNames == train.targets.classNames);
        const auto& names = train.targets.classNames;
        const int yes = static_cast<int>(std::find(names.begin(), names.end(), "yes") - names.begin());
        const int no = static_cast<int>(std::find(names.begin(), names.end(), "no") - names.begin());
        QCOMPARE(test.targets.classIndex[0], yes);
        QCOMPARE(test.targets.classIndex[1], no);
        QCOMPARE(test.targets.values.size(), Index(0)); // multiclass: the class indices only
    }

    void identicalSchemaIsUntouched() {
        const Dataset train = csv("x,c,y\n1,u,a\n2,v,b\n");
        Dataset test = csv("x,c,y\n3,v,a\n4,u,b\n");
        const std::size_t steps = test.log.size();
        QVERIFY(!alignToTrainingSchema(train, test).changed);
        QCOMPARE(test.log.size(), steps);
    }

    void csvErrorsNameTheColumn_data() {
        QTest::addColumn<QString>("train");
        QTest::addColumn<QString>("test");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing column")
            << "a,b,y\n1,2,p\n3,4,q\n"
            << "a,y\n1,p\n3,q\n"
            << "column 'b' of the training CSV file is not a feature column of the test file";
        QTest::newRow("kind differs") << "a,b,y\n1,2,p\n3,4,q\n"
                                      << "a,b,y\n1,x,p\n3,z,q\n"
                                      << "column 'b' is numeric in the training file and categorical in the test file";
        QTest::newRow("unseen class") << "a,y\n1,p\n3,q\n"
                                      << "a,y\n1,p\n3,r\n"
                                      << "label 'r' that the training set lacks";
        QTest::newRow("regression vs classes") << "a,y\n1,p\n3,q\n"
                                               << "a,y\n1,0.5\n3,1.25\n"
                                               << "the training set has class labels, the test set a regression target";
    }
    void csvErrorsNameTheColumn() {
        QFETCH(QString, train);
        QFETCH(QString, test);
        QFETCH(QString, expected);
        const Dataset tr = csv(train.toUtf8().constData());
        Dataset te = csv(test.toUtf8().constData());
        const QString message = errorOf([&] { alignToTrainingSchema(tr, te); });
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void formatsMustAgree() {
        const Dataset train = csv("a,y\n1,p\n3,q\n");
        Dataset test = libsvm("+1 1:2\n-1 1:3\n");
        const QString message = errorOf([&] { alignToTrainingSchema(train, test); });
        QVERIFY2(message.contains("the training set is CSV, the test set LIBSVM"), qPrintable(message));
    }

    void libsvmWidthsReconciled() {
        const Dataset train = libsvm("+1 1:1 4:2\n-1 2:1\n"); // width 4
        Dataset narrow = libsvm("+1 1:5 2:6\n-1 2:1\n");      // width 2: features 3, 4 are zeros
        const SchemaAlignment a = alignToTrainingSchema(train, narrow);
        QCOMPARE(narrow.featureCount(), Index(4));
        QCOMPARE(a.paddedFeatures, Index(2));
        QCOMPARE(narrow.features.value(0, 1), 6.0);
        QCOMPARE(narrow.features.value(0, 3), 0.0);
        Dataset wide = libsvm("+1 1:5 6:7\n-1 5:1 6:2\n"); // width 6: features 5, 6 ignored
        const SchemaAlignment b = alignToTrainingSchema(train, wide);
        QCOMPARE(wide.featureCount(), Index(4));
        QCOMPARE(b.droppedFeatures, Index(2));
        QCOMPARE(b.droppedValues, Index(3));
        QCOMPARE(wide.features.value(0, 0), 5.0);
        QVERIFY(lastStep(wide).find("2 test features beyond the training schema ignored (3 non-zero values)") !=
                std::string::npos);
    }

    void preparationUsesTheTrainingSchema() {
        // Through prepareExperimentData (the CLI's and the GUI's path): no width error any more.
        DataPreparation preparation;
        const PreparedData out =
            prepareExperimentData(libsvm("+1 1:1 3:1\n-1 2:1\n+1 3:0.5\n"), libsvm("+1 1:1\n-1 2:1\n"), preparation, 1);
        QCOMPARE(out.test->featureCount(), out.train.featureCount());
    }

    void realAdultCsvPair() {
        ELAB_REQUIRE_SHARED_DATASETS();
        LoadOptions options;
        options.csv.labelColumn = "income";
        const std::string dir = std::string(EPSILONLAB_SHARED_DIR) + "/datasets/adult/";
        Dataset train = loadDataset(dir + "adult_train.csv", options, {});
        Dataset test = loadDataset(dir + "adult_test.csv", options, {});
        // ../shared/datasets/adult/README.md: 105 features from the training levels; the test
        // file lacks one native_country level (104 of its own).
        QCOMPARE(train.featureCount(), Index(105));
        QCOMPARE(test.featureCount(), Index(104));
        const SchemaAlignment a = alignToTrainingSchema(train, test);
        QCOMPARE(test.featureCount(), Index(105));
        QCOMPARE(a.paddedFeatures, Index(1));
        QCOMPARE(a.unseenLevelRows, Index(0));
        QVERIFY(test.targets.classNames == train.targets.classNames);
        // Missing rows are dropped per file; README: 16,281 − 1,221 test rows remain.
        QCOMPARE(test.rows(), Index(16281 - 1221));
    }

    void realA9aPair() {
        ELAB_REQUIRE_SHARED_DATASETS();
        const std::string dir = std::string(EPSILONLAB_SHARED_DIR) + "/datasets/adult/";
        Dataset train = loadDataset(dir + "a9a_train.libsvm", LoadOptions{}, {});
        Dataset test = loadDataset(dir + "a9a_test.libsvm", LoadOptions{}, {});
        QCOMPARE(train.featureCount(), Index(123)); // README: one train row uses 123; a9a.t never does
        QCOMPARE(test.featureCount(), Index(122));
        const SchemaAlignment a = alignToTrainingSchema(train, test);
        QCOMPARE(test.featureCount(), Index(123));
        QCOMPARE(a.paddedFeatures, Index(1));
        QCOMPARE(test.rows(), Index(16281));
    }
};

QTEST_APPLESS_MAIN(TestSchemaAlign)
#include "test_schema_align.moc"
