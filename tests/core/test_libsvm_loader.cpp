// LIBSVM / SVMlight loader (core/data/libsvm_loader.h): every accepted variant with exact
// matrix and target contents, every malformed input with its line, column and message,
// and the real a9a and 20 Newsgroups files of ../shared/datasets.

#include "core/data/libsvm_loader.h"
#include "core/data/load_error.h"

#include "tests/support/test_support.h"
#include <QElapsedTimer>

#include <QtTest>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <stop_token>
#include <string>
#include <vector>

using namespace elab::core;

namespace {

constexpr int kNoTask = -1;

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string sharedPath(const char* relative) { return std::string(EPSILONLAB_SHARED_DIR) + "/datasets/" + relative; }

LibsvmOptions makeOptions(int featureCount, int task) {
    LibsvmOptions options;
    options.featureCount = featureCount;
    if (task != kNoTask)
        options.task = static_cast<TaskKind>(task);
    return options;
}

std::string toStd(const QByteArray& bytes) { return std::string(bytes.constData(), std::size_t(bytes.size())); }

QList<double> toList(const Eigen::VectorXd& v) { return QList<double>(v.data(), v.data() + v.size()); }
QList<int> toList(const Eigen::VectorXi& v) { return QList<int>(v.data(), v.data() + v.size()); }

QStringList toList(const std::vector<std::string>& names) {
    QStringList out;
    for (const auto& n : names)
        out << QString::fromStdString(n);
    return out;
}

} // namespace

class TestLibsvmLoader : public QObject {
    Q_OBJECT
private slots:
    void valid_data();
    void valid();
    void malformed_data();
    void malformed();
    void randomRoundTrip();
    void progressAndCancel();
    void storageTrimmed();
    void a9a_data();
    void a9a();
    void newsgroupsPair_data();
    void newsgroupsPair();
};

void TestLibsvmLoader::valid_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("featureCount");
    QTest::addColumn<int>("task");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("classNames");
    QTest::addColumn<QList<int>>("classIndex");
    QTest::addColumn<QList<double>>("targets");
    QTest::addColumn<int>("cols");
    QTest::addColumn<QList<double>>("dense"); // row-major
    QTest::addColumn<int>("nonZeros");

    const int B = int(TaskKind::Binary), M = int(TaskKind::Multiclass), R = int(TaskKind::Regression);
    using I = QList<int>;
    using D = QList<double>;
    const QStringList pm{"-1", "+1"}, none;
    // Row name, text, kind, class names, class indices, target values, width, dense
    // row-major matrix, stored entries, options.
    const auto good = [](const char* name, const char* text, int kind, const QStringList& names, const I& classIndex,
                         const D& targets, int cols, const D& dense, int nonZeros, int featureCount = 0,
                         int task = kNoTask) {
        QTest::newRow(name) << QByteArray(text) << featureCount << task << kind << names << classIndex << targets
                            << cols << dense << nonZeros;
    };
    good("binary +1/-1", "+1 1:0.5 3:2\n-1 2:1\n", B, pm, I{1, 0}, D{1, -1}, 3, D{0.5, 0, 2, 0, 1, 0}, 3);
    good("binary 1/-1 without plus", "1 1:1\n-1 2:1\n-1 1:3", B, pm, I{1, 0, 0}, D{1, -1, -1}, 2, D{1, 0, 0, 1, 3, 0},
         3);
    good("binary 0/1", "0 1:1\n1 2:1\n1 1:2\n", B, {"0", "1"}, I{0, 1, 1}, D{-1, 1, 1}, 2, D{1, 0, 0, 1, 2, 0}, 3);
    good("binary written as reals 1.0/-1.0", "1.0 1:1\n-1.0 1:2\n", B, pm, I{1, 0}, D{1, -1}, 1, D{1, 2}, 2);
    good("two other integers are binary, larger positive", "4 1:1\n2 1:2\n", B, {"2", "4"}, I{1, 0}, D{1, -1}, 1,
         D{1, 2}, 2);
    good("multiclass 1..3", "3 1:1\n1 2:1\n2 1:4\n", M, {"1", "2", "3"}, I{2, 0, 1}, D{2, 0, 1}, 2, D{1, 0, 0, 1, 4, 0},
         3);
    good("multiclass sorted numerically, not as text", "10 1:1\n-2 1:1\n9 1:1\n", M, {"-2", "9", "10"}, I{2, 0, 1},
         D{2, 0, 1}, 1, D{1, 1, 1}, 3);
    good("regression", "1.5 1:1\n-0.25 2:1\n3 1:2 2:2\n", R, none, I{}, D{1.5, -0.25, 3}, 2, D{1, 0, 0, 1, 2, 2}, 4);
    good("comments and blank lines", "# header\n\n+1 1:1 # trailing 7:7\n   \n-1 2:1\n#end", B, pm, I{1, 0}, D{1, -1},
         2, D{1, 0, 0, 1}, 2);
    good("tabs and runs of spaces", "+1\t1:1  \t 3:2\t\n  -1   2:1   ", B, pm, I{1, 0}, D{1, -1}, 3,
         D{1, 0, 2, 0, 1, 0}, 3);
    good("CRLF line ends", "+1 1:1\r\n-1 2:1\r\n\r\n", B, pm, I{1, 0}, D{1, -1}, 2, D{1, 0, 0, 1}, 2);
    good("UTF-8 BOM", "\xEF\xBB\xBF+1 1:1\n-1 2:1\n", B, pm, I{1, 0}, D{1, -1}, 2, D{1, 0, 0, 1}, 2);
    good("qid ignored", "+1 qid:3 1:1\n-1 qid:17 2:1\n", B, pm, I{1, 0}, D{1, -1}, 2, D{1, 0, 0, 1}, 2);
    good("feature count given, wider than data", "+1 1:1\n-1 2:1\n", B, pm, I{1, 0}, D{1, -1}, 4,
         D{1, 0, 0, 0, 0, 1, 0, 0}, 2, 4);
    good("label-only line is an all-zero row", "+1\n-1 2:1\n", B, pm, I{1, 0}, D{1, -1}, 2, D{0, 0, 0, 1}, 1);
    good("explicit zero not stored but sets the width", "+1 1:1 5:0\n-1 2:1\n", B, pm, I{1, 0}, D{1, -1}, 5,
         D{1, 0, 0, 0, 0, 0, 1, 0, 0, 0}, 2);
    good("number syntax: exponents, signs, leading dot", "+1 1:1e-3 2:-2.5E+2 3:+4 4:.5 5:7.\n-1 1:1\n", B, pm, I{1, 0},
         D{1, -1}, 5, D{1e-3, -250, 4, 0.5, 7, 1, 0, 0, 0, 0}, 6);
    good("underflow reads as zero", "+1 1:1e-400 2:1\n-1 1:-0.0000001e-999\n", B, pm, I{1, 0}, D{1, -1}, 2,
         D{0, 1, 0, 0}, 1);
    good("forced multiclass keeps two classes multiclass", "+1 1:1\n-1 1:2\n", M, pm, I{1, 0}, D{1, 0}, 1, D{1, 2}, 2,
         0, M);
    good("forced regression on +1/-1", "+1 1:1\n-1 1:2\n", R, none, I{}, D{1, -1}, 1, D{1, 2}, 2, 0, R);
    good("forced regression on a single label", "5 1:1\n5 1:2\n", R, none, I{}, D{5, 5}, 1, D{1, 2}, 2, 0, R);
    good("forced binary on 0/1", "0 1:1\n1 1:2\n", B, {"0", "1"}, I{0, 1}, D{-1, 1}, 1, D{1, 2}, 2, 0, B);
}

void TestLibsvmLoader::valid() {
    QFETCH(QByteArray, text);
    QFETCH(int, featureCount);
    QFETCH(int, task);
    QFETCH(int, kind);
    QFETCH(QStringList, classNames);
    QFETCH(QList<int>, classIndex);
    QFETCH(QList<double>, targets);
    QFETCH(int, cols);
    QFETCH(QList<double>, dense);
    QFETCH(int, nonZeros);

    const Dataset data = loadLibsvm(toStd(text), "dir/test.libsvm", makeOptions(featureCount, task));
    QCOMPARE(QString::fromStdString(data.validate()), QString());
    const Index rows = Index(targets.size());
    QCOMPARE(data.rows(), rows);
    QCOMPARE(data.featureCount(), Index(cols));
    QVERIFY(data.features.isSparse() && data.features.sparse().isCompressed());
    QCOMPARE(Index(data.features.sparse().nonZeros()), Index(nonZeros));
    QCOMPARE(int(data.targets.kind), kind);
    QCOMPARE(toList(data.targets.classNames), classNames);
    QCOMPARE(toList(data.targets.classIndex), classIndex);
    QCOMPARE(toList(data.targets.kind == TaskKind::Multiclass ? data.targets.classIndex->cast<double>().eval()
                                                              : data.targets.values.get()),
             targets);

    const DenseMatrix x = DenseMatrix(data.features.sparse());
    QList<double> actual;
    for (Index i = 0; i < x.rows(); ++i)
        for (Index j = 0; j < x.cols(); ++j)
            actual << x(i, j);
    QCOMPARE(actual, dense); // exact: every value is a short decimal that parses exactly

    QVERIFY(data.featureNames.empty()); // implicit names, not stored
    QCOMPARE(data.featureName(0), std::string("f1"));
    QCOMPARE(QString::fromStdString(data.featureName(cols - 1)), QString("f%1").arg(cols));
    QVERIFY(data.columns.empty());
    QCOMPARE(data.provenance.format, std::string("libsvm"));
    QCOMPARE(data.provenance.path, std::string("dir/test.libsvm"));
    QCOMPARE(data.name, std::string("test.libsvm"));
    QCOMPARE(data.log.size(), std::size_t(2)); // loaded, then where the width and classes came from
    QCOMPARE(data.log[0].name, std::string("loaded"));
    QCOMPARE(data.log[1].name, std::string("schema"));
    const QString detail = QString::fromStdString(data.log[0].detail);
    QVERIFY2(detail.contains(QString("%1 rows, %2 features, %3 non-zeros").arg(rows).arg(cols).arg(nonZeros)),
             qPrintable(detail));
    QVERIFY2(detail.contains(toString(TaskKind(kind))), qPrintable(detail));
}

void TestLibsvmLoader::malformed_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("featureCount");
    QTest::addColumn<int>("task");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("messagePart");

    const int B = int(TaskKind::Binary), M = int(TaskKind::Multiclass);
    // Row name, text, expected line and column (0: not applicable), message part, options.
    const auto bad = [](const char* name, const char* text, int line, int column, const char* part,
                        int featureCount = 0, int task = kNoTask) {
        QTest::newRow(name) << QByteArray(text) << featureCount << task << line << column << QString(part);
    };
    bad("index 0", "+1 0:1\n", 1, 4, "feature index 0: indices start at 1");
    bad("decreasing index", "+1 1:1\n-1 3:1 2:1\n", 2, 8,
        "feature index 2 after 3: indices must be strictly ascending");
    bad("repeated index", "-1 3:1 3:2\n+1 1:1", 1, 8, "feature index 3 repeated");
    bad("missing colon", "+1 1:1 5\n", 1, 8, "expected <index>:<value>, found '5'");
    bad("non-numeric index", "+1 a:1", 1, 4, "bad feature index 'a'");
    bad("negative index", "+1 -2:1", 1, 4, "bad feature index '-2'");
    bad("empty index", "+1 :1", 1, 4, "missing feature index");
    bad("non-numeric value", "+1 1:abc", 1, 6, "value 'abc' for feature 1 is not a number");
    bad("missing value", "+1 2:", 1, 6, "missing value for feature 2");
    bad("value with trailing text", "+1 1:1.5x", 1, 6, "value '1.5x' for feature 1 is not a number");
    bad("decimal comma", "+1 1:1,5", 1, 6, "value '1,5' for feature 1 is not a number");
    bad("inf value", "+1 1:1\n-1 1:inf", 2, 6, "value 'inf' for feature 1 is not finite");
    bad("-inf value", "-1 4:-inf", 1, 6, "value '-inf' for feature 4 is not finite");
    bad("NaN value", "+1 1:1 2:NaN", 1, 10, "value 'NaN' for feature 2 is not finite");
    bad("value overflow 1e999", "+1 1:1e999", 1, 6, "value '1e999' for feature 1 is out of range");
    bad("non-numeric label", "+1 1:1\nabc 1:1", 2, 1, "label 'abc' is not a number");
    bad("double sign label", "+-1 1:1", 1, 1, "label '+-1' is not a number");
    bad("NaN label", "nan 1:1", 1, 1, "label 'nan' is not finite");
    bad("inf label", "  -inf 1:1", 1, 3, "label '-inf' is not finite");
    bad("label overflow", "1e999 1:1", 1, 1, "label '1e999' is out of range");
    bad("line starts with a feature", "+1 1:1\n1:1 2:1", 2, 1, "expected a label before the features, found '1:1'");
    bad("bad qid", "+1 qid:x 1:1", 1, 8, "bad qid 'x'");
    bad("control byte shown escaped", "+1 1:\x01", 1, 6, "value '\\x01' for feature 1 is not a number");
    bad("empty file", "", 0, 0, "empty file");
    bad("only comments and blanks", "# x\n\n  \t\n# y 1:1\r\n", 0, 0, "no data: only blank lines and comments");
    bad("labels but no features", "+1\n-1\n", 0, 0, "no features");
    bad("single class", "+1 1:1\n+1 2:1\n", 0, 0, "all 2 rows have label 1: classification needs at least two classes");
    bad("single class, forced multiclass", "3 1:1\n3 2:1\n", 0, 0, "at least two classes", 0, M);
    bad("feature count exceeded", "+1 1:1\n-1 2:1 4:1", 2, 8, "feature index 4 exceeds the feature count 3", 3);
    bad("index over the supported maximum", "+1 16777217:1", 1, 4, "exceeds the supported maximum of 16777216");
    bad("index overflowing 64 bits", "+1 99999999999999999999999:1", 1, 4, "exceeds the supported maximum");
    bad("forced binary on three classes", "1 1:1\n2 1:1\n3 1:1\n", 0, 0,
        "forced to binary, but the labels have 3 classes", 0, B);
    bad("forced multiclass on a real label", "1 1:1\n2.5 1:1\n", 2, 1, "label '2.5' is not an integer class", 0, M);
    bad("invalid options: negative feature count", "+1 1:1\n-1 1:2", 0, 0, "invalid options: feature count", -1);
    bad("invalid options: feature count too large", "+1 1:1\n-1 1:2", 0, 0, "invalid options: feature count", 1 << 25);
    bad("CRLF file, error on line 2", "+1 1:1\r\n-1 1:1 1:2\r\n", 2, 8, "feature index 1 repeated");
    bad("tabs count as one column", "+1\t\t0:1", 1, 5, "indices start at 1");
    bad("comment and blank lines keep numbering", "# c\n\n+1 1:1 0:1", 3, 8, "indices start at 1");
}

void TestLibsvmLoader::malformed() {
    QFETCH(QByteArray, text);
    QFETCH(int, featureCount);
    QFETCH(int, task);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, messagePart);
    try {
        loadLibsvm(toStd(text), "bad.libsvm", makeOptions(featureCount, task));
        QFAIL("no LoadError thrown");
    } catch (const LoadError& e) {
        QCOMPARE(e.source(), std::string("bad.libsvm"));
        QCOMPARE(int(e.line()), line);
        QCOMPARE(int(e.column()), column);
        QVERIFY2(QString::fromStdString(e.message()).contains(messagePart), e.what());
        const QString prefix =
            line == 0 ? QString("bad.libsvm: ") : QString("bad.libsvm:%1:%2: ").arg(line).arg(column);
        QVERIFY2(QString(e.what()).startsWith(prefix), e.what());
    }
}

void TestLibsvmLoader::randomRoundTrip() {
    // A seeded random sparse matrix written with full precision reads back bit for bit.
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> value(-1e3, 1e3);
    std::bernoulli_distribution present(0.1), positive(0.4);
    const Index rows = 500, cols = 300;
    DenseMatrix expected = DenseMatrix::Zero(rows, cols);
    std::vector<int> labels;
    std::string text;
    char buf[64];
    for (Index i = 0; i < rows; ++i) {
        labels.push_back(positive(rng) ? 1 : -1);
        text += labels.back() > 0 ? "+1" : "-1";
        for (Index j = 0; j < cols; ++j) {
            if (!present(rng) && !(i == 0 && j == cols - 1))
                continue;
            expected(i, j) = value(rng);
            std::snprintf(buf, sizeof buf, " %lld:%.17g", static_cast<long long>(j + 1), expected(i, j));
            text += buf;
        }
        text += i % 7 == 0 ? " # note\n" : "\n";
    }
    const Dataset data = loadLibsvm(text, "random.libsvm", {});
    QCOMPARE(data.rows(), rows);
    QCOMPARE(data.featureCount(), cols);
    QVERIFY(DenseMatrix(data.features.sparse()) == expected);
    for (Index i = 0; i < rows; ++i)
        QCOMPARE(data.targets.values[i], double(labels[std::size_t(i)]));
}

void TestLibsvmLoader::progressAndCancel() {
    std::string text;
    for (int i = 0; i < 50000; ++i)
        text += (i % 2 ? "+1 1:" : "-1 2:") + std::to_string(i + 1) + " 7:0.5\n";
    std::vector<double> fractions;
    RunContext ctx(std::stop_token{}, [&](double f, std::string_view) { fractions.push_back(f); });
    const Dataset data = loadLibsvm(text, "big.libsvm", {}, &ctx);
    QCOMPARE(data.rows(), Index(50000));
    QVERIFY2(fractions.size() >= 5, qPrintable(QString::number(fractions.size())));
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    QCOMPARE(fractions.back(), 1.0);

    std::stop_source stop;
    stop.request_stop();
    RunContext cancelled(stop.get_token(), {});
    QVERIFY_THROWS_EXCEPTION(Cancelled, loadLibsvm(text, "big.libsvm", {}, &cancelled));
}

void TestLibsvmLoader::storageTrimmed() {
    // 6,000 explicit zeros reserve room for 6,000 entries; only the one stored may stay.
    std::string text = "+1";
    for (int k = 1; k <= 6000; ++k)
        text.append(" ").append(std::to_string(k)).append(":0");
    const Dataset data = loadLibsvm(text + "\n-1 3:2 # a:b:c\n", "zeros.libsvm", {});
    const SparseMatrix& x = data.features.sparse();
    QCOMPARE(data.featureCount(), Index(6000));
    QCOMPARE(Index(x.nonZeros()), Index(1));
    QCOMPARE(x.coeff(1, 2), 2.0);
    QVERIFY2(x.data().allocatedSize() <= 16, qPrintable(QString::number(x.data().allocatedSize())));
}

void TestLibsvmLoader::a9a_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("featureCount");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("negatives");
    QTest::addColumn<int>("positives");
    // ../shared/datasets/adult/README.md: 123 binary features; one train row uses 123,
    // "in a9a.t, index 123 never occurs" (so its width from the data alone is 122).
    QTest::newRow("a9a train") << "adult/a9a_train.libsvm" << 0 << 32561 << 123 << 24720 << 7841;
    QTest::newRow("a9a test, width from data") << "adult/a9a_test.libsvm" << 0 << 16281 << 122 << 12435 << 3846;
    QTest::newRow("a9a test, 123 given") << "adult/a9a_test.libsvm" << 123 << 16281 << 123 << 12435 << 3846;
}

void TestLibsvmLoader::a9a() {
    QFETCH(QString, file);
    QFETCH(int, featureCount);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(int, negatives);
    QFETCH(int, positives);
    ELAB_REQUIRE_SHARED_DATASETS();
    const std::string text = readFile(sharedPath(qPrintable(file)));
    QVERIFY(!text.empty());
    QElapsedTimer timer;
    timer.start();
    const Dataset data = loadLibsvm(text, file.toStdString(), makeOptions(featureCount, kNoTask));
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    qInfo("%s: %d rows loaded in %.1f ms", qPrintable(file), rows, ms);

    QCOMPARE(data.rows(), Index(rows));
    QCOMPARE(data.featureCount(), Index(cols));
    QCOMPARE(data.targets.kind, TaskKind::Binary);
    QCOMPARE(toList(data.targets.classNames), (QStringList{"-1", "+1"}));
    QCOMPARE(data.targets.classCounts(), (std::vector<Index>{negatives, positives}));
    const SparseMatrix& x = data.features.sparse();
    // Every a9a value is 1, one per token: stored entries = tokens − labels (awk count).
    QCOMPARE(x.sum(), double(x.nonZeros()));
    if (rows == 32561) {
        QCOMPARE(Index(x.nonZeros()), Index(451592));
        // First line: "-1 3:1 11:1 14:1 19:1 39:1 42:1 55:1 64:1 67:1 73:1 75:1 76:1 80:1 83:1".
        std::vector<int> first;
        for (SparseMatrix::InnerIterator it(x, 0); it; ++it)
            first.push_back(int(it.col()) + 1);
        QCOMPARE(first, (std::vector<int>{3, 11, 14, 19, 39, 42, 55, 64, 67, 73, 75, 76, 80, 83}));
        QCOMPARE(data.targets.values[0], -1.0);
        // Exactly one row uses feature 123 (README).
        QCOMPARE(DenseMatrix(x).col(122).sum(), 1.0);
    }
}

void TestLibsvmLoader::newsgroupsPair_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("negatives");
    QTest::addColumn<int>("positives");
    // ../shared/datasets/20newsgroups/README.md: width = the vocabulary's 18,089 lines.
    QTest::newRow("atheism vs religion, train")
        << "alt.atheism_vs_talk.religion.misc.train.libsvm" << 857 << 377 << 480;
    QTest::newRow("atheism vs religion, test") << "alt.atheism_vs_talk.religion.misc.test.libsvm" << 570 << 251 << 319;
}

void TestLibsvmLoader::newsgroupsPair() {
    QFETCH(QString, file);
    QFETCH(int, rows);
    QFETCH(int, negatives);
    QFETCH(int, positives);
    ELAB_REQUIRE_SHARED_DATASETS();
    const std::string text = readFile(sharedPath(qPrintable("20newsgroups/" + file)));
    QVERIFY(!text.empty());
    const Dataset data = loadLibsvm(text, file.toStdString(), makeOptions(18089, kNoTask));
    QCOMPARE(data.rows(), Index(rows));
    QCOMPARE(data.featureCount(), Index(18089));
    QCOMPARE(data.targets.classCounts(), (std::vector<Index>{negatives, positives}));
    // Values are term counts: positive integers.
    const SparseMatrix& x = data.features.sparse();
    const auto counts = Eigen::Map<const Eigen::ArrayXd>(x.valuePtr(), x.nonZeros());
    QVERIFY(x.nonZeros() > 1000);
    QVERIFY((counts >= 1).all() && (counts == counts.floor()).all());
}

QTEST_APPLESS_MAIN(TestLibsvmLoader)
#include "test_libsvm_loader.moc"
