// The audit of the whole pipeline (core/audit/pipeline_audit.h, docs/audit.md): neighbours at the
// input built as text (one record changed, added or removed, every other byte kept); then the
// three input neighbours through the product's pipeline — a flipped label through the split, a
// rare level through the encoding with a public schema, a row added to DP-SGD with N declared
// public — each consistent with its claim, and each caught once the step it exercises is made
// unstable in the test (a split that depends on the label counts, levels read from the data but
// logged as public, DP-SGD's N taken from each training set): the audit can fail. Runs are
// bit-identical for 1 and 2 threads.

#include <tbb/global_control.h>

#include "core/audit/input_neighbour.h"
#include "core/audit/pipeline_audit.h"
#include "core/data/dataset_loader.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/util/random.h"
#include "tests/support/split_data.h"
#include "tests/support/test_support.h"

#include <QtTest>

#include <sstream>

using namespace elab::core;
using elab::test::errorOf;
using elab::test::labelCountSplit;
using elab::test::segmentsCsv;

namespace {

// n rows "colour,x,label": colour red or blue (label mostly yes for red), one row green.
std::string coloursCsv(int n, int greenRow, std::uint64_t seed) {
    Rng rng(seed);
    std::ostringstream o;
    o << "colour,x,label\n";
    for (int i = 0; i < n; ++i) {
        const bool red = uniform01(rng) < 0.5;
        const double x = uniform01(rng);
        const bool yes = red != (uniform01(rng) < 0.2);
        o << (i == greenRow ? "green" : red ? "red" : "blue") << ',' << x << ',' << (yes ? "yes" : "no") << '\n';
    }
    return o.str();
}

PublicSchema yesNo() {
    PublicSchema s;
    s.labelColumn = "label";
    s.classes = {"no", "yes"};
    s.source = "the test's declaration";
    return s;
}

PipelineInput inputOf(std::string text, PublicSchema schema) {
    PipelineInput in;
    in.spec = "pipeline_audit_test.csv";
    in.options.schema = std::move(schema);
    in.options.findSchema = false;
    in.text = std::move(text);
    return in;
}

PipelineAuditSpec specOf(InputNeighbourKind kind, MechanismKind mechanism, int runs) {
    PipelineAuditSpec s;
    s.neighbour = kind;
    s.preparation.testFraction = 0.3;
    s.preparation.preprocess.intercept = true; // the CLI's default for the private commands
    s.splitSeed = 1;
    selectMechanism(s.audit.mechanism, mechanism);
    s.audit.eps = 1.0;
    s.audit.runs = runs;
    s.audit.seed = 5;
    return s;
}

QString summary(const PipelineAuditResult& r) {
    return QString::fromStdString(r.neighbour.description + " — " + pipelineAuditVerdict(r) +
                                  "; differing training rows " + std::to_string(r.differingTrainRows));
}

} // namespace

class TestPipelineAudit : public QObject {
    Q_OBJECT

private slots:
    void neighbourTexts() {
        const std::string text = "colour,x,label\nred,1,yes\n\"blue, dark\",2,no\n\ngreen,3,yes\nred,4,no\nblue,5,no\n";
        PipelineInput in = inputOf(text, yesNo());
        const Dataset loaded = loadDatasetText(in.spec, text, in.options);
        // The level: the first row that alone has its level (row 0 is red, shared; row 1 is the
        // only "blue, dark"), replaced by the most frequent other level (red, 2 rows; blue 1). A
        // field quoted in the file stays quoted.
        const InputNeighbour level = makeInputNeighbour(text, loaded, 0, InputNeighbourKind::Level, std::nullopt);
        QCOMPARE(level.row, 1LL);
        QCOMPARE(QString::fromStdString(level.from), QStringLiteral("blue, dark"));
        QCOMPARE(QString::fromStdString(level.to), QStringLiteral("red"));
        QCOMPARE(level.textD, text);
        QCOMPARE(level.textDPrime,
                 std::string("colour,x,label\nred,1,yes\n\"red\",2,no\n\ngreen,3,yes\nred,4,no\nblue,5,no\n"));
        // The label of a named row: the other class.
        const InputNeighbour label = makeInputNeighbour(text, loaded, 0, InputNeighbourKind::Label, 3);
        QCOMPARE(label.textDPrime,
                 std::string("colour,x,label\nred,1,yes\n\"blue, dark\",2,no\n\ngreen,3,yes\nred,4,yes\nblue,5,no\n"));
        // An added row: D lacks it, D′ is the file; the last row has no line break left to lose.
        const InputNeighbour add = makeInputNeighbour(text, loaded, 0, InputNeighbourKind::Add, 4);
        QCOMPARE(add.textDPrime, text);
        QCOMPARE(add.textD, std::string("colour,x,label\nred,1,yes\n\"blue, dark\",2,no\n\ngreen,3,yes\nred,4,no\n"));
        const InputNeighbour quoted = makeInputNeighbour(text, loaded, 0, InputNeighbourKind::Label, 1);
        QCOMPARE(quoted.textDPrime,
                 std::string("colour,x,label\nred,1,yes\n\"blue, dark\",2,yes\n\ngreen,3,yes\nred,4,no\nblue,5,no\n"));
        // What a file cannot give is refused, saying why.
        const std::string numeric = "x,label\n1,yes\n2,no\n3,yes\n";
        const Dataset plain = loadDatasetText(in.spec, numeric, in.options);
        QVERIFY(errorOf([&] {
                    makeInputNeighbour(numeric, plain, 0, InputNeighbourKind::Level, std::nullopt);
                }).contains(QStringLiteral("no categorical column")));
        QVERIFY(errorOf([&] {
                    makeInputNeighbour(numeric, plain, 0, InputNeighbourKind::Add, 3);
                }).contains(QStringLiteral("row 3 is not a data row")));
    }

    void flippedLabelThroughTheSplit() {
        const PipelineInput in = inputOf(segmentsCsv(400, 11), yesNo());
        PipelineAuditSpec spec = specOf(InputNeighbourKind::Label, MechanismKind::ObjPertGauss, 300);
        const PipelineAuditResult product = runPipelineAudit(in, spec);
        qInfo() << "product split:" << summary(product);
        QVERIFY2(product.claimed, product.claimBasis.c_str());
        QVERIFY(!product.structural);
        QVERIFY2(product.differingTrainRows <= 2, qPrintable(summary(product))); // one row changed, moved or not
        QVERIFY2(!product.violated(), qPrintable(summary(product)));

        spec.stages.prepare = labelCountSplit;
        const PipelineAuditResult unstable = runPipelineAudit(in, spec);
        qInfo() << "label-count split:" << summary(unstable);
        QVERIFY(unstable.differingTrainRows > 200);
        QVERIFY2(unstable.violated(), qPrintable(summary(unstable)));
    }

    void rareLevelThroughTheEncoding() {
        PublicSchema schema = yesNo();
        schema.categorical = {{"colour", {"blue", "green", "red"}}};
        const PipelineInput declared = inputOf(coloursCsv(120, 17, 3), schema);
        PipelineAuditSpec spec = specOf(InputNeighbourKind::Level, MechanismKind::ObjPertGauss, 300);
        const PipelineAuditResult product = runPipelineAudit(declared, spec);
        qInfo() << "public schema:" << summary(product);
        QCOMPARE(product.neighbour.row, 17LL);
        QVERIFY2(product.claimed, product.claimBasis.c_str());
        QVERIFY(!product.structural);
        QCOMPARE(product.d.features, product.dPrime.features);
        QVERIFY2(!product.violated(), qPrintable(summary(product)));

        // Levels read from the data: the product says so (no claim), and the audit sees why.
        const PipelineInput undeclared = inputOf(coloursCsv(120, 17, 3), yesNo());
        const PipelineAuditResult read = runPipelineAudit(undeclared, spec);
        qInfo() << "levels from the data:" << summary(read);
        QVERIFY(!read.claimed);
        QVERIFY(read.structural);
        QCOMPARE(read.d.features, read.dPrime.features + 1);
        ELAB_EXACT(read.bound.epsLB, read.bound.maxCertifiable);

        // The same encoding logged as public: the claim stands and is violated.
        spec.stages.load = [&](const std::string& text) {
            Dataset d = loadDatasetText(undeclared.spec, text, undeclared.options);
            for (ProcessingStep& step : d.log)
                step.leaksPrivacy = false;
            return d;
        };
        const PipelineAuditResult mislabelled = runPipelineAudit(undeclared, spec);
        qInfo() << "levels from the data, logged as public:" << summary(mislabelled);
        QVERIFY(mislabelled.claimed);
        QVERIFY2(mislabelled.violated(), qPrintable(summary(mislabelled)));
    }

    void addedRowThroughDpsgdN() {
        // 65 rows: D (64 rows) and D′ (65) take 1 and 2 steps per epoch at S = 64 if N is each
        // one's own row count.
        const PipelineInput in = inputOf(segmentsCsv(65, 5), yesNo());
        PipelineAuditSpec spec = specOf(InputNeighbourKind::Add, MechanismKind::Dpsgd, 300);
        spec.preparation.testFraction = 0.0;
        spec.audit.mechanism.sgd.hidden = 0;
        spec.audit.mechanism.sgd.epochs = 10;
        spec.audit.mechanism.sgd.publicRows = 65; // declared public
        const PipelineAuditResult product = runPipelineAudit(in, spec);
        qInfo() << "N declared:" << summary(product);
        QVERIFY2(product.claimed, product.claimBasis.c_str());
        QCOMPARE(product.guarantee.adjacency, Adjacency::AddRemove);
        QVERIFY2(!product.violated(), qPrintable(summary(product)));

        // Without N declared the guarantee is replace-one: nothing to test on an added row.
        PipelineAuditSpec undeclared = spec;
        undeclared.audit.mechanism.sgd.publicRows = 0;
        undeclared.audit.runs = 4;
        const PipelineAuditResult none = runPipelineAudit(in, undeclared);
        QVERIFY2(!none.claimed, qPrintable(summary(none)));

        // N taken from each training set while add/remove is claimed: caught.
        spec.stages.mechanism = [](MechanismSpec& m, const Dataset& train) { m.sgd.publicRows = train.rows(); };
        const PipelineAuditResult ownN = runPipelineAudit(in, spec);
        qInfo() << "N = each training set's rows:" << summary(ownN);
        QVERIFY2(ownN.claimed, ownN.claimBasis.c_str());
        QVERIFY2(ownN.violated(), qPrintable(summary(ownN)));
    }

    void deterministicForAnyThreadCount() {
        const PipelineInput in = inputOf(segmentsCsv(100, 2), yesNo());
        PipelineAuditSpec spec = specOf(InputNeighbourKind::Label, MechanismKind::ObjPertGauss, 20);
        spec.audit.threads = 1;
        const PipelineAuditResult one = runPipelineAudit(in, spec);
        spec.audit.threads = 2;
        const PipelineAuditResult two = runPipelineAudit(in, spec);
        QCOMPARE(one.scoresD.size(), std::size_t(20));
        for (std::size_t t = 0; t < 20; ++t) {
            ELAB_EXACT(two.scoresD[t], one.scoresD[t]);
            ELAB_EXACT(two.scoresDPrime[t], one.scoresDPrime[t]);
        }
        ELAB_EXACT(two.bound.epsLB, one.bound.epsLB);
    }
};

QTEST_GUILESS_MAIN(TestPipelineAudit)
#include "test_pipeline_audit.moc"
