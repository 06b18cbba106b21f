// CSV loader: every accepted variant with exact values, every malformed input with its line,
// column and message. (The real files of ../shared/datasets are checked against their READMEs
// in test_csv_malformed.cpp, which skips when they are absent.)

#include "tests/core/csv_test_helpers.h"

using namespace elab::core;
using namespace elab::test::csv;

class TestCsvLoader : public QObject {
    Q_OBJECT

private slots:
    void validVariants_data();
    void validVariants();
    void missingValues_data();
    void missingValues();
    void targets_data();
    void targets();
    void columnInfo();
    void sparseChoice();
    void logSteps();
    void progressAndCancel();
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
    QTest::newRow("doubled quotes") << QByteArray("a,c,y\n1,\"say \"\"hi\"\"\",no\n2,r,yes\n") << opts()
                                    << QStringList{"a", "c=r", "c=say \"hi\""} << QVector<double>{1, 0, 1, 2, 1, 0}
                                    << noYes;
    QTest::newRow("embedded newline") << QByteArray("a,c,y\n1,\"two\nlines\",no\n2,r,yes\n") << opts()
                                      << QStringList{"a", "c=r", "c=two\nlines"} << QVector<double>{1, 0, 1, 2, 1, 0}
                                      << noYes;
    QTest::newRow("blanks around a quoted field")
        << QByteArray("a,c,y\n1,\"p\" ,no\n2, \"q\",yes\n") << opts() << QStringList{"a", "c=p", "c=q"}
        << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("CRLF") << QByteArray("a,b,y\r\n1,2,no\r\n3,4,yes\r\n") << opts() << ab << v1234 << noYes;
    QTest::newRow("lone CR") << QByteArray("a,b,y\r1,2,no\r3,4,yes") << opts() << ab << v1234 << noYes;
    QTest::newRow("UTF-8 BOM") << QByteArray("\xEF\xBB\xBF"
                                             "a,b,y\n1,2,no\n3,4,yes\n")
                               << opts() << ab << v1234 << noYes;
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
        << QByteArray("a,b,y\n+3,1e-400,no\n-.5,1.5e300,yes\n") << opts() << ab << QVector<double>{3, 0, -0.5, 1.5e300}
        << noYes;
    QTest::newRow("quote inside an unquoted field is literal")
        << QByteArray("h,c,y\n1,5'10\",no\n2,6'1\",yes\n") << opts() << QStringList{"h", "c=5'10\"", "c=6'1\""}
        << QVector<double>{1, 1, 0, 2, 0, 1} << noYes;
    QTest::newRow("empty header name auto-named")
        << QByteArray(",b,y\n1,2,no\n3,4,yes\n") << opts() << QStringList{"column_1", "b"} << v1234 << noYes;
    QTest::newRow("levels in numeric-aware order (forced categorical)")
        << QByteArray("zip,y\n10,no\n2,yes\n1,no\n") << categorical({"zip"}) << QStringList{"zip=1", "zip=2", "zip=10"}
        << QVector<double>{0, 0, 1, 0, 1, 0, 1, 0, 0} << QVector<double>{-1, 1, -1};
    QTest::newRow("text levels in natural order")
        << QByteArray("c,y\nitem10,no\nitem2,yes\nItem1,no\n") << opts()
        << QStringList{"c=Item1", "c=item2", "c=item10"} << QVector<double>{0, 0, 1, 0, 1, 0, 1, 0, 0}
        << QVector<double>{-1, 1, -1};
    QTest::newRow("mostly text column with numbers is categorical")
        << QByteArray("m,y\n1,no\nx,yes\n2,no\nw,yes\n") << opts() << QStringList{"m=1", "m=2", "m=w", "m=x"}
        << QVector<double>{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0} << QVector<double>{-1, 1, -1, 1};
    QTest::newRow("ignored column left out") << QByteArray("id,a,y\nfoo,1,no\nbar,2,yes\n") << ignored({"id"})
                                             << QStringList{"a"} << QVector<double>{1, 2} << noYes;
    QTest::newRow("missing cells in an ignored column keep the row")
        << QByteArray("id,a,y\n?,1,no\n,2,yes\n") << ignored({"id"}) << QStringList{"a"} << QVector<double>{1, 2}
        << noYes;
    QTest::newRow("label listed as categorical stays the label")
        << QByteArray("a,y\n1,no\n2,yes\n") << categorical({"y"}) << QStringList{"a"} << QVector<double>{1, 2} << noYes;
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
    QTest::addColumn<QStringList>("steps");    // log step names after "loaded" (one-hot, schema)
    QTest::addColumn<QVector<int>>("leaks");

    // Row 2 has a missing x; features x, c=a, c=b.
    const auto marker = [](const char* m) { return QByteArray("x,c,y\n1,a,no\n") + m + ",b,yes\n3,a,no\n5,b,yes\n"; };
    const QVector<double> kept{1, 1, 0, 3, 1, 0, 5, 0, 1};
    const QVector<double> keptTargets{-1, -1, 1};
    for (const char* m : {"", "?", "NA", "NaN", "nan", " NA ", "\"\"", "\" ? \""})
        QTest::newRow(qPrintable(QString("marker [%1]").arg(m)))
            << marker(m) << opts() << kept << keptTargets << QVector<int>{1, 0, 0} << QStringList{"drop rows"}
            << QVector<int>{0};

    // x missing in rows 2 and 5, c in row 3, the label in row 5. Kept x: 1 3 8 3, c: a b a a.
    const QByteArray mixed("x,c,y\n1,a,no\n?,b,yes\n3,?,no\n8,a,yes\n?,a,?\n3,a,no\n");
    QTest::newRow("drop rows (default)") << mixed << opts() << QVector<double>{1, 1, 0, 8, 1, 0, 3, 1, 0}
                                         << QVector<double>{-1, 1, -1} << QVector<int>{2, 1, 1}
                                         << QStringList{"drop rows", "drop rows"} << QVector<int>{0, 0};
    QTest::newRow("impute mean") << mixed << withPolicy(MissingPolicy::ImputeMean)
                                 << QVector<double>{1, 1, 0, 3.75, 0, 1, 3, 1, 0, 8, 1, 0, 3, 1, 0}
                                 << QVector<double>{-1, 1, -1, 1, -1} << QVector<int>{2, 1, 1}
                                 << QStringList{"drop rows", "impute (mean)"} << QVector<int>{0, 1};
    QTest::newRow("impute most frequent")
        << mixed << withPolicy(MissingPolicy::ImputeMostFrequent)
        << QVector<double>{1, 1, 0, 3, 0, 1, 3, 1, 0, 8, 1, 0, 3, 1, 0} << QVector<double>{-1, 1, -1, 1, -1}
        << QVector<int>{2, 1, 1} << QStringList{"drop rows", "impute (most frequent)"} << QVector<int>{0, 1};
    QTest::newRow("mean of huge values does not overflow")
        << QByteArray("x,y\n1e308,no\n1.5e308,yes\n?,no\n") << withPolicy(MissingPolicy::ImputeMean)
        << QVector<double>{1e308, 1.5e308, 1e308 / 2 + 1.5e308 / 2} << QVector<double>{-1, 1, -1} << QVector<int>{1, 0}
        << QStringList{"impute (mean)"} << QVector<int>{1};
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
        if (s.name != "loaded" && s.name != "one-hot encode" && s.name != "schema") {
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

    QTest::newRow("text labels: binary, sorted")
        << QByteArray("yes\nno\nyes\n") << opts() << "binary" << QStringList{"no", "yes"} << QVector<double>{1, -1, 1};
    QTest::newRow("adult labels: >50K positive")
        << QByteArray(">50K\n<=50K\n") << opts() << "binary" << QStringList{"<=50K", ">50K"} << QVector<double>{1, -1};
    QTest::newRow("labels -1 and +1") << QByteArray("+1\n-1\n+1\n") << opts() << "binary" << QStringList{"-1", "1"}
                                      << QVector<double>{1, -1, 1};
    QTest::newRow("labels 0 and 1") << QByteArray("1\n0\n") << opts() << "binary" << QStringList{"0", "1"}
                                    << QVector<double>{1, -1};
    QTest::newRow("integer classes, numeric-aware") << QByteArray("10\n2\n1\n2\n") << opts() << "multiclass"
                                                    << QStringList{"1", "2", "10"} << QVector<double>{2, 1, 0, 1};
    QTest::newRow("1.0 and 1 are one class")
        << QByteArray("1.0\n2\n1\n") << opts() << "binary" << QStringList{"1", "2"} << QVector<double>{-1, 1, -1};
    QTest::newRow("text classes in natural order")
        << QByteArray("class10\nclass2\nclass1\n") << opts() << "multiclass"
        << QStringList{"class1", "class2", "class10"} << QVector<double>{2, 1, 0};
    QTest::newRow("mostly text labels with a number")
        << QByteArray("b\n7\na\n") << opts() << "multiclass" << QStringList{"7", "a", "b"} << QVector<double>{2, 0, 1};
    QTest::newRow("non-integer labels: regression")
        << QByteArray("1.5\n2\n-3.25\n") << opts() << "regression" << QStringList{} << QVector<double>{1.5, 2, -3.25};
    CsvOptions fewClasses;
    fewClasses.maxIntegerClasses = 2;
    QTest::newRow("more integers than maxIntegerClasses: regression")
        << QByteArray("1\n2\n3\n") << fewClasses << "regression" << QStringList{} << QVector<double>{1, 2, 3};
    QTest::newRow("forced regression on integers") << QByteArray("0\n1\n") << withTask(TaskKind::Regression)
                                                   << "regression" << QStringList{} << QVector<double>{0, 1};
    QTest::newRow("forced multiclass with two classes")
        << QByteArray("b\na\n") << withTask(TaskKind::Multiclass) << "multiclass" << QStringList{"a", "b"}
        << QVector<double>{1, 0};
    QTest::newRow("forced binary on text") << QByteArray("b\na\n") << withTask(TaskKind::Binary) << "binary"
                                           << QStringList{"a", "b"} << QVector<double>{1, -1};
    QTest::newRow("forced classification of decimals")
        << QByteArray("1.5\n0.5\n1.5\n") << withTask(TaskKind::Multiclass) << "multiclass" << QStringList{"0.5", "1.5"}
        << QVector<double>{1, 0, 1};
    QTest::newRow("many integer classes when forced") << QByteArray("1\n2\n3\n4\n") <<
        [] {
            CsvOptions o = withTask(TaskKind::Multiclass);
            o.maxIntegerClasses = 2;
            return o;
        }() << "multiclass" << QStringList{"1", "2", "3", "4"}
                                                      << QVector<double>{0, 1, 2, 3};
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
    if (d.targets.kind == TaskKind::Binary)
        for (Index i = 0; i < d.rows(); ++i)
            QCOMPARE(d.targets.classIndex[i] == 1 ? 1.0 : -1.0, d.targets.values[i]);
    if (d.targets.kind == TaskKind::Multiclass)
        QCOMPARE(d.targets.values.size(), Index(0)); // the class indices only, no copy as doubles
    QCOMPARE(QString::fromStdString(d.validate()), QString());
}

void TestCsvLoader::columnInfo() {
    const Dataset d = load("id,n,c,y\nr1,1.5,b,no\nr2,?,a,yes\nr3,2,?,no\nr4,3,a,yes\n", [] {
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

QTEST_APPLESS_MAIN(TestCsvLoader)
#include "test_csv_loader.moc"
