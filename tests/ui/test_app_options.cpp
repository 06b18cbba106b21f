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

    void animationExports() {
        int code = -1;
        const auto options = parseAppOptions({"epsilonlab", "--view", "regions", "--export", "out/f.svg", "--export",
                                              "out/film.gif", "--export", "out/seq/frame-%03d.png", "--eps-range",
                                              "0.5:20", "--frame-ms", "250", "--frame-size", "640x480"},
                                             &code);
        QVERIFY(options);
        QCOMPARE(options->exports, QStringList{QStringLiteral("out/f.svg")});
        QCOMPARE(options->animations.size(), std::size_t{2});
        QCOMPARE(options->animations[0].path, QStringLiteral("out/film.gif"));
        QCOMPARE(options->animations[1].path, QStringLiteral("out/seq/frame-%03d.png"));
        for (const auto& film : options->animations) {
            QCOMPARE(film.epsMin, 0.5);
            QCOMPARE(film.epsMax, 20.0);
            QCOMPARE(film.frameMs, 250);
            QCOMPARE(film.size, QSize(640, 480));
        }
        QVERIFY(options->batchMode());
        const auto defaults = parseAppOptions({"epsilonlab", "--export", "film.gif"}, &code);
        QVERIFY(defaults);
        QCOMPARE(defaults->animations.front().epsMin, 0.1);
        QCOMPARE(defaults->animations.front().epsMax, 100.0);
        QCOMPARE(defaults->animations.front().frameMs, 500);
        QCOMPARE(defaults->animations.front().size, QSize(960, 640));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << QStringList{"epsilonlab", "--bogus"};
        QTest::newRow("missing value") << QStringList{"epsilonlab", "--data"};
        QTest::newRow("bad size") << QStringList{"epsilonlab", "--size", "big"};
        QTest::newRow("tiny size") << QStringList{"epsilonlab", "--size", "10x10"};
        QTest::newRow("bad missing policy") << QStringList{"epsilonlab", "--missing", "zero"};
        QTest::newRow("positional argument") << QStringList{"epsilonlab", "file.csv"};
        QTest::newRow("range without an animation")
            << QStringList{"epsilonlab", "--export", "a.png", "--eps-range", "1:2"};
        QTest::newRow("frame time without an animation") << QStringList{"epsilonlab", "--frame-ms", "100"};
        QTest::newRow("reversed range") << QStringList{"epsilonlab", "--export", "a.gif", "--eps-range", "2:1"};
        QTest::newRow("range of one number") << QStringList{"epsilonlab", "--export", "a.gif", "--eps-range", "2"};
        QTest::newRow("zero in the range") << QStringList{"epsilonlab", "--export", "a.gif", "--eps-range", "0:1"};
        QTest::newRow("frame time too short") << QStringList{"epsilonlab", "--export", "a.gif", "--frame-ms", "5"};
        QTest::newRow("bad frame size") << QStringList{"epsilonlab", "--export", "a.gif", "--frame-size", "big"};
        QTest::newRow("a sequence without a number") << QStringList{"epsilonlab", "--export", "frame-%s.png"};
        QTest::newRow("a gif with a number") << QStringList{"epsilonlab", "--export", "frame-%03d.gif"};
        QTest::newRow("an animation of a view without figures")
            << QStringList{"epsilonlab", "--view", "data", "--export", "a.gif"};
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
