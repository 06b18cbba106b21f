// Public schemas (core/data/public_schema.h, docs/MATH.md §1.6): the schema file's format and
// its located errors; a CSV or LIBSVM file encoded without a schema logs a leaking "schema"
// step; with one, the encoding (dimension, levels, classes) is the schema's whatever the rows
// hold — tested on neighbouring files D and D′ (one row replaced, removed, with a new level or
// class) — and the step does not leak; built-ins use their documented schemas; a schema file
// beside the data is found.

#include "tests/core/csv_test_helpers.h"

#include "core/data/builtin_catalog.h"
#include "core/data/dataset_loader.h"
#include "core/data/libsvm_loader.h"
#include "core/data/public_schema.h"
#include "resources/builtin_resources.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>

using namespace elab::core;
using namespace elab::test::csv;

namespace {

const ProcessingStep* findStep(const Dataset& d, const std::string& name) {
    for (const ProcessingStep& s : d.log)
        if (s.name == name)
            return &s;
    return nullptr;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// D: level r and class "maybe" absent; row 4 (x = 5) is the only row with level r.
const QByteArray kD("x,c,y\n1,p,no\n2,q,yes\n3,p,no\n4,q,yes\n5,r,no\n");
QByteArray withLastRow(const char* row) { return QByteArray("x,c,y\n1,p,no\n2,q,yes\n3,p,no\n4,q,yes\n") + row; }

PublicSchema pqrSchema() {
    return parseSchema("label,y\nclass,no\nclass,yes\nlevel,c,p\nlevel,c,q\nlevel,c,r\n", "c.schema");
}

Dataset loadWith(const QByteArray& text, const PublicSchema& schema, const CsvOptions& options = {}) {
    return loadCsv(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), "test.csv", options,
                   nullptr, &schema);
}

Dataset loadLibsvmText(const std::string& text, const PublicSchema* schema, const LibsvmOptions& options = {}) {
    return loadLibsvm(text, "test.libsvm", options, nullptr, schema);
}

QVector<double> row(const Dataset& d, Index i) {
    QVector<double> out;
    for (Index j = 0; j < d.featureCount(); ++j)
        out << d.features.value(i, j);
    return out;
}

void writeFile(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

} // namespace

class TestPublicSchema : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryEntry();
    void errorsAreLocated_data();
    void errorsAreLocated();
    void fileTextRoundTrips();
    void csvWithoutSchemaLeaks();
    void csvNeighboursKeepTheSchemasEncoding();
    void csvSchemaOrderAndNumericClasses();
    void csvSchemaConflicts();
    void libsvmWithoutSchemaLeaks();
    void libsvmNeighboursKeepTheSchemasWidth();
    void builtinsUseDocumentedSchemas();
    void siblingSchemaFile();
    void schemaOfDatasetReloads();
    void adultTrainSchemaEncodesTest();
};

void TestPublicSchema::parsesEveryEntry() {
    const PublicSchema s = parseSchema("\xEF\xBB\xBF# comment\r\n\r\nlabel, income\r\ntask,binary\r\nclass,<=50K\r\n"
                                       "class,>50K\r\nlevel,workclass,Private\r\nlevel,\"a,b\",\" x \"\"y\"\" \"\r\n"
                                       "level,workclass,State-gov\r\n  # indented comment\r\n",
                                       "adult.schema");
    QCOMPARE(s.labelColumn, std::string("income"));
    QVERIFY(s.task == TaskKind::Binary);
    QCOMPARE(s.classes, (std::vector<std::string>{"<=50K", ">50K"}));
    QCOMPARE(s.categorical.size(), std::size_t(2));
    QCOMPARE(s.categorical[0].name, std::string("workclass"));
    QCOMPARE(s.categorical[0].levels, (std::vector<std::string>{"Private", "State-gov"}));
    QCOMPARE(s.categorical[1].name, std::string("a,b"));
    QCOMPARE(s.categorical[1].levels, (std::vector<std::string>{"x \"y\""})); // blanks trimmed, as cells are
    QCOMPARE(s.width, Index(0));
    QCOMPARE(s.source, std::string("adult.schema"));
    QCOMPARE(parseSchema("width, 123\n", "w").width, Index(123));
    // Classes: text, else the same number ("1.0" is class "1", "+1" is "1").
    const PublicSchema n = parseSchema("class,-1\nclass,1\n", "n");
    QCOMPARE(n.classIndex("1.0"), 1);
    QCOMPARE(n.classIndex("+1"), 1);
    QCOMPARE(n.classIndex(" -1 "), 0);
    QCOMPARE(n.classIndex("2"), -1);
    QCOMPARE(n.classIndex("one"), -1);
}

void TestPublicSchema::errorsAreLocated_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown entry") << QByteArray("class,a\nclass,b\nlevels,c,x\n") << 3 << "unknown entry 'levels'";
    QTest::newRow("class twice") << QByteArray("class,a\n\nclass,a\n") << 3 << "class 'a' is given twice";
    QTest::newRow("class twice by value") << QByteArray("class,1\nclass,1.0\n") << 2 << "class '1.0' is given twice";
    QTest::newRow("level twice") << QByteArray("level,c,a\nlevel,c,b\nlevel,c,a\n") << 3 << "level 'a' is given twice";
    QTest::newRow("level without a level") << QByteArray("level,c\n") << 1 << "'level' takes 2 fields";
    QTest::newRow("empty field") << QByteArray("level,c,\n") << 1 << "'level' with an empty field";
    QTest::newRow("class with two fields") << QByteArray("class,a,b\n") << 1 << "'class' takes 1 field";
    QTest::newRow("width not a number") << QByteArray("width,12a\n") << 1 << "width '12a' is not a whole number";
    QTest::newRow("width zero") << QByteArray("# w\nwidth,0\n") << 2 << "width '0' is not a whole number";
    QTest::newRow("second width") << QByteArray("width,3\nwidth,4\n") << 2
                                  << "a second 'width' entry (the first is on line 1)";
    QTest::newRow("unknown task") << QByteArray("task,ranking\n") << 1 << "unknown task 'ranking'";
    QTest::newRow("second label") << QByteArray("label,y\nclass,a\nclass,b\nlabel,z\n") << 4
                                  << "a second 'label' entry";
    QTest::newRow("levels of the label") << QByteArray("label,y\nlevel,y,a\n") << 2 << "'y' is the label column";
    QTest::newRow("label with levels") << QByteArray("level,y,a\nlabel,y\n") << 2 << "'y' has 'level' entries";
    QTest::newRow("unterminated quote") << QByteArray("class,a\nlevel,c,\"x\n") << 2 << "unterminated quoted field";
    QTest::newRow("text after a quote") << QByteArray("level,\"c\"d,x\n") << 1 << "text after a closing quote";
    QTest::newRow("one class") << QByteArray("level,c,x\nclass,a\n") << 2 << "one class ('a')";
    QTest::newRow("binary with three classes")
        << QByteArray("class,a\ntask,binary\nclass,b\nclass,c\n") << 2 << "task 'binary' needs 2 classes";
    QTest::newRow("regression with classes")
        << QByteArray("class,a\nclass,b\ntask,regression\n") << 3 << "task 'regression' with 'class' entries (line 1)";
    QTest::newRow("declares nothing") << QByteArray("# nothing\n\nlabel,y\n") << 0 << "declares nothing";
    QTest::newRow("empty file") << QByteArray("") << 0 << "declares nothing";
}

void TestPublicSchema::errorsAreLocated() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    try {
        parseSchema(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), "bad.schema");
        QFAIL("no error");
    } catch (const LoadError& e) {
        QCOMPARE(e.source(), std::string("bad.schema"));
        QCOMPARE(static_cast<int>(e.line()), line);
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        if (line > 0) // "file:line: what" (a column only where one field is at fault)
            QVERIFY2(std::string(e.what()).rfind("bad.schema:" + std::to_string(line) + ":", 0) == 0, e.what());
    }
}

void TestPublicSchema::fileTextRoundTrips() {
    PublicSchema s;
    s.labelColumn = "the label";
    s.task = TaskKind::Multiclass;
    s.classes = {"a", "b, c", "say \"hi\""};
    s.categorical = {{"col,1", {"#first", " padded ", "plain"}}, {"x", {"1", "2"}}};
    s.width = 0;
    PublicSchema back = parseSchema(schemaFileText(s), "round.schema");
    back.source = s.source;
    // " padded " keeps its blanks in the file (quoted) but, as a cell would, loses them on reading.
    s.categorical[0].levels[1] = "padded";
    QCOMPARE(back, s);
    PublicSchema w;
    w.width = 77;
    w.classes = {"-1", "+1"};
    PublicSchema wb = parseSchema(schemaFileText(w), "w");
    QCOMPARE(wb.width, Index(77));
    QCOMPARE(wb.classes, w.classes);
    PublicSchema broken;
    broken.classes = {"two\nlines", "b"};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, schemaFileText(broken));
}

// Fails on the code before public schemas: the encoding read the levels and classes from the
// rows and no step of the log was marked as leaking.
void TestPublicSchema::csvWithoutSchemaLeaks() {
    const Dataset d = load(kD);
    const ProcessingStep* step = findStep(d, "schema");
    QVERIFY2(step, "no schema step");
    QVERIFY(step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "read from this file's rows") && contains(step->detail, "the levels of c") &&
                 contains(step->detail, "the classes of 'y' (2)"),
             step->detail.c_str());
    // Why: replacing the only row with level r changes the dimension (D: x + 3 levels, D′: x + 2).
    const Dataset replaced = load(withLastRow("5,p,no\n"));
    QCOMPARE(d.featureCount(), Index(4));
    QCOMPARE(replaced.featureCount(), Index(3));
    // An integer target with many values is inferred to be regression: the task was read.
    QByteArray numeric("x,t\n");
    for (int i = 0; i < 60; ++i)
        numeric += QByteArray::number(i) + "," + QByteArray::number(i * 7 % 61) + "\n";
    const Dataset inferred = load(numeric);
    const ProcessingStep* task = findStep(inferred, "schema");
    QVERIFY(task && task->leaksPrivacy);
    QVERIFY2(contains(task->detail, "the task (regression"), task->detail.c_str());
    // A numeric file with the task given reads nothing from the rows.
    const Dataset declared = load(numeric, withTask(TaskKind::Regression));
    const ProcessingStep* given = findStep(declared, "schema");
    QVERIFY(given && !given->leaksPrivacy);
    QVERIFY2(contains(given->detail, "nothing read from the rows"), given->detail.c_str());
    // Levels read, classes declared: still leaks, naming what was read.
    PublicSchema classesOnly = parseSchema("class,no\nclass,yes\n", "classes.schema");
    const Dataset levelsRead = loadWith(kD, classesOnly);
    const ProcessingStep* half = findStep(levelsRead, "schema");
    QVERIFY(half && half->leaksPrivacy);
    QVERIFY2(contains(half->detail, "the levels of c") &&
                 !contains(half->detail, "read from this file's rows: the classes"),
             half->detail.c_str());
}

// The stability property: under a public schema the encoding's dimension, feature names and
// classes are the same on D and on each neighbour D′, and every row the two share is encoded
// the same; a row outside the schema changes only itself.
void TestPublicSchema::csvNeighboursKeepTheSchemasEncoding() {
    const PublicSchema schema = pqrSchema();
    const Dataset d = loadWith(kD, schema);
    const std::vector<std::string> names{"x", "c=p", "c=q", "c=r"};
    QCOMPARE(d.featureNames, names);
    QCOMPARE(d.targets.classNames, (std::vector<std::string>{"no", "yes"}));
    const ProcessingStep* step = findStep(d, "schema");
    QVERIFY(step && !step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "public schema (c.schema)"), step->detail.c_str());

    struct Neighbour {
        const char* name;
        QByteArray text;
        Index rows;
    };
    const Neighbour neighbours[] = {
        {"only row with level r replaced", withLastRow("5,p,no\n"), 5},
        {"only row with level r removed", withLastRow(""), 4},
        {"a level outside the schema", withLastRow("5,Z,no\n"), 5},
        {"a class outside the schema", withLastRow("5,r,maybe\n"), 4},
        {"a row added", kD + "6,q,yes\n", 6},
    };
    for (const Neighbour& n : neighbours) {
        const Dataset e = loadWith(n.text, schema);
        QVERIFY2(e.featureCount() == d.featureCount(), n.name);
        QVERIFY2(e.featureNames == d.featureNames, n.name);
        QVERIFY2(e.targets.classNames == d.targets.classNames && e.targets.kind == d.targets.kind, n.name);
        QVERIFY2(e.rows() == n.rows, n.name);
        for (Index i = 0; i < 4; ++i) { // the rows D and D′ share
            QVERIFY2(row(e, i) == row(d, i), n.name);
            QVERIFY2(targetValues(e)[i] == targetValues(d)[i], n.name);
        }
        const ProcessingStep* s = findStep(e, "schema");
        QVERIFY2(s && !s->leaksPrivacy, n.name);
        for (const ProcessingStep& other : e.log)
            QVERIFY2(!other.leaksPrivacy, (std::string(n.name) + ": " + other.name).c_str());
    }
    // The level outside the schema is an all-zero one-hot, and said so.
    const Dataset z = loadWith(withLastRow("5,Z,no\n"), schema);
    QCOMPARE(row(z, 4), (QVector<double>{5, 0, 0, 0}));
    const ProcessingStep* zs = findStep(z, "schema");
    QVERIFY2(contains(zs->detail, "all-zero one-hot: c: 1 row, c=Z (1)"), zs->detail.c_str());
    // The label outside the classes drops that row only, and the log counts it.
    const Dataset m = loadWith(withLastRow("5,r,maybe\n"), schema);
    bool counted = false;
    for (const ProcessingStep& s : m.log)
        counted = counted || (s.name == "drop rows" && contains(s.detail, "dropped 1 rows whose label is not one of"));
    QVERIFY(counted);
    // Declared levels absent from the data are columns of zeros (c=r in D′ without r).
    const Dataset removed = loadWith(withLastRow(""), schema);
    for (Index i = 0; i < removed.rows(); ++i)
        QCOMPARE(removed.features.value(i, 3), 0.0);
    // A sparse encoding gives the same values.
    CsvOptions sparse;
    sparse.sparseDensityThreshold = 1.0;
    const Dataset zs2 = loadWith(withLastRow("5,Z,no\n"), schema, sparse);
    QVERIFY(zs2.features.isSparse());
    for (Index i = 0; i < z.rows(); ++i)
        QCOMPARE(row(zs2, i), row(z, i));
}

void TestPublicSchema::csvSchemaOrderAndNumericClasses() {
    // The schema's order: classes (the first is −1) and levels, not the sorted order.
    const PublicSchema reversed = parseSchema("class,yes\nclass,no\nlevel,c,r\nlevel,c,q\nlevel,c,p\n", "rev");
    const Dataset d = loadWith(kD, reversed);
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "c=r", "c=q", "c=p"}));
    QCOMPARE(d.targets.classNames, (std::vector<std::string>{"yes", "no"}));
    QCOMPARE(targetValues(d), (QVector<double>{1, -1, 1, -1, 1}));
    QCOMPARE(row(d, 0), (QVector<double>{1, 0, 0, 1}));
    // Integer labels match by value; a numeric-looking column declared with levels is categorical.
    const PublicSchema numeric = parseSchema("class,0\nclass,1\nclass,2\nlevel,n,1\nlevel,n,2\n", "num");
    const Dataset e = loadWith("n,y\n1,1.0\n2,0\n1,2\n2,7\n", numeric);
    QCOMPARE(e.featureNames, (std::vector<std::string>{"n=1", "n=2"}));
    QVERIFY(e.targets.kind == TaskKind::Multiclass);
    QCOMPARE(e.targets.classNames, (std::vector<std::string>{"0", "1", "2"}));
    QCOMPARE(targetValues(e), (QVector<double>{1, 0, 2})); // label 7 dropped
    // Two declared classes with a multiclass task forced stay multiclass.
    CsvOptions multi;
    multi.task = TaskKind::Multiclass;
    QVERIFY(loadWith(kD, pqrSchema(), multi).targets.kind == TaskKind::Multiclass);
    // Imputation picks among the schema's levels.
    CsvOptions impute;
    impute.missing = MissingPolicy::ImputeMostFrequent;
    const Dataset i = loadWith("x,c,y\n1,q,no\n2,q,yes\n3,?,no\n4,Z,yes\n5,Z,no\n6,Z,no\n", pqrSchema(), impute);
    QCOMPARE(row(i, 2), (QVector<double>{3, 0, 1, 0}));
}

void TestPublicSchema::csvSchemaConflicts() {
    const auto fails = [](const QByteArray& text, const PublicSchema& schema, const CsvOptions& options,
                          const std::string& part) {
        try {
            loadWith(text, schema, options);
        } catch (const LoadError& e) {
            return contains(e.what(), part);
        }
        return false;
    };
    QVERIFY(fails(kD, parseSchema("level,colour,red\n", "s"), {},
                  "column 'colour' of the public schema (s) is not in this file"));
    QVERIFY(fails(kD, pqrSchema(), withTask(TaskKind::Regression), "the task is regression, but the public schema"));
    QVERIFY(fails(kD, parseSchema("class,a\nclass,b\nclass,c\n", "s"), withTask(TaskKind::Binary),
                  "binary task requested, but the public schema (s) gives 3 classes"));
    QVERIFY(fails(kD, parseSchema("level,y,no\n", "s"), {}, "gives levels for 'y', the label column"));
    QVERIFY(fails(withLastRow("5,r,maybe\n").replace("no", "maybe").replace("yes", "maybe"), pqrSchema(), {},
                  "no rows left: no row's label 'y' is one of the public schema's classes"));
    // The schema's label column applies when the options name none.
    const Dataset d = loadWith("y,x,c\nno,1,p\nyes,2,q\n", pqrSchema());
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "c=p", "c=q", "c=r"}));
    // Another label: a declared column's levels become the classes; the old label's classes no
    // longer apply, so that column's levels are read from the rows (and said so).
    const Dataset c = loadWith(kD, pqrSchema(), opts("c"));
    QCOMPARE(c.targets.classNames, (std::vector<std::string>{"p", "q", "r"}));
    const ProcessingStep* step = findStep(c, "schema");
    QVERIFY(step && step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "the levels of y") && contains(step->detail, "for label 'c'"),
             step->detail.c_str());
}

// Fails on the code before public schemas: the width and classes were read and not marked.
void TestPublicSchema::libsvmWithoutSchemaLeaks() {
    const std::string d = "+1 1:1 3:2\n-1 2:1\n+1 1:0.5\n";
    const Dataset data = loadLibsvmText(d, nullptr);
    const ProcessingStep* step = findStep(data, "schema");
    QVERIFY2(step, "no schema step");
    QVERIFY(step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "the width (3 features: the largest index)") &&
                 contains(step->detail, "the classes (2)"),
             step->detail.c_str());
    // Removing the only row with feature 3 changes the width.
    QCOMPARE(loadLibsvmText("-1 2:1\n+1 1:0.5\n", nullptr).featureCount(), Index(2));
    // --features and a forced regression task read nothing.
    LibsvmOptions given;
    given.featureCount = 4;
    given.task = TaskKind::Regression;
    const Dataset givenData = loadLibsvmText(d, nullptr, given);
    const ProcessingStep* g = findStep(givenData, "schema");
    QVERIFY(g && !g->leaksPrivacy);
    QVERIFY2(contains(g->detail, "the width (4 features, --features)"), g->detail.c_str());
}

void TestPublicSchema::libsvmNeighboursKeepTheSchemasWidth() {
    const PublicSchema schema = parseSchema("width,5\nclass,-1\nclass,+1\n", "w.schema");
    const std::string d = "+1 1:1 3:2\n-1 2:1\n+1 1:0.5\n";
    const Dataset data = loadLibsvmText(d, &schema);
    QCOMPARE(data.featureCount(), Index(5));
    QCOMPARE(data.targets.classNames, (std::vector<std::string>{"-1", "+1"}));
    const ProcessingStep* step = findStep(data, "schema");
    QVERIFY(step && !step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "public schema (w.schema)"), step->detail.c_str());
    const std::string neighbours[] = {
        "-1 2:1\n+1 1:0.5\n",                    // the only row with feature 3 removed
        "+1 1:1 3:2\n-1 2:1\n+1 1:0.5 9:4\n",    // a feature beyond the width: ignored
        "+1 1:1 3:2\n-1 2:1\n+1 1:0.5\n2 4:1\n", // a label outside the classes: dropped
        "+1 1:1 3:2\n-1 2:1\n1 1:0.5\n",         // "1" is class "+1"
    };
    for (const std::string& n : neighbours) {
        const Dataset e = loadLibsvmText(n, &schema);
        QCOMPARE(e.featureCount(), Index(5));
        QCOMPARE(e.targets.classNames, data.targets.classNames);
        QVERIFY(!findStep(e, "schema")->leaksPrivacy);
    }
    const Dataset beyond = loadLibsvmText(neighbours[1], &schema);
    QCOMPARE(row(beyond, 2), row(data, 2));
    QVERIFY2(contains(beyond.log[0].detail, "1 non-zero values beyond the public width ignored"),
             beyond.log[0].detail.c_str());
    const Dataset outside = loadLibsvmText(neighbours[2], &schema);
    QCOMPARE(outside.rows(), Index(3));
    QCOMPARE(outside.features.sparse().nonZeros(), data.features.sparse().nonZeros());
    QVERIFY2(contains(outside.log[0].detail, "1 rows whose label is not one of the public schema's classes dropped"),
             outside.log[0].detail.c_str());
    // A width given by --features still makes a larger index an error; the schema's does not.
    LibsvmOptions given;
    given.featureCount = 5;
    QVERIFY_THROWS_EXCEPTION(LoadError, loadLibsvmText(neighbours[1], nullptr, given));
    // CSV levels in a LIBSVM schema are an error.
    const PublicSchema csvOnly = parseSchema("level,c,a\n", "csv.schema");
    QVERIFY_THROWS_EXCEPTION(LoadError, loadLibsvmText(d, &csvOnly));
}

void TestPublicSchema::builtinsUseDocumentedSchemas() {
    const BuiltinBytes bytes = elab::resources::builtinBytesProvider();
    for (const BuiltinInfo& info : builtinCatalog()) {
        if (info.fileName.empty())
            continue;
        const Dataset d = loadDataset("builtin:" + info.name, {}, bytes);
        const ProcessingStep* step = findStep(d, "schema");
        QVERIFY2(step, info.name.c_str());
        QVERIFY2(!step->leaksPrivacy, (info.name + ": " + step->detail).c_str());
        QVERIFY2(contains(step->detail, "documented schema of builtin:" + info.name), step->detail.c_str());
        QVERIFY2(d.targets.kind == info.task, info.name.c_str());
        // The documented schema encodes exactly as the file's own levels did (same classes, names).
        LoadOptions own;
        own.findSchema = false;
        const Dataset o = loadDataset("builtin:" + info.name, own, bytes);
        QVERIFY2(findStep(o, "schema")->leaksPrivacy, info.name.c_str());
        QVERIFY2(o.featureNames == d.featureNames && o.targets.classNames == d.targets.classNames, info.name.c_str());
        QVERIFY2(o.rows() == d.rows(), info.name.c_str());
    }
    // Another label: penguins' islands are documented, so they become the classes.
    LoadOptions island;
    island.csv.labelColumn = "island";
    const Dataset p = loadDataset("builtin:penguins", island, bytes);
    QCOMPARE(p.targets.classNames, (std::vector<std::string>{"Biscoe", "Dream", "Torgersen"}));
    QVERIFY(!findStep(p, "schema")->leaksPrivacy);
    QVERIFY(std::count(p.featureNames.begin(), p.featureNames.end(), "species=Chinstrap") == 1);
    // A forced regression task drops the documented classes instead of contradicting them.
    LoadOptions regression;
    regression.csv.task = TaskKind::Regression;
    const Dataset r = loadDataset("builtin:breast_cancer", regression, bytes);
    QVERIFY(r.targets.kind == TaskKind::Regression);
    QVERIFY(!findStep(r, "schema")->leaksPrivacy);
    QVERIFY(documentedSchema("moons").empty());
}

void TestPublicSchema::siblingSchemaFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath("d.csv");
    writeFile(data, kD.toStdString());
    LoadOptions none;
    QVERIFY(findStep(loadDataset(data.toStdString(), none, {}), "schema")->leaksPrivacy);
    const std::string sibling = siblingSchemaPath(data.toStdString());
    QCOMPARE(sibling, data.toStdString() + ".schema");
    writeFile(QString::fromStdString(sibling), schemaFileText(pqrSchema()));
    const Dataset d = loadDataset(data.toStdString(), none, {});
    const ProcessingStep* step = findStep(d, "schema");
    QVERIFY(!step->leaksPrivacy);
    QVERIFY2(contains(step->detail, "public schema (" + sibling + ")"), step->detail.c_str());
    QCOMPARE(d.featureCount(), Index(4));
    // findSchema = false reads the rows again; an explicit schema wins over the sibling.
    LoadOptions off;
    off.findSchema = false;
    QVERIFY(findStep(loadDataset(data.toStdString(), off, {}), "schema")->leaksPrivacy);
    LoadOptions explicitSchema;
    explicitSchema.schema = parseSchema("class,no\nclass,yes\nlevel,c,p\n", "explicit");
    QCOMPARE(loadDataset(data.toStdString(), explicitSchema, {}).featureCount(), Index(2));
    // A malformed sibling is an error naming it and the line.
    writeFile(QString::fromStdString(sibling), "class,no\nclass,yes\nlevel,c\n");
    try {
        loadDataset(data.toStdString(), none, {});
        QFAIL("no error");
    } catch (const LoadError& e) {
        QCOMPARE(e.source(), sibling);
        QCOMPARE(e.line(), std::size_t(3));
    }
}

void TestPublicSchema::schemaOfDatasetReloads() {
    // What `info --write-schema` and the Data tab write: the load's own levels and classes,
    // which, read back as a schema, encode the file exactly as before — and no longer leak.
    const QByteArray text("x,c,y,k\n1,p,b,u\n2,q,a,v\n3,p,c,u\n");
    const Dataset d = load(text, opts("y"));
    const PublicSchema s = schemaOfDataset(d);
    QCOMPARE(s.labelColumn, std::string("y"));
    QCOMPARE(s.classes, (std::vector<std::string>{"a", "b", "c"}));
    QCOMPARE(s.categorical.size(), std::size_t(2));
    const PublicSchema back = parseSchema(schemaFileText(s), "written.schema");
    const Dataset e = loadWith(text, back);
    QCOMPARE(e.featureNames, d.featureNames);
    QCOMPARE(e.targets.classNames, d.targets.classNames);
    QCOMPARE(values(e), values(d));
    QVERIFY(!findStep(e, "schema")->leaksPrivacy);
    // LIBSVM: the width.
    const Dataset l = loadLibsvmText("+1 1:1 3:2\n-1 2:1\n", nullptr);
    const PublicSchema ls = schemaOfDataset(l);
    QCOMPARE(ls.width, Index(3));
    QCOMPARE(ls.classes, (std::vector<std::string>{"-1", "+1"}));
}

void TestPublicSchema::adultTrainSchemaEncodesTest() {
    const QByteArray train = readShared("adult/adult_train.csv");
    const QByteArray test = readShared("adult/adult_test.csv");
    if (train.isEmpty() || test.isEmpty())
        QSKIP("../shared/datasets/adult is not present in this checkout");
    const Dataset t = load(train, opts("income"));
    QVERIFY(findStep(t, "schema")->leaksPrivacy);
    const Dataset u = load(test, opts("income"));
    QVERIFY(u.featureCount() != t.featureCount()); // the test file lacks a level of native_country
    const PublicSchema schema = parseSchema(schemaFileText(schemaOfDataset(t)), "adult.schema");
    const Dataset v = loadWith(test, schema, opts("income"));
    QCOMPARE(v.featureCount(), t.featureCount());
    QCOMPARE(v.featureNames, t.featureNames);
    QCOMPARE(v.rows(), u.rows());
    QVERIFY(!findStep(v, "schema")->leaksPrivacy);
    // a9a: the test file's largest index is 122, the training width 123.
    const QByteArray a9aTest = readShared("adult/a9a_test.libsvm");
    if (a9aTest.isEmpty())
        QSKIP("a9a_test.libsvm is not present");
    const std::string text(a9aTest.constData(), static_cast<std::size_t>(a9aTest.size()));
    QCOMPARE(loadLibsvmText(text, nullptr).featureCount(), Index(122));
    const PublicSchema width = parseSchema("width,123\nclass,-1\nclass,+1\n", "a9a.schema");
    QCOMPARE(loadLibsvmText(text, &width).featureCount(), Index(123));
}

QTEST_APPLESS_MAIN(TestPublicSchema)
#include "test_public_schema.moc"
