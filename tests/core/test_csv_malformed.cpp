// CSV loader: every malformed input gives a LoadError naming file, line and column; the
// real datasets in ../shared/datasets parse to the shapes their READMEs give.

#include "tests/core/csv_test_helpers.h"

using namespace elab::core;
using namespace elab::test::csv;

class TestCsvMalformed : public QObject {
    Q_OBJECT

private slots:
    void malformed_data();
    void malformed();
    void realFiles_data();
    void realFiles();
};

void TestCsvMalformed::malformed_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const auto row = [](const char* name, const char* text, CsvOptions o, int line, int column, const char* message) {
        QTest::newRow(name) << QByteArray(text) << o << line << column << QString(message);
    };
    const QByteArray tenNumbers("x,y\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n9,a\n");
    QTest::newRow("text in a numeric column")
        << tenNumbers + "1O,b\n"
        << opts() << 11 << 1 << "text '1O' in numeric column 'x' (9 of 10 values are numbers)";
    row("too few fields", "a,b,y\n1,2,no\n3,4\n", opts(), 3, 0, "expected 3 fields, found 2");
    row("too many fields", "a,b,y\n1,2,no\n3,4,yes,5\n", opts(), 3, 0, "expected 3 fields, found 4");
    row("ragged after a multi-line field", "a,b,y\n1,\"x\ny\",no\n3,4\n", opts(), 4, 0, "expected 3 fields, found 2");
    row("ragged with whitespace delimiter", "a b y\n1 2 no\n3 4\n", opts(), 3, 0, "expected 3 fields, found 2");
    row("unterminated quote", "a,b,y\n1,2,no\n3,\"4,yes\n5,6,no\n", opts(), 3, 2, "unterminated quoted field");
    row("unterminated quote in the header", "a,\"b,y\n1,2,no\n", opts(), 1, 2, "unterminated quoted field");
    row("text after a closing quote", "a,b,y\n1,\"2\"x,no\n", opts(), 2, 2, "unexpected 'x' after the closing quote");
    row("text after a closing quote, whitespace", "a b y\n1 \"2\"x no\n", delim(' '), 2, 2,
        "unexpected 'x' after the closing quote");
    row("text in numeric column after a multi-line field",
        "a,c,y\n1,\"p\nq\",no\n2,r,no\n3,r,no\n4,r,no\n"
        "5,r,no\n6,r,no\n7,r,no\n8,r,no\n9,r,no\nten,s,yes\n",
        opts(), 12, 1, "text 'ten' in numeric column 'a'");
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
    QTest::newRow("UTF-16 text") << QByteArray("\xFF\xFE"
                                               "a\0,\0y\0\n\0",
                                               10)
                                 << opts() << 1 << 0 << "the file is UTF-16 text; save it as UTF-8";
    row("header only", "a,b,y\n", opts(), 0, 0, "no data rows");
    row("header only, no newline", "a,b,y", opts(), 0, 0, "no data rows");
    row("one column", "y\n1\n2\n", opts(), 1, 0, "the header has one column ('y')");
    row("duplicate header name", "a,b,a,y\n1,2,3,no\n", opts(), 1, 3, "duplicate column name 'a' (also column 1)");
    row("single class", "a,y\n1,x\n2,x\n", opts(), 0, 0, "only one class ('x') in label column 'y'");
    row("single class after dropping rows", "a,y\n1,x\n?,z\n", opts(), 0, 0,
        "only one class ('x') in label column 'y'");
    row("label column name not found", "a,b,y\n1,2,no\n", opts("label"), 1, 0,
        "label column 'label' not found; columns: a, b, y");
    row("label index out of range", "a,b,y\n1,2,no\n", opts("3"), 1, 0,
        "label column index 3 is out of range: 3 columns");
    row("negative label index out of range", "a,b,y\n1,2,no\n", opts("-4"), 1, 0,
        "label column index -4 is out of range");
    row("categorical column not found", "a,y\n1,no\n", categorical({"b"}), 1, 0,
        "categorical column 'b' not found; columns: a, y");
    row("ignored column not found", "a,y\n1,no\n", ignored({"b"}), 1, 0, "ignored column 'b' not found");
    row(
        "label ignored by index", "a,b,y\n1,2,no\n",
        [] {
            CsvOptions o = ignored({"y"});
            o.labelColumn = "-1";
            return o;
        }(),
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
    row("given delimiter that does not split", "a,b,y\n1,2,no\n", delim(';'), 1, 0,
        "the header has one column ('a,b,y')");
    CsvOptions badDelimiter;
    badDelimiter.delimiter = '|';
    QTest::newRow("invalid delimiter option")
        << QByteArray("a|y\n1|no\n") << badDelimiter << 0 << 0 << "invalid CSV options: the delimiter must be";
    CsvOptions badClasses;
    badClasses.maxIntegerClasses = 1;
    QTest::newRow("invalid maxIntegerClasses") << QByteArray("a,y\n1,no\n") << badClasses << 0 << 0
                                               << "invalid CSV options: maxIntegerClasses must be at least 2";
    CsvOptions badThreshold;
    badThreshold.sparseDensityThreshold = 1.5;
    QTest::newRow("invalid density threshold")
        << QByteArray("a,y\n1,no\n") << badThreshold << 0 << 0 << "invalid CSV options: sparseDensityThreshold";
    CsvOptions both = categorical({"a"});
    both.ignoredColumns = {"a"};
    QTest::newRow("column both categorical and ignored")
        << QByteArray("a,y\n1,no\n") << both << 0 << 0 << "column 'a' is both categorical and ignored";
}

void TestCsvMalformed::malformed() {
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
        const QString prefix = line == 0     ? QString("test.csv: ")
                               : column == 0 ? QString("test.csv:%1: ").arg(line)
                                             : QString("test.csv:%1:%2: ").arg(line).arg(column);
        QVERIFY2(QString(e.what()).startsWith(prefix), e.what());
    }
}

void TestCsvMalformed::realFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<CsvOptions>("options");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("features");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("classes");
    QTest::addColumn<QVector<int>>("counts");

    QTest::newRow("iris") << "iris/iris.csv" << opts() << 150 << 4 << "multiclass" << QStringList{"0", "1", "2"}
                          << QVector<int>{50, 50, 50};
    QTest::newRow("penguins, drop rows") << "penguins/penguins.csv" << opts("species") << 333 << 10 << "multiclass"
                                         << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{146, 68, 119};
    CsvOptions noSex = opts("species");
    noSex.ignoredColumns = {"sex"};
    QTest::newRow("penguins without sex") << "penguins/penguins.csv" << noSex << 342 << 8 << "multiclass"
                                          << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{151, 68, 123};
    CsvOptions penguinsImputed = opts("species");
    penguinsImputed.missing = MissingPolicy::ImputeMean;
    QTest::newRow("penguins, imputed") << "penguins/penguins.csv" << penguinsImputed << 344 << 10 << "multiclass"
                                       << QStringList{"Adelie", "Chinstrap", "Gentoo"} << QVector<int>{152, 68, 124};
    QTest::newRow("breast cancer") << "breast_cancer_wdbc/breast_cancer_wdbc.csv" << opts() << 569 << 30 << "binary"
                                   << QStringList{"0", "1"} << QVector<int>{212, 357};
    QTest::newRow("diabetes") << "diabetes/diabetes.csv" << opts("target") << 442 << 10 << "regression" << QStringList{}
                              << QVector<int>{};
    QTest::newRow("adult train, drop rows") << "adult/adult_train.csv" << opts("income") << 30162 << 105 << "binary"
                                            << QStringList{"<=50K", ">50K"} << QVector<int>{22654, 7508};
    CsvOptions adultImputed = opts("income");
    adultImputed.missing = MissingPolicy::ImputeMostFrequent;
    QTest::newRow("adult train, imputed") << "adult/adult_train.csv" << adultImputed << 32561 << 105 << "binary"
                                          << QStringList{"<=50K", ">50K"} << QVector<int>{24720, 7841};
}

void TestCsvMalformed::realFiles() {
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
        QCOMPARE(d.targets.values->minCoeff(), 25.0);
        QCOMPARE(d.targets.values->maxCoeff(), 346.0);
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

QTEST_APPLESS_MAIN(TestCsvMalformed)
#include "test_csv_malformed.moc"
