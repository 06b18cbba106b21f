// CSV loader: every accepted variant with exact values, every malformed input with its line,
// column and message, and the real files of ../shared/datasets against their READMEs.

#include "core/data/csv_loader.h"
#include "core/data/load_error.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <stop_token>

using namespace elab::core;

Q_DECLARE_METATYPE(elab::core::CsvOptions)

namespace {

Dataset load(const QByteArray& text, const CsvOptions& options = {}, RunContext* ctx = nullptr) {
    return loadCsv(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                   "test.csv", options, ctx);
}

CsvOptions opts(const std::string& label = {}) {
    CsvOptions o;
    o.labelColumn = label;
    return o;
}

CsvOptions withTask(TaskKind task, const std::string& label = {}) {
    CsvOptions o = opts(label);
    o.task = task;
    return o;
}

CsvOptions delim(char delimiter) {
    CsvOptions o;
    o.delimiter = delimiter;
    return o;
}

CsvOptions withPolicy(MissingPolicy policy) {
    CsvOptions o;
    o.missing = policy;
    return o;
}

CsvOptions categorical(std::vector<std::string> names) {
    CsvOptions o;
    o.categoricalColumns = std::move(names);
    return o;
}

CsvOptions ignored(std::vector<std::string> names) {
    CsvOptions o;
    o.ignoredColumns = std::move(names);
    return o;
}

QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const std::string& s : v)
        out << QString::fromStdString(s);
    return out;
}

// Features row by row.
QVector<double> values(const Dataset& d) {
    QVector<double> out;
    for (Index i = 0; i < d.rows(); ++i)
        for (Index j = 0; j < d.featureCount(); ++j)
            out << d.features.value(i, j);
    return out;
}

QVector<double> targetValues(const Dataset& d) {
    return QVector<double>(d.targets.values.data(), d.targets.values.data() + d.targets.values.size());
}

// |actual − expected| ≤ tol · max(1, |expected|): relative for large values, absolute near 0.
void compareClose(const QVector<double>& actual, const QVector<double>& expected, double tol) {
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i)
        if (!(std::abs(actual[i] - expected[i]) <= tol * std::max(1.0, std::abs(expected[i]))))
            QFAIL(qPrintable(QString("entry %1: expected %2, actual %3, difference %4 > %5")
                                 .arg(i).arg(expected[i], 0, 'g', 17).arg(actual[i], 0, 'g', 17)
                                 .arg(actual[i] - expected[i]).arg(tol)));
}

// A LoadError where none is expected fails the row with its message instead of aborting the run.
#define LOAD_OR_FAIL(dataset, ...)                                                               \
    Dataset dataset;                                                                             \
    try {                                                                                        \
        dataset = load(__VA_ARGS__);                                                             \
    } catch (const LoadError& e) {                                                               \
        QFAIL(e.what());                                                                         \
    }

const std::string kShared = EPSILONLAB_SHARED_DIR;

QByteArray readShared(const QString& relative) {
    QFile f(QString::fromStdString(kShared) + "/datasets/" + relative);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class TestCsvLoader : public QObject {
    Q_OBJECT

private slots:
    void validVariants_data();
    void validVariants();
    void missingValues_data();
    void missingValues();
    void targets_data();
    void targets();
    void malformed_data();
    void malformed();
    void columnInfo();
    void sparseChoice();
    void logSteps();
    void progressAndCancel();
    void realFiles_data();
    void realFiles();
};

void TestCsvLoader::validVariants_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QVector<double>>("features");
    QTest::addColumn<QVector<double>>("targets");

    const QStringList ab{"a", "b"};
    const QVector<double> v1234{1, 2, 3, 4};
    const QVector<double> noYes{-1, 1};
    const CsvOptions space = delim(' ');
    QTest::newRow("comma") << QByteArray("a,b,y\n1,2,no\n3,4,yes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("semicolon") << QByteArray("a;b;y\n1;2;no\n3;4;yes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("tab") << QByteArray("a\tb\ty\n1\t2\tno\n3\t4\tyes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("whitespace runs detected")
        << QByteArray("  a   b y\n1  2\t no\n 3 4    yes  \n") << opts() << ab << v1234 << noYes;
    QTest::newRow("whitespace runs given") << QByteArray("a b y\n1   2 no\n3 4 yes\n") << space << ab << v1234 << noYes;
    QTest::newRow("whitespace with a quoted field")
        << QByteArray("a c y\n1 \"p q\" no\n2 r yes\n") << space << QStringList{"a", "c=p q", "c=r"}
        << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("blanks around comma fields trimmed")
        << QByteArray("a , b,y\n 1 , 2 , no\n3,4,\tyes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("UCI adult style: blank after each comma, ' ?' missing")
        << QByteArray("age, workclass, income\n39, State-gov, <=50K\n50, ?, >50K\n38, Private, >50K\n")
        << opts("income") << QStringList{"age", "workclass=Private", "workclass=State-gov"}
        << QVector<double>{39, 0, 1, 38, 1, 0} << noYes;
    QTest::newRow("quoted field with the delimiter")
        << QByteArray("a,c,y\n1,\"p,q\",no\n2,r,yes\n") << opts() << QStringList{"a", "c=p,q", "c=r"}
        << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("doubled quotes")
        << QByteArray("a,c,y\n1,\"say \"\"hi\"\"\",no\n2,r,yes\n") << opts()
        << QStringList{"a", "c=r", "c=say \"hi\""} << QVector<double>{1, 0, 1, 2, 1, 0} << noYes;
    QTest::newRow("embedded newline")
        << QByteArray("a,c,y\n1,\"two\nlines\",no\n2,r,yes\n") << opts()
        << QStringList{"a", "c=r", "c=two\nlines"} << QVector<double>{1, 0, 1, 2, 1, 0} << noYes;
    QTest::newRow("blanks around a quoted field")
        << QByteArray("a,c,y\n1,\"p\" ,no\n2, \"q\",yes\n") << opts() << QStringList{"a", "c=p", "c=q"}
        << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("CRLF") << QByteArray("a,b,y\r\n1,2,no\r\n3,4,yes\r\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("lone CR") << QByteArray("a,b,y\r1,2,no\r3,4,yes") << opts() << ab << v1234 << noYes;
    QTest::newRow("UTF-8 BOM") << QByteArray("\xEF\xBB\xBF" "a,b,y\n1,2,no\n3,4,yes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("no trailing newline") << QByteArray("a,b,y\n1,2,no\n3,4,yes") << opts() << ab << v1234 << noYes;
    QTest::newRow("blank trailing lines")
        << QByteArray("a,b,y\n1,2,no\n3,4,yes\n\n  \r\n\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("blank line inside") << QByteArray("a,b,y\n1,2,no\n\n3,4,yes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("quoted header and numbers")
        << QByteArray("\"a\",\"b\",\"y\"\n\"1\",\" 2 \",no\n3,\"4\",yes\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("label by name, first column")
        << QByteArray("y,a,b\nno,1,2\nyes,3,4\n") << opts("y") << ab << v1234 << noYes;
    QTest::newRow("label by index 0") << QByteArray("y,a,b\nno,1,2\nyes,3,4\n") << opts("0") << ab << v1234 << noYes;
    QTest::newRow("label by index -2") << QByteArray("a,y,b\n1,no,2\n3,yes,4\n") << opts("-2") << ab << v1234 << noYes;
    QTest::newRow("label by index -1") << QByteArray("a,b,y\n1,2,no\n3,4,yes\n") << opts("-1") << ab << v1234 << noYes;
    QTest::newRow("header named like an index: name wins")
        << QByteArray("0,1,2\n1,no,2\n3,yes,4\n") << opts("1") << QStringList{"0", "2"} << v1234 << noYes;
    QTest::newRow("numbers: sign, point, underflow, huge finite")
        << QByteArray("a,b,y\n+3,1e-400,no\n-.5,1.5e300,yes\n") << opts() << ab
        << QVector<double>{3, 0, -0.5, 1.5e300} << noYes;
    QTest::newRow("quote inside an unquoted field is literal")
        << QByteArray("h,c,y\n1,5'10\",no\n2,6'1\",yes\n") << opts()
        << QStringList{"h", "c=5'10\"", "c=6'1\""} << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("empty header name auto-named")
        << QByteArray(",b,y\n1,2,no\n3,4,yes\n") << opts() << QStringList{"column_1", "b"} << v1234 << noYes;
    QTest::newRow("levels in numeric-aware order (forced categorical)")
        << QByteArray("zip,y\n10,no\n2,yes\n1,no\n") << categorical({"zip"})
        << QStringList{"zip=1", "zip=2", "zip=10"} << QVector<double>{0, 0, 1, 0, 1, 0, 1, 0, 0}
        << QVector<double>{-1, 1, -1};
    QTest::newRow("text levels in natural order")
        << QByteArray("c,y\nitem10,no\nitem2,yes\nItem1,no\n") << opts()
        << QStringList{"c=Item1", "c=item2", "c=item10"} << QVector<double>{0, 0, 1, 0, 1, 0, 1, 0, 0}
        << QVector<double>{-1, 1, -1};
    QTest::newRow("mostly text column with numbers is categorical")
        << QByteArray("m,y\n1,no\nx,yes\n2,no\nw,yes\n") << opts() << QStringList{"m=1", "m=2", "m=w", "m=x"}
        << QVector<double>{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0} << QVector<double>{-1, 1, -1, 1};
    QTest::newRow("ignored column left out")
        << QByteArray("id,a,y\nfoo,1,no\nbar,2,yes\n") << ignored({"id"}) << QStringList{"a"}
        << QVector<double>{1, 2} << noYes;
    QTest::newRow("missing cells in an ignored column keep the row")
        << QByteArray("id,a,y\n?,1,no\n,2,yes\n") << ignored({"id"}) << QStringList{"a"}
        << QVector<double>{1, 2} << noYes;
    QTest::newRow("label listed as categorical stays the label")
        << QByteArray("a,y\n1,no\n2,yes\n") << categorical({"y"}) << QStringList{"a"}
        << QVector<double>{1, 2} << noYes;
}

void TestCsvLoader::validVariants() {
    QFETCH(QByteArray, text);
    QFETCH(CsvOptions, options);
    QFETCH(QStringList, names);
    QFETCH(QVector<double>, features);
    QFETCH(QVector<double>, targets);
    LOAD_OR_FAIL(d, text, options);
    QCOMPARE(toList(d.featureNames), names);
    QCOMPARE(values(d), features);
    QCOMPARE(targetValues(d), targets);
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    QCOMPARE(d.provenance.format, std::string("csv"));
}

void TestCsvLoader::missingValues_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<QVector<double>>("features");
    QTest::addColumn<QVector<double>>("targets");
    QTest::addColumn<QVector<int>>("missing"); // per source column
    QTest::addColumn<QStringList>("steps");    // log step names after "loaded" (and one-hot)
    QTest::addColumn<QVector<int>>("leaks");

    // Row 2 has a missing x; features x, c=a, c=b.
    const auto marker = [](const char* m) {
        return QByteArray("x,c,y\n1,a,no\n") + m + ",b,yes\n3,a,no\n5,b,yes\n";
    };
    const QVector<double> kept{1, 1, 0, 3, 1, 0, 5, 0, 1};
    const QVector<double> keptTargets{-1, -1, 1};
    for (const char* m : {"", "?", "NA", "NaN", "nan", " NA ", "\"\"", "\" ? \""})
        QTest::newRow(qPrintable(QString("marker [%1]").arg(m))) << marker(m) << opts() << kept
            << keptTargets << QVector<int>{1, 0, 0} << QStringList{"drop rows"} << QVector<int>{0};

    // x missing in rows 2 and 5, c in row 3, the label in row 5. Kept x: 1 3 8 3, c: a b a a.
    const QByteArray mixed("x,c,y\n1,a,no\n?,b,yes\n3,?,no\n8,a,yes\n?,a,?\n3,a,no\n");
    QTest::newRow("drop rows (default)")
        << mixed << opts() << QVector<double>{1, 1, 0, 8, 1, 0, 3, 1, 0} << QVector<double>{-1, 1, -1}
        << QVector<int>{2, 1, 1} << QStringList{"drop rows", "drop rows"} << QVector<int>{0, 0};
    QTest::newRow("impute mean")
        << mixed << withPolicy(MissingPolicy::ImputeMean)
        << QVector<double>{1, 1, 0, 3.75, 0, 1, 3, 1, 0, 8, 1, 0, 3, 1, 0}
        << QVector<double>{-1, 1, -1, 1, -1} << QVector<int>{2, 1, 1}
        << QStringList{"drop rows", "impute (mean)"} << QVector<int>{0, 1};
    QTest::newRow("impute most frequent")
        << mixed << withPolicy(MissingPolicy::ImputeMostFrequent)
        << QVector<double>{1, 1, 0, 3, 0, 1, 3, 1, 0, 8, 1, 0, 3, 1, 0}
        << QVector<double>{-1, 1, -1, 1, -1} << QVector<int>{2, 1, 1}
        << QStringList{"drop rows", "impute (most frequent)"} << QVector<int>{0, 1};
    QTest::newRow("mean of huge values does not overflow")
        << QByteArray("x,y\n1e308,no\n1.5e308,yes\n?,no\n") << withPolicy(MissingPolicy::ImputeMean)
        << QVector<double>{1e308, 1.5e308, 1e308 / 2 + 1.5e308 / 2} << QVector<double>{-1, 1, -1}
        << QVector<int>{1, 0} << QStringList{"impute (mean)"} << QVector<int>{1};
    QTest::newRow("most frequent tie takes the smallest value")
        << QByteArray("x,y\n2,no\n1,yes\n?,no\n") << withPolicy(MissingPolicy::ImputeMostFrequent)
        << QVector<double>{2, 1, 1} << QVector<double>{-1, 1, -1} << QVector<int>{1, 0}
        << QStringList{"impute (most frequent)"} << QVector<int>{1};
}

void TestCsvLoader::missingValues() {
    QFETCH(QByteArray, text);
    QFETCH(CsvOptions, options);
    QFETCH(QVector<double>, features);
    QFETCH(QVector<double>, targets);
    QFETCH(QVector<int>, missing);
    QFETCH(QStringList, steps);
    QFETCH(QVector<int>, leaks);
    LOAD_OR_FAIL(d, text, options);
    compareClose(values(d), features, 1e-12);
    QCOMPARE(targetValues(d), targets);
    QVector<int> counted;
    for (const ColumnInfo& c : d.columns)
        counted << static_cast<int>(c.missing);
    QCOMPARE(counted, missing);
    QStringList names;
    QVector<int> leaked;
    for (const ProcessingStep& s : d.log)
        if (s.name != "loaded" && s.name != "one-hot encode") {
            names << QString::fromStdString(s.name);
            leaked << (s.leaksPrivacy ? 1 : 0);
        }
    QCOMPARE(names, steps);
    QCOMPARE(leaked, leaks);
}

void TestCsvLoader::targets_data() {
    QTest::addColumn<QByteArray>("labels"); // one label per line; feature a = row number
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("classes");
    QTest::addColumn<QVector<double>>("values");

    QTest::newRow("text labels: binary, sorted") << QByteArray("yes\nno\nyes\n") << opts() << "binary"
        << QStringList{"no", "yes"} << QVector<double>{1, -1, 1};
    QTest::newRow("adult labels: >50K positive") << QByteArray(">50K\n<=50K\n") << opts() << "binary"
        << QStringList{"<=50K", ">50K"} << QVector<double>{1, -1};
    QTest::newRow("labels -1 and +1") << QByteArray("+1\n-1\n+1\n") << opts() << "binary"
        << QStringList{"-1", "1"} << QVector<double>{1, -1, 1};
    QTest::newRow("labels 0 and 1") << QByteArray("1\n0\n") << opts() << "binary"
        << QStringList{"0", "1"} << QVector<double>{1, -1};
    QTest::newRow("integer classes, numeric-aware") << QByteArray("10\n2\n1\n2\n") << opts() << "multiclass"
        << QStringList{"1", "2", "10"} << QVector<double>{2, 1, 0, 1};
    QTest::newRow("1.0 and 1 are one class") << QByteArray("1.0\n2\n1\n") << opts() << "binary"
        << QStringList{"1", "2"} << QVector<double>{-1, 1, -1};
    QTest::newRow("text classes in natural order") << QByteArray("class10\nclass2\nclass1\n") << opts()
        << "multiclass" << QStringList{"class1", "class2", "class10"} << QVector<double>{2, 1, 0};
    QTest::newRow("mostly text labels with a number") << QByteArray("b\n7\na\n") << opts() << "multiclass"
        << QStringList{"7", "a", "b"} << QVector<double>{2, 0, 1};
    QTest::newRow("non-integer labels: regression") << QByteArray("1.5\n2\n-3.25\n") << opts() << "regression"
        << QStringList{} << QVector<double>{1.5, 2, -3.25};
    CsvOptions fewClasses;
    fewClasses.maxIntegerClasses = 2;
    QTest::newRow("more integers than maxIntegerClasses: regression") << QByteArray("1\n2\n3\n")
        << fewClasses << "regression" << QStringList{} << QVector<double>{1, 2, 3};
    QTest::newRow("forced regression on integers") << QByteArray("0\n1\n") << withTask(TaskKind::Regression)
        << "regression" << QStringList{} << QVector<double>{0, 1};
    QTest::newRow("forced multiclass with two classes") << QByteArray("b\na\n") << withTask(TaskKind::Multiclass)
        << "multiclass" << QStringList{"a", "b"} << QVector<double>{1, 0};
    QTest::newRow("forced binary on text") << QByteArray("b\na\n") << withTask(TaskKind::Binary)
        << "binary" << QStringList{"a", "b"} << QVector<double>{1, -1};
    QTest::newRow("forced classification of decimals") << QByteArray("1.5\n0.5\n1.5\n")
        << withTask(TaskKind::Multiclass) << "multiclass" << QStringList{"0.5", "1.5"}
        << QVector<double>{1, 0, 1};
    QTest::newRow("many integer classes when forced") << QByteArray("1\n2\n3\n4\n") << [] {
        CsvOptions o = withTask(TaskKind::Multiclass);
        o.maxIntegerClasses = 2;
        return o;
    }() << "multiclass" << QStringList{"1", "2", "3", "4"} << QVector<double>{0, 1, 2, 3};
}

void TestCsvLoader::targets() {
    QFETCH(QByteArray, labels);
    QFETCH(CsvOptions, options);
    QFETCH(QString, kind);
    QFETCH(QStringList, classes);
    QFETCH(QVector<double>, values);
    QByteArray text("a,label\n");
    int row = 0;
    for (const QByteArray& l : labels.split('\n'))
        if (!l.isEmpty())
            text += QByteArray::number(++row) + "," + l + "\n";
    LOAD_OR_FAIL(d, text, options);
    QCOMPARE(QString(toString(d.targets.kind)), kind);
    QCOMPARE(toList(d.targets.classNames), classes);
    QCOMPARE(targetValues(d), values);
    if (d.targets.isClassification())
        for (Index i = 0; i < d.rows(); ++i)
            QCOMPARE(d.targets.kind == TaskKind::Binary ? (d.targets.classIndex[i] == 1 ? 1.0 : -1.0)
                                                        : double(d.targets.classIndex[i]),
                     d.targets.values[i]);
    QCOMPARE(QString::fromStdString(d.validate()), QString());
}

void TestCsvLoader::malformed_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const auto row = [](const char* name, const char* text, CsvOptions o, int line, int column,
                        const char* message) {
        QTest::newRow(name) << QByteArray(text) << o << line << column << QString(message);
    };
    const QByteArray tenNumbers("x,y\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n9,a\n");
    QTest::newRow("text in a numeric column") << tenNumbers + "1O,b\n" << opts() << 11 << 1
        << "text '1O' in numeric column 'x' (9 of 10 values are numbers)";
    row("too few fields", "a,b,y\n1,2,no\n3,4\n", opts(), 3, 0, "expected 3 fields, found 2");
    row("too many fields", "a,b,y\n1,2,no\n3,4,yes,5\n", opts(), 3, 0, "expected 3 fields, found 4");
    row("ragged after a multi-line field", "a,b,y\n1,\"x\ny\",no\n3,4\n", opts(), 4, 0, "expected 3 fields, found 2");
    row("ragged with whitespace delimiter", "a b y\n1 2 no\n3 4\n", opts(), 3, 0, "expected 3 fields, found 2");
    row("unterminated quote", "a,b,y\n1,2,no\n3,\"4,yes\n5,6,no\n", opts(), 3, 2, "unterminated quoted field");
    row("unterminated quote in the header", "a,\"b,y\n1,2,no\n", opts(), 1, 2, "unterminated quoted field");
    row("text after a closing quote", "a,b,y\n1,\"2\"x,no\n", opts(), 2, 2, "unexpected 'x' after the closing quote");
    row("text after a closing quote, whitespace", "a b y\n1 \"2\"x no\n", delim(' '), 2, 2,
        "unexpected 'x' after the closing quote");
    row("text in numeric column after a multi-line field", "a,c,y\n1,\"p\nq\",no\n2,r,no\n3,r,no\n4,r,no\n"
        "5,r,no\n6,r,no\n7,r,no\n8,r,no\n9,r,no\nten,s,yes\n", opts(), 12, 1, "text 'ten' in numeric column 'a'");
    row("inf", "a,y\n1,no\ninf,yes\n", opts(), 3, 1, "non-finite value 'inf' in numeric column 'a'");
    row("-inf", "a,y\n1,no\n-inf,yes\n", opts(), 3, 1, "non-finite value '-inf'");
    row("Infinity", "a,y\n1,no\n2,yes\nInfinity,no\n", opts(), 4, 1, "non-finite value 'Infinity'");
    row("overflowing double", "a,y\n1,no\n1e999,yes\n", opts(), 3, 1, "non-finite value '1e999'");
    row("-nan is not the missing marker", "a,y\n1,no\n-nan,yes\n", opts(), 3, 1, "non-finite value '-nan'");
    row("non-finite regression label", "a,y\n1,1.5\n2,inf\n", opts(), 3, 2, "non-finite label 'inf' in column 'y'");
    row("text in a numeric label column", "a,y\n1,1\n2,2\n3,3\n4,4\n5,5\n6,6\n7,7\n8,8\n9,9\n10,x\n", opts(), 11, 2,
        "text 'x' in numeric label column 'y'");
    row("empty file", "", opts(), 0, 0, "empty file");
    row("blank lines only", "\n  \r\n\n", opts(), 0, 0, "empty file");
    row("BOM only", "\xEF\xBB\xBF", opts(), 0, 0, "empty file");
    QTest::newRow("UTF-16 text") << QByteArray("\xFF\xFE" "a\0,\0y\0\n\0", 10) << opts() << 1 << 0
        << "the file is UTF-16 text; save it as UTF-8";
    row("header only", "a,b,y\n", opts(), 0, 0, "no data rows");
    row("header only, no newline", "a,b,y", opts(), 0, 0, "no data rows");
    row("one column", "y\n1\n2\n", opts(), 1, 0, "the header has one column ('y')");
    row("duplicate header name", "a,b,a,y\n1,2,3,no\n", opts(), 1, 3, "duplicate column name 'a' (also column 1)");
    row("single class", "a,y\n1,x\n2,x\n", opts(), 0, 0, "only one class ('x') in label column 'y'");
    row("single class after dropping rows", "a,y\n1,x\n?,z\n", opts(), 0, 0, "only one class ('x') in label column 'y'");
    row("label column name not found", "a,b,y\n1,2,no\n", opts("label"), 1, 0,
        "label column 'label' not found; columns: a, b, y");
    row("label index out of range", "a,b,y\n1,2,no\n", opts("3"), 1, 0, "label column index 3 is out of range: 3 columns");
    row("negative label index out of range", "a,b,y\n1,2,no\n", opts("-4"), 1, 0, "label column index -4 is out of range");
    row("categorical column not found", "a,y\n1,no\n", categorical({"b"}), 1, 0, "categorical column 'b' not found; columns: a, y");
    row("ignored column not found", "a,y\n1,no\n", ignored({"b"}), 1, 0, "ignored column 'b' not found");
    row("label ignored by index", "a,b,y\n1,2,no\n", [] { CsvOptions o = ignored({"y"}); o.labelColumn = "-1"; return o; }(),
        1, 3, "the label column 'y' cannot be ignored");
    row("every feature ignored", "a,y\n1,no\n", ignored({"a"}), 1, 0, "no feature columns");
    row("forced regression on text labels", "a,y\n1,no\n2,yes\n", withTask(TaskKind::Regression), 2, 2,
        "label column 'y' has text ('no'): it cannot be a regression target");
    row("forced binary with three classes", "a,y\n1,p\n2,q\n3,r\n", withTask(TaskKind::Binary), 0, 0,
        "binary task requested, but label column 'y' has 3 classes");
    row("every row dropped", "a,b,y\n1,?,no\n?,2,yes\n3,NA,no\n", opts(), 0, 0,
        "no rows left: every row has a missing value (column 'b' is missing in 2 of 3 rows)");
    row("every label missing", "a,y\n1,?\n2,\n", withPolicy(MissingPolicy::ImputeMean), 0, 0,
        "no rows left: the label 'y' is missing in every row");
    row("nothing to impute from", "a,b,y\n1,?,no\n2,NA,yes\n", withPolicy(MissingPolicy::ImputeMean), 0, 0,
        "column 'b' has no value to impute from");
    row("given delimiter that does not split", "a,b,y\n1,2,no\n", delim(';'), 1, 0, "the header has one column ('a,b,y')");
    CsvOptions badDelimiter;
    badDelimiter.delimiter = '|';
    QTest::newRow("invalid delimiter option") << QByteArray("a|y\n1|no\n") << badDelimiter << 0 << 0
        << "invalid CSV options: the delimiter must be";
    CsvOptions badClasses;
    badClasses.maxIntegerClasses = 1;
    QTest::newRow("invalid maxIntegerClasses") << QByteArray("a,y\n1,no\n") << badClasses << 0 << 0
        << "invalid CSV options: maxIntegerClasses must be at least 2";
    CsvOptions badThreshold;
    badThreshold.sparseDensityThreshold = 1.5;
    QTest::newRow("invalid density threshold") << QByteArray("a,y\n1,no\n") << badThreshold << 0 << 0
        << "invalid CSV options: sparseDensityThreshold";
    CsvOptions both = categorical({"a"});
    both.ignoredColumns = {"a"};
    QTest::newRow("column both categorical and ignored") << QByteArray("a,y\n1,no\n") << both << 0 << 0
        << "column 'a' is both categorical and ignored";
}

void TestCsvLoader::malformed() {
    QFETCH(QByteArray, text);
    QFETCH(CsvOptions, options);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    try {
        load(text, options);
        QFAIL("no LoadError");
    } catch (const LoadError& e) {
        const QString got = QString::fromStdString(e.message());
        QVERIFY2(got.contains(message), qPrintable("message: " + got));
        QCOMPARE(int(e.line()), line);
        QCOMPARE(int(e.column()), column);
        QCOMPARE(e.source(), std::string("test.csv"));
        const QString prefix = line == 0 ? QString("test.csv: ")
                               : column == 0 ? QString("test.csv:%1: ").arg(line)
                                             : QString("test.csv:%1:%2: ").arg(line).arg(column);
        QVERIFY2(QString(e.what()).startsWith(prefix), e.what());
    }
}

void TestCsvLoader::columnInfo() {
    const Dataset d = load("id,n,c,y\nr1,1.5,b,no\nr2,?,a,yes\nr3,2,?,no\nr4,3,a,yes\n",
                           [] {
                               CsvOptions o = ignored({"id"});
                               o.missing = MissingPolicy::ImputeMean;
                               return o;
                           }());
    QCOMPARE(d.columns.size(), std::size_t(4));
    const ColumnKind kinds[] = {ColumnKind::Ignored, ColumnKind::Numeric, ColumnKind::Categorical, ColumnKind::Label};
    const Index first[] = {-1, 0, 1, -1};
    const Index count[] = {0, 1, 2, 0};
    const std::size_t missing[] = {0, 1, 1, 0};
    for (std::size_t c = 0; c < 4; ++c) {
        QCOMPARE(d.columns[c].kind, kinds[c]);
        QCOMPARE(d.columns[c].firstFeature, first[c]);
        QCOMPARE(d.columns[c].featureCount, count[c]);
        QCOMPARE(d.columns[c].missing, missing[c]);
    }
    QCOMPARE(toList(d.columns[2].levels), (QStringList{"a", "b"}));
    QCOMPARE(toList(d.featureNames), (QStringList{"n", "c=a", "c=b"}));
    // n imputed with the mean of 1.5, 2, 3; c with its most frequent level 'a'.
    compareClose(values(d), {1.5, 0, 1, 6.5 / 3, 1, 0, 2, 1, 0, 3, 1, 0}, 1e-12);
}

void TestCsvLoader::sparseChoice() {
    const QByteArray numeric("a,b,c,y\n0,0,0,no\n0,0,5,yes\n0,0,0,no\n0,0,0,yes\n"); // 1 of 12 non-zero
    Dataset d = load(numeric);
    QVERIFY(d.features.isSparse());
    QCOMPARE(d.features.storedEntries(), std::size_t(1));
    QCOMPARE(d.features.value(1, 2), 5.0);
    CsvOptions never;
    never.sparseDensityThreshold = 0.05;
    d = load(numeric, never);
    QVERIFY(!d.features.isSparse());
    QCOMPARE(values(d), (QVector<double>{0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0}));

    QByteArray levels("c,y\n"); // 12 levels, one 1 per row: density 1/12
    for (int i = 12; i >= 1; --i)
        levels += "l" + QByteArray::number(i) + (i % 2 ? ",no\n" : ",yes\n");
    d = load(levels);
    QVERIFY(d.features.isSparse());
    QCOMPARE(d.featureCount(), Index(12));
    for (Index i = 0; i < 12; ++i) // row i holds level l(12-i), feature index 11-i
        for (Index j = 0; j < 12; ++j)
            QCOMPARE(d.features.value(i, j), j == 11 - i ? 1.0 : 0.0);
    QCOMPARE(d.featureNames[0], std::string("c=l1"));
    QCOMPARE(d.featureNames[11], std::string("c=l12"));
}

void TestCsvLoader::logSteps() {
    const Dataset d = load("a;c;y\n1;p;no\n2;q;yes\n");
    QVERIFY(d.log.size() >= 2);
    QCOMPARE(d.log[0].name, std::string("loaded"));
    QVERIFY2(d.log[0].detail.find("2 data rows x 3 columns, semicolon-delimited; 1 numeric, 1 categorical") == 0,
             d.log[0].detail.c_str());
    QVERIFY(d.log[0].detail.find("binary: 'no' = -1, 'yes' = +1") != std::string::npos);
    QVERIFY(!d.log[0].leaksPrivacy);
    QCOMPARE(d.log[1].name, std::string("one-hot encode"));
    QVERIFY2(d.log[1].detail.find("c (2 levels)") == 0, d.log[1].detail.c_str());
}

void TestCsvLoader::progressAndCancel() {
    QByteArray text("a,b,y\n");
    for (int i = 0; i < 20000; ++i)
        text += QByteArray::number(i) + "," + QByteArray::number(i % 7) + (i % 2 ? ",yes\n" : ",no\n");
    std::vector<double> fractions;
    std::vector<std::string> stages;
    std::stop_source running;
    RunContext ctx(running.get_token(), [&](double f, std::string_view stage) {
        fractions.push_back(f);
        stages.emplace_back(stage);
    });
    const Dataset d = load(text, {}, &ctx);
    QCOMPARE(d.rows(), Index(20000));
    QVERIFY2(fractions.size() >= 3, "progress was reported during parsing");
    QCOMPARE(fractions.back(), 1.0);
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    for (const std::string& s : stages)
        QCOMPARE(s, std::string("parsing"));

    std::stop_source stopped;
    stopped.request_stop();
    RunContext cancelled(stopped.get_token(), {});
    QVERIFY_THROWS_EXCEPTION(Cancelled, load(text, {}, &cancelled));
}

void TestCsvLoader::realFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("features");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("classes");
    QTest::addColumn<QVector<int>>("counts");

    QTest::newRow("iris") << "iris/iris.csv" << opts() << 150 << 4 << "multiclass"
                          << QStringList{"0", "1", "2"} << QVector<int>{50, 50, 50};
    QTest::newRow("penguins, drop rows") << "penguins/penguins.csv" << opts("species") << 333 << 10
        << "multiclass" << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{146, 68, 119};
    CsvOptions noSex = opts("species");
    noSex.ignoredColumns = {"sex"};
    QTest::newRow("penguins without sex") << "penguins/penguins.csv" << noSex << 342 << 8 << "multiclass"
        << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{151, 68, 123};
    CsvOptions penguinsImputed = opts("species");
    penguinsImputed.missing = MissingPolicy::ImputeMean;
    QTest::newRow("penguins, imputed") << "penguins/penguins.csv" << penguinsImputed << 344 << 10
        << "multiclass" << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{152, 68, 124};
    QTest::newRow("breast cancer") << "breast_cancer_wdbc/breast_cancer_wdbc.csv" << opts() << 569 << 30
        << "binary" << QStringList{"0", "1"} << QVector<int>{212, 357};
    QTest::newRow("diabetes") << "diabetes/diabetes.csv" << opts("target") << 442 << 10 << "regression"
                              << QStringList{} << QVector<int>{};
    QTest::newRow("adult train, drop rows") << "adult/adult_train.csv" << opts("income") << 30162 << 105
        << "binary" << QStringList{"<=50K", ">50K"} << QVector<int>{22654, 7508};
    CsvOptions adultImputed = opts("income");
    adultImputed.missing = MissingPolicy::ImputeMostFrequent;
    QTest::newRow("adult train, imputed") << "adult/adult_train.csv" << adultImputed << 32561 << 105
        << "binary" << QStringList{"<=50K", ">50K"} << QVector<int>{24720, 7841};
}

void TestCsvLoader::realFiles() {
    QFETCH(QString, file);
    QFETCH(CsvOptions, options);
    QFETCH(int, rows);
    QFETCH(int, features);
    QFETCH(QString, kind);
    QFETCH(QStringList, classes);
    QFETCH(QVector<int>, counts);
    if (!QDir(QString::fromStdString(kShared) + "/datasets").exists())
        QSKIP("../shared/datasets is not present in this checkout");
    const QByteArray text = readShared(file);
    QVERIFY2(!text.isEmpty(), qPrintable(file + " is missing or empty"));
    LOAD_OR_FAIL(d, text, options);
    QCOMPARE(d.rows(), Index(rows));
    QCOMPARE(d.featureCount(), Index(features));
    QCOMPARE(QString(toString(d.targets.kind)), kind);
    QCOMPARE(toList(d.targets.classNames), classes);
    QVector<int> counted;
    for (Index c : d.targets.isClassification() ? d.targets.classCounts() : std::vector<Index>{})
        counted << static_cast<int>(c);
    QCOMPARE(counted, counts);
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    if (file.startsWith("diabetes")) { // README: target 25-346
        QCOMPARE(d.targets.values.minCoeff(), 25.0);
        QCOMPARE(d.targets.values.maxCoeff(), 346.0);
    }
    if (file.startsWith("iris"))
        QCOMPARE(values(d).mid(0, 4), (QVector<double>{5.1, 3.5, 1.4, 0.2}));
    if (file.startsWith("adult")) { // README: '?' only in these three columns; 99 one-hot levels
        QCOMPARE(d.columns[1].missing, std::size_t(1836));
        QCOMPARE(d.columns[6].missing, std::size_t(1843));
        QCOMPARE(d.columns[13].missing, std::size_t(583));
        QCOMPARE(d.columns[13].levels.size(), std::size_t(41));
        QCOMPARE(d.columns[0].kind, ColumnKind::Numeric);
        QCOMPARE(d.columns[1].kind, ColumnKind::Categorical);
    }
}

QTEST_APPLESS_MAIN(TestCsvLoader)
#include "test_csv_loader.moc"
