// SHA-256 (core/util/sha256.h) against the FIPS 180-4 example vectors, the padding
// boundaries, and the checksums published in the dataset READMEs.

#include "core/util/sha256.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <fstream>
#include <iterator>
#include <string>

using namespace elab::core;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class TestSha256 : public QObject {
    Q_OBJECT
private slots:
    void vectors_data();
    void vectors();
    void datasetFile_data();
    void datasetFile();
    void embeddedNulBytes();
    void bothPathsAgreeOnEveryLength();
};

void TestSha256::vectors_data() {
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QString>("digest");
    // FIPS 180-4 / NIST CSRC "SHA256.pdf" examples.
    QTest::newRow("empty") << QByteArray("") << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("448-bit two blocks") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                        << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("896-bit") << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjkl"
                                           "mnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                             << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
    QTest::newRow("one million a") << QByteArray(1000000, 'a')
                                   << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    // Padding boundaries: 55 bytes is the longest tail that fits the length in one block,
    // 56 forces a second padding block, 64 is an exact block (digests from Python hashlib).
    QTest::newRow("55 a") << QByteArray(55, 'a') << "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318";
    QTest::newRow("56 a") << QByteArray(56, 'a') << "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a";
    QTest::newRow("63 a") << QByteArray(63, 'a') << "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34";
    QTest::newRow("64 a") << QByteArray(64, 'a') << "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb";
    QTest::newRow("65 a") << QByteArray(65, 'a') << "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0";
    QTest::newRow("119 a") << QByteArray(119, 'a')
                           << "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb";
    QTest::newRow("120 a") << QByteArray(120, 'a')
                           << "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c";
    QTest::newRow("128 a") << QByteArray(128, 'a')
                           << "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e";
}

void TestSha256::vectors() {
    QFETCH(QByteArray, message);
    QFETCH(QString, digest);
    const std::string actual = sha256Hex(std::string_view(message.constData(), message.size()));
    QCOMPARE(QString::fromStdString(actual), digest);
    // The portable code too, when sha256Hex uses the CPU's SHA extensions.
    const std::string portable = sha256HexPortable(std::string_view(message.constData(), message.size()));
    QCOMPARE(QString::fromStdString(portable), digest);
}

void TestSha256::bothPathsAgreeOnEveryLength() {
    if (!sha256UsesShaExtensions())
        QSKIP("this CPU has no SHA extensions: sha256Hex is the portable code (checked by the vectors)");
    // Every tail length of one, two and several blocks, and a long message, of pseudo-random bytes.
    std::string bytes(1 << 20, '\0');
    std::uint64_t x = 88172645463325252ULL;
    for (char& c : bytes) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c = static_cast<char>(x >> 56);
    }
    for (std::size_t length = 0; length <= 300; ++length) {
        const std::string_view m(bytes.data(), length);
        QVERIFY2(sha256Hex(m) == sha256HexPortable(m), qPrintable(QString("length %1").arg(length)));
    }
    QCOMPARE(QString::fromStdString(sha256Hex(bytes)), QString::fromStdString(sha256HexPortable(bytes)));
}

void TestSha256::datasetFile_data() {
    QTest::addColumn<QString>("relativePath");
    QTest::addColumn<qint64>("expectedSize");
    QTest::addColumn<QString>("digest");
    // Checksums as printed in ../shared/datasets/*/README.md.
    QTest::newRow("iris.csv") << "datasets/iris/iris.csv" << qint64(-1)
                              << "87f0ef5229d3c2825151152009663887281a6e3e164d35161efdbdfb69951049";
    QTest::newRow("a9a_train.libsvm") << "datasets/adult/a9a_train.libsvm" << qint64(2329875)
                                      << "f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906";
    QTest::newRow("kddcup99 gzip as stored") << "datasets/kddcup99/kddcup99_10percent.csv.gz" << qint64(-1)
                                             << "cf1a2151d2619597059e805fdc11526c34c90baf724ea3fee3c01a21c324e058";
}

void TestSha256::datasetFile() {
    QFETCH(QString, relativePath);
    QFETCH(qint64, expectedSize);
    QFETCH(QString, digest);
    ELAB_REQUIRE_SHARED_DATASETS();
    const std::string path = std::string(EPSILONLAB_SHARED_DIR) + "/" + relativePath.toStdString();
    const std::string bytes = readFile(path);
    QVERIFY2(!bytes.empty(), qPrintable("cannot read " + QString::fromStdString(path)));
    if (expectedSize >= 0)
        QCOMPARE(qint64(bytes.size()), expectedSize);
    QCOMPARE(QString::fromStdString(sha256Hex(bytes)), digest);
}

void TestSha256::embeddedNulBytes() {
    // The digest covers every byte, NULs included: all 256 byte values in order
    // (Python: hashlib.sha256(bytes(range(256)))).
    std::string bytes(256, '\0');
    for (int i = 0; i < 256; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>(i);
    QCOMPARE(QString::fromStdString(sha256Hex(bytes)),
             QStringLiteral("40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880"));
}

QTEST_APPLESS_MAIN(TestSha256)
#include "test_sha256.moc"
