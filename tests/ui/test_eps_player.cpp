// Playing ε: the shared slider's play button moves ε along its grid from the smallest to the
// largest value and stops (once), starts again (loop) or turns round (back and forth); it steps
// only when the view is ready; Space on the slider toggles it; a hand on the handle pauses it.

#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_slider.h"

#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using elab::ui::EpsPlayer;
using elab::ui::EpsSlider;
using Mode = EpsPlayer::Mode;

namespace {

const std::vector<double> kGrid{0.1, 1.0, 10.0};
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> epsOf(const QSignalSpy& spy) {
    std::vector<double> values;
    for (const QList<QVariant>& args : spy)
        values.push_back(args.at(0).toDouble());
    return values;
}

} // namespace

class TestEpsPlayer : public QObject {
    Q_OBJECT
private slots:
    void nextEpsFollowsTheGrid_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("from");
        QTest::addColumn<bool>("up");
        QTest::addColumn<double>("expected");
        QTest::addColumn<bool>("expectedUp");
        QTest::addColumn<bool>("atEnd");
        const int once = static_cast<int>(Mode::Once), loop = static_cast<int>(Mode::Loop),
                  bounce = static_cast<int>(Mode::Bounce);
        QTest::newRow("once: up one point") << once << 0.1 << true << 1.0 << true << false;
        QTest::newRow("once: from between points to the next") << once << 0.5 << true << 1.0 << true << false;
        QTest::newRow("once: the end") << once << 10.0 << true << 10.0 << true << true;
        QTest::newRow("loop: the end starts again") << loop << 10.0 << true << 0.1 << true << false;
        QTest::newRow("loop: from infinity") << loop << kInf << true << 0.1 << true << false;
        QTest::newRow("bounce: turns at the top") << bounce << 10.0 << true << 1.0 << false << false;
        QTest::newRow("bounce: down one point") << bounce << 1.0 << false << 0.1 << false << false;
        QTest::newRow("bounce: turns at the bottom") << bounce << 0.1 << false << 1.0 << true << false;
    }
    void nextEpsFollowsTheGrid() {
        QFETCH(int, mode);
        QFETCH(double, from);
        QFETCH(bool, up);
        QFETCH(double, expected);
        QFETCH(bool, expectedUp);
        QFETCH(bool, atEnd);
        bool end = false;
        const double next = EpsPlayer::nextEps(kGrid, from, static_cast<Mode>(mode), &up, &end);
        QCOMPARE(next, expected);
        QCOMPARE(up, expectedUp);
        QCOMPARE(end, atEnd);
    }

    void playOnceWalksTheGridAndStops() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.01);
        slider.player()->setInterval(1);
        QSignalSpy changed(&slider, &EpsSlider::epsChanged);
        QSignalSpy playing(slider.player(), &EpsPlayer::playingChanged);
        slider.playButton()->click();
        QVERIFY(slider.player()->isPlaying());
        QTRY_VERIFY(!slider.player()->isPlaying()); // stopped at the end
        QCOMPARE(epsOf(changed), kGrid);
        for (const QList<QVariant>& args : changed)
            QCOMPARE(args.at(1).toBool(), false); // steps, not a drag
        QCOMPARE(slider.eps(), 10.0);
        QCOMPARE(slider.slider()->value(), EpsSlider::positionForEps(10.0));
        QCOMPARE(playing.count(), 2); // started, stopped
    }

    void playFromTheEndStartsAtTheSmallestEps() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(kInf);
        QSignalSpy changed(&slider, &EpsSlider::epsChanged);
        slider.player()->play();
        QCOMPARE(epsOf(changed), std::vector<double>{0.1});
        slider.player()->pause();
    }

    void loopStartsAgain() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.1);
        slider.player()->setMode(Mode::Loop);
        slider.player()->setInterval(1);
        QSignalSpy changed(&slider, &EpsSlider::epsChanged);
        slider.player()->play();
        QTRY_VERIFY(changed.count() >= 5);
        slider.player()->pause();
        const std::vector<double> seen = epsOf(changed);
        const std::vector<double> expected{1.0, 10.0, 0.1, 1.0, 10.0};
        QCOMPARE(std::vector<double>(seen.begin(), seen.begin() + 5), expected);
        QVERIFY(!slider.player()->isPlaying());
    }

    void bounceTurnsRound() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.1);
        slider.player()->setMode(Mode::Bounce);
        QSignalSpy changed(&slider, &EpsSlider::epsChanged);
        for (int i = 0; i < 5; ++i)
            QVERIFY(slider.player()->tick());
        QCOMPARE(epsOf(changed), (std::vector<double>{1.0, 10.0, 1.0, 0.1, 1.0}));
    }

    void stepsOnlyWhenTheViewIsReady() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.1);
        bool ready = false;
        slider.player()->setReadyCheck([&ready] { return ready; });
        QSignalSpy changed(&slider, &EpsSlider::epsChanged);
        QVERIFY(!slider.player()->tick());
        QVERIFY(!slider.player()->tick());
        QCOMPARE(changed.count(), 0);
        ready = true;
        QVERIFY(slider.player()->tick());
        QCOMPARE(epsOf(changed), std::vector<double>{1.0});
        ready = false; // the view computes ε = 1: the timer's ticks wait
        slider.player()->setInterval(1);
        slider.player()->play();
        QTest::qWait(20);
        QCOMPARE(changed.count(), 1);
        ready = true;
        QVERIFY(changed.wait(5000));
        QCOMPARE(epsOf(changed), (std::vector<double>{1.0, 10.0}));
    }

    void spaceOnTheSliderToggles() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.1);
        slider.player()->setInterval(60'000); // no tick during the test
        QTest::keyClick(slider.slider(), Qt::Key_Space);
        QVERIFY(slider.player()->isPlaying());
        QCOMPARE(slider.playButton()->accessibleName(), QStringLiteral("Pause ε"));
        QTest::keyClick(slider.slider(), Qt::Key_Space);
        QVERIFY(!slider.player()->isPlaying());
        QCOMPARE(slider.playButton()->accessibleName(), QStringLiteral("Play ε"));
        QCOMPARE(slider.eps(), 0.1); // Space moved nothing
    }

    void pressingTheHandlePauses() {
        EpsSlider slider;
        slider.setGrid(kGrid);
        slider.setEps(0.1);
        slider.player()->setInterval(60'000);
        slider.player()->play();
        emit slider.slider()->sliderPressed();
        QVERIFY(!slider.player()->isPlaying());
    }
};

QTEST_MAIN(TestEpsPlayer)
#include "test_eps_player.moc"
