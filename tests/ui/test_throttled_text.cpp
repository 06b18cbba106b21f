// A label following a fast-changing value: the first text at once, then at most one per interval
// while throttled, the latest in the end; an unthrottled text at once.

#include "ui/widgets/throttled_text.h"

#include <QLabel>
#include <QTest>

using elab::ui::ThrottledText;

class TestThrottledText : public QObject {
    Q_OBJECT

private slots:
    void followsAtMostEveryIntervalAndEndsOnTheLatest() {
        QLabel label;
        ThrottledText text(&label, 200, nullptr);
        text.set(QStringLiteral("a"), true);
        QCOMPARE(label.text(), QStringLiteral("a")); // nothing shown yet: at once
        text.set(QStringLiteral("b"), true);
        text.set(QStringLiteral("c"), true);
        QCOMPARE(label.text(), QStringLiteral("a")); // within the interval: waits
        QCOMPARE(text.latest(), QStringLiteral("c"));
        QTRY_COMPARE(label.text(), QStringLiteral("c")); // then the latest, "b" skipped
    }

    void anUnthrottledTextIsShownAtOnce() {
        QLabel label;
        ThrottledText text(&label, 200, nullptr);
        text.set(QStringLiteral("a"), true);
        text.set(QStringLiteral("b"), true); // pending
        text.set(QStringLiteral("released"), false);
        QCOMPARE(label.text(), QStringLiteral("released"));
        text.set(QStringLiteral("d"), true); // within the interval of "released": waits
        QCOMPARE(label.text(), QStringLiteral("released"));
        QTRY_COMPARE(label.text(), QStringLiteral("d"));
    }
};

QTEST_MAIN(TestThrottledText)
#include "test_throttled_text.moc"
