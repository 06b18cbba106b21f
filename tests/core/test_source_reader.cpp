// Source reading (core/data/source_reader.h): gzip by magic bytes, concatenated members,
// corrupt and truncated streams, file errors, checksums of the stored bytes, and the real
// KDD Cup 99 archive.

#include "core/data/load_error.h"
#include "core/data/source_reader.h"
#include "core/util/sha256.h"
#include "tests/support/gzip_writer.h"

#include "tests/support/test_support.h"
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <stop_token>
#include <string>
#include <vector>

using namespace elab::core;

namespace {

using elab::test::gzipBytes;

// Deterministic payloads: text that compresses well, and bytes that do not.
std::string textPayload(std::size_t lines) {
    std::string s;
    for (std::size_t i = 0; i < lines; ++i)
        s += std::to_string(i) + ",3.25,tcp,http,SF," + std::to_string(i * 7919 % 1000) + "\n";
    return s;
}

std::string noisePayload(std::size_t n) {
    std::string s(n, '\0');
    std::uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (char& c : s) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        c = static_cast<char>(x & 0xff);
    }
    return s;
}

void writeFile(const QString& path, const std::string& bytes) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Runs f, which must throw LoadError; returns it.
template <typename F>
LoadError expectLoadError(F&& f) {
    try {
        f();
    } catch (const LoadError& e) {
        return e;
    }
    return LoadError("<none>", 0, 0, "no LoadError thrown");
}

} // namespace

class TestSourceReader : public QObject {
    Q_OBJECT
private slots:
    void isGzip_data();
    void isGzip();
    void roundTrip_data();
    void roundTrip();
    void concatenatedMembers();
    void trailingZerosIgnored();
    void badInput_data();
    void badInput();
    void cancelAndProgress();
    void readSourceFiles_data();
    void readSourceFiles();
    void readSourceErrors_data();
    void readSourceErrors();
    void sourceFromBytesNamesSource();
    void kddCup99();
};

void TestSourceReader::isGzip_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("expected");
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("first magic byte only") << QByteArray("\x1f") << false;
    QTest::newRow("magic") << QByteArray("\x1f\x8b") << true;
    QTest::newRow("magic + header") << QByteArray("\x1f\x8b\x08\x00", 4) << true;
    QTest::newRow("second byte wrong") << QByteArray("\x1f\x8c\x08") << false;
    QTest::newRow("CSV text") << QByteArray("a,b\n1,2\n") << false;
    QTest::newRow("zlib stream, not gzip") << QByteArray("\x78\x9c\x03\x00", 4) << false;
}

void TestSourceReader::isGzip() {
    QFETCH(QByteArray, bytes);
    QFETCH(bool, expected);
    QCOMPARE(elab::core::isGzip(std::string_view(bytes.constData(), bytes.size())), expected);
}

void TestSourceReader::roundTrip_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("level");
    QTest::newRow("empty payload") << 0 << 0 << int(Z_DEFAULT_COMPRESSION);
    QTest::newRow("one line") << 0 << 1 << int(Z_DEFAULT_COMPRESSION);
    QTest::newRow("text 200k lines (several 4 MiB slices)") << 0 << 200000 << 6;
    QTest::newRow("text, stored blocks (level 0)") << 0 << 5000 << 0;
    QTest::newRow("incompressible 300 kB") << 1 << 300000 << 9;
}

void TestSourceReader::roundTrip() {
    QFETCH(int, kind);
    QFETCH(int, size);
    QFETCH(int, level);
    const std::string payload =
        kind == 0 ? textPayload(static_cast<std::size_t>(size)) : noisePayload(static_cast<std::size_t>(size));
    const std::string gz = gzipBytes(payload, level);
    QVERIFY(elab::core::isGzip(gz));
    const std::string out = gunzip(gz, "mem.gz");
    QCOMPARE(out.size(), payload.size());
    QVERIFY(out == payload);
}

void TestSourceReader::concatenatedMembers() {
    // As `cat a.gz b.gz > c.gz` makes; the last member (whose ISIZE is the size hint) is
    // the smallest, so the output buffer has to grow.
    const std::string a = textPayload(50000);
    const std::string b = "second member\n";
    const std::string gz = gzipBytes(a) + gzipBytes(std::string()) + gzipBytes(b);
    const std::string out = gunzip(gz, "cat.gz");
    QCOMPARE(out.size(), a.size() + b.size());
    QVERIFY(out == a + b);
}

void TestSourceReader::trailingZerosIgnored() {
    const std::string gz = gzipBytes("x,y\n1,2\n") + std::string(512, '\0');
    QCOMPARE(QString::fromStdString(gunzip(gz, "padded.gz")), QStringLiteral("x,y\n1,2\n"));
}

void TestSourceReader::badInput_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("messagePart");
    const std::string gz = gzipBytes(textPayload(2000));
    const auto bytes = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
    const auto flipped = [&](std::size_t at) {
        std::string s = gz;
        s[at] = static_cast<char>(s[at] ^ 0x55);
        return bytes(s);
    };
    QTest::newRow("magic only") << QByteArray("\x1f\x8b") << "truncated";
    QTest::newRow("header only (10 bytes)") << bytes(gz.substr(0, 10)) << "truncated";
    QTest::newRow("cut in the middle") << bytes(gz.substr(0, gz.size() / 2)) << "truncated";
    QTest::newRow("trailer missing (8 bytes cut)") << bytes(gz.substr(0, gz.size() - 8)) << "truncated";
    QTest::newRow("last trailer byte missing") << bytes(gz.substr(0, gz.size() - 1)) << "truncated";
    QTest::newRow("unknown compression method") << flipped(2) << "unknown compression method";
    QTest::newRow("CRC-32 flipped") << flipped(gz.size() - 6) << "incorrect data check";
    QTest::newRow("ISIZE flipped") << flipped(gz.size() - 2) << "incorrect length check";
    QTest::newRow("deflate data flipped") << flipped(40) << "corrupt gzip data";
    QTest::newRow("trailing garbage") << bytes(gz + "garbage!") << "trailing garbage";
    QTest::newRow("second member truncated") << bytes(gz + gz.substr(0, 20)) << "inside member 2";
}

void TestSourceReader::badInput() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, messagePart);
    const LoadError e =
        expectLoadError([&] { gunzip(std::string_view(bytes.constData(), bytes.size()), "broken.csv.gz"); });
    QCOMPARE(QString::fromStdString(e.source()), QStringLiteral("broken.csv.gz"));
    QVERIFY2(QString::fromStdString(e.message()).contains(messagePart), e.what());
    QVERIFY2(QString(e.what()).startsWith("broken.csv.gz: "), e.what());
}

void TestSourceReader::cancelAndProgress() {
    const std::string gz = gzipBytes(textPayload(500000)); // ~19 MB out: several slices
    std::vector<double> fractions;
    std::stop_source stop;
    RunContext ctx(stop.get_token(), [&](double f, std::string_view stage) {
        QCOMPARE(QString::fromUtf8(stage.data(), qsizetype(stage.size())), QStringLiteral("decompressing"));
        fractions.push_back(f);
    });
    const std::string out = gunzip(gz, "big.gz", &ctx);
    QCOMPARE(out.size(), textPayload(500000).size());
    QVERIFY2(fractions.size() >= 3, qPrintable(QString::number(fractions.size())));
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    QVERIFY(fractions.front() > 0.0 && fractions.back() <= 1.0);

    // Stop requested before the call: the first check throws, no result.
    std::stop_source stopped;
    stopped.request_stop();
    RunContext cancelled(stopped.get_token(), {});
    QVERIFY_THROWS_EXCEPTION(Cancelled, gunzip(gz, "big.gz", &cancelled));
}

void TestSourceReader::readSourceFiles_data() {
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<bool>("compress");
    QTest::newRow("plain .csv") << "data.csv" << false;
    QTest::newRow("gzip .csv.gz") << "data.csv.gz" << true;
    QTest::newRow("gzip content, .csv name (magic wins)") << "named.csv" << true;
    QTest::newRow("plain content, .gz name (passthrough)") << "named.gz" << false;
    QTest::newRow("empty file") << "empty.csv" << false;
}

void TestSourceReader::readSourceFiles() {
    QFETCH(QString, fileName);
    QFETCH(bool, compress);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string text = fileName.startsWith("empty") ? std::string() : textPayload(3000);
    const std::string stored = compress ? gzipBytes(text) : text;
    const QString path = dir.filePath(fileName);
    writeFile(path, stored);

    const RawSource raw = readSource(path.toStdString());
    QCOMPARE(QString::fromStdString(raw.path), path);
    QCOMPARE(raw.gzipped, compress);
    QCOMPARE(raw.storedBytes, std::uintmax_t(stored.size()));
    QCOMPARE(raw.sha256, sha256Hex(stored));
    QCOMPARE(raw.text.size(), text.size());
    QVERIFY(raw.text == text);
}

void TestSourceReader::readSourceErrors_data() {
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("missing file") << "no-such-file.csv"
                                  << "cannot open: No such file or directory";
    QTest::newRow("directory") << "subdir"
                               << "cannot open: is a directory";
    QTest::newRow("missing parent directory") << "nowhere/x.csv"
                                              << "cannot open: No such file";
}

void TestSourceReader::readSourceErrors() {
    QFETCH(QString, relative);
    QFETCH(QString, messagePart);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("subdir"));
    const std::string path = dir.filePath(relative).toStdString();
    const LoadError e = expectLoadError([&] { readSource(path); });
    QCOMPARE(e.source(), path);
    QCOMPARE(e.line(), std::size_t(0));
    QVERIFY2(QString::fromStdString(e.message()).startsWith(messagePart), e.what());
    QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": cannot open"), e.what());
}

void TestSourceReader::sourceFromBytesNamesSource() {
    const std::string gz = gzipBytes("a,b\n1,2\n");
    const RawSource raw = sourceFromBytes(gz, "builtin:tiny");
    QCOMPARE(raw.path, std::string("builtin:tiny"));
    QVERIFY(raw.gzipped);
    QCOMPARE(raw.text, std::string("a,b\n1,2\n"));
    QCOMPARE(raw.sha256, sha256Hex(gz));
    QCOMPARE(raw.storedBytes, std::uintmax_t(gz.size()));

    const LoadError e = expectLoadError([&] { sourceFromBytes(gz.substr(0, 15), "builtin:tiny"); });
    QCOMPARE(e.source(), std::string("builtin:tiny"));
    QVERIFY2(QString::fromStdString(e.message()).contains("truncated"), e.what());
}

void TestSourceReader::kddCup99() {
    // ../shared/datasets/kddcup99/README.md: 494,021 rows + header, sha256 of the .gz.
    ELAB_REQUIRE_SHARED_DATASETS();
    const std::string path = std::string(EPSILONLAB_SHARED_DIR) + "/datasets/kddcup99/kddcup99_10percent.csv.gz";
    QElapsedTimer timer;
    timer.start();
    const RawSource raw = readSource(path);
    const qint64 ms = timer.elapsed();
    QVERIFY(raw.gzipped);
    QCOMPARE(raw.sha256, std::string("cf1a2151d2619597059e805fdc11526c34c90baf724ea3fee3c01a21c324e058"));
    QCOMPARE(raw.storedBytes, std::uintmax_t(std::filesystem::file_size(path)));
    QCOMPARE(std::count(raw.text.begin(), raw.text.end(), '\n'), std::ptrdiff_t(494022));
    QVERIFY(raw.text.rfind("duration,protocol_type,service,flag,", 0) == 0);
    QVERIFY(raw.text.size() > 70'000'000 && raw.text.size() < 80'000'000);
    QVERIFY(raw.text.ends_with(",normal\n"));
    qInfo("KDD Cup 99 10%%: read + sha256 + gunzip of %llu bytes -> %zu bytes in %lld ms",
          static_cast<unsigned long long>(raw.storedBytes), raw.text.size(), ms);
}

QTEST_APPLESS_MAIN(TestSourceReader)
#include "test_source_reader.moc"
