// Command line of the GUI: defaults, every option, and the errors.

#include "app/gui/app_options.h"

#include <QTest>

using elab::ui::parseAppOptions;
using elab::ui::parseSize;

class TestAppOptions : public QObject {
    Q_OBJECT
private slots:
    void defaults() {
        int code = -1;
        const auto options = parseAppOptions({QStringLiteral("epsilonlab")}, &code);
        QVERIFY(options);
        QCOMPARE(code, 0);
        QCOMPARE(options->data, QStringLiteral("builtin:breast_cancer"));
        QVERIFY(options->label.isEmpty());
        QVERIFY(!options->screenshotMode());
        QCOMPARE(options->size, QSize(1400, 900));
        QCOMPARE(options->missing, elab::core::MissingPolicy::DropRows);
    }

    void everyOption() {
        int code = -1;
        const auto options =
            parseAppOptions({"epsilonlab", "--data", "/tmp/x.csv.gz", "--label", "income", "--screenshot", "out.png",
                             "--size", "1024x768", "--missing", "most-frequent"},
                            &code);
        QVERIFY(options);
        QCOMPARE(options->data, QStringLiteral("/tmp/x.csv.gz"));
        QCOMPARE(options->label, QStringLiteral("income"));
        QCOMPARE(options->screenshot, QStringLiteral("out.png"));
        QVERIFY(options->screenshotMode());
        QCOMPARE(options->size, QSize(1024, 768));
        QCOMPARE(options->missing, elab::core::MissingPolicy::ImputeMostFrequent);
    }

    void errors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << QStringList{"epsilonlab", "--bogus"};
        QTest::newRow("missing value") << QStringList{"epsilonlab", "--data"};
        QTest::newRow("bad size") << QStringList{"epsilonlab", "--size", "big"};
        QTest::newRow("tiny size") << QStringList{"epsilonlab", "--size", "10x10"};
        QTest::newRow("bad missing policy") << QStringList{"epsilonlab", "--missing", "zero"};
        QTest::newRow("positional argument") << QStringList{"epsilonlab", "file.csv"};
    }
    void errors() {
        QFETCH(QStringList, arguments);
        int code = -1;
        QVERIFY(!parseAppOptions(arguments, &code));
        QCOMPARE(code, 2);
    }

    void sizes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QSize>("expected");
        QTest::newRow("x") << "1400x900" << QSize(1400, 900);
        QTest::newRow("times sign") << "800×600" << QSize(800, 600);
        QTest::newRow("spaces") << " 640 x 480 " << QSize(640, 480);
        QTest::newRow("no separator") << "1400900" << QSize();
        QTest::newRow("negative") << "-5x10" << QSize();
    }
    void sizes() {
        QFETCH(QString, text);
        QFETCH(QSize, expected);
        const auto size = parseSize(text);
        QCOMPARE(size.value_or(QSize()), expected);
    }
};

QTEST_MAIN(TestAppOptions)
#include "test_app_options.moc"
