// The ε control: log mapping, the ∞ stop, field ↔ slider sync, grid keyboard steps, drag flags.

#include "ui/widgets/eps_slider.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/utility_settings.h"

#include "tests/ui/gui_test_support.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTest>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

using elab::test::LayoutRequests;
using elab::test::settle;
using elab::ui::EpsSlider;
using elab::ui::formatNumber;
using elab::ui::UtilitySettings;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Exact comparison (grid values must be hit exactly), printing both values on failure.
#define COMPARE_EXACT(actual, expected)                                                                                \
    QVERIFY2((actual) == (expected), qPrintable(QStringLiteral("actual %1, expected %2, difference %3")                \
                                                    .arg(actual, 0, 'g', 17)                                           \
                                                    .arg(expected, 0, 'g', 17)                                         \
                                                    .arg((actual) - (expected), 0, 'g', 3)))

void typeInField(EpsSlider& w, const QString& text) {
    w.field()->selectAll();
    w.field()->insert(text); // as typed; QTest::keyClicks cannot type "∞"
    QTest::keyClick(w.field(), Qt::Key_Return);
}

} // namespace

class TestEpsSlider : public QObject {
    Q_OBJECT
private slots:
    void everyPositionRoundTrips() {
        for (int p = 0; p <= EpsSlider::kLogSteps; ++p)
            QCOMPARE(EpsSlider::positionForEps(EpsSlider::epsForPosition(p)), p);
        COMPARE_EXACT(EpsSlider::epsForPosition(0), 1e-3);
        COMPARE_EXACT(EpsSlider::epsForPosition(200), 1e-2);
        COMPARE_EXACT(EpsSlider::epsForPosition(600), 1.0);
        COMPARE_EXACT(EpsSlider::epsForPosition(EpsSlider::kLogSteps), 100.0);
    }

    void valueRoundTripWithinOneStep_data() {
        QTest::addColumn<double>("eps");
        for (double e : {1e-3, 1.234e-3, 0.0071, 0.25, 0.5, 1.0, 3.3333, 42.0, 99.9, 100.0})
            QTest::newRow(qPrintable(QString::number(e))) << e;
    }
    void valueRoundTripWithinOneStep() {
        QFETCH(double, eps);
        const double back = EpsSlider::epsForPosition(EpsSlider::positionForEps(eps));
        const double step =
            std::log10(UtilitySettings::kSliderMax / UtilitySettings::kSliderMin) / EpsSlider::kLogSteps;
        const double error = std::abs(std::log10(back / eps));
        QVERIFY2(
            error <= step,
            qPrintable(QStringLiteral("ε %1 → %2: %3 decades > one step %4").arg(eps).arg(back).arg(error).arg(step)));
    }

    void infinityStop() {
        EpsSlider w;
        QSignalSpy spy(&w, &EpsSlider::epsChanged);
        w.setEps(kInf);
        QCOMPARE(w.slider()->value(), EpsSlider::kInfinityPosition);
        QCOMPARE(w.slider()->value(), w.slider()->maximum());
        QCOMPARE(w.field()->text(), QStringLiteral("∞"));
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("epsReadout"))->text(), QStringLiteral("ε = ∞ (non-private)"));
        QCOMPARE(spy.count(), 0);
        QVERIFY(std::isinf(EpsSlider::epsForPosition(EpsSlider::kInfinityPosition)));
        // The gap between 10² and ∞ snaps to the nearer end.
        COMPARE_EXACT(EpsSlider::epsForPosition(EpsSlider::kLogSteps + 10), 100.0);
        QVERIFY(std::isinf(EpsSlider::epsForPosition(EpsSlider::kInfinityPosition - 10)));
        w.slider()->setValue(EpsSlider::kLogSteps + 10);
        QCOMPARE(w.slider()->value(), EpsSlider::kLogSteps);
        COMPARE_EXACT(w.eps(), 100.0);
        QCOMPARE(spy.count(), 1);
    }

    void setEpsClampsAndStaysSilent_data() {
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("expected");
        QTest::newRow("inside") << 0.25 << 0.25;
        QTest::newRow("between positions kept exactly") << 0.123456 << 0.123456;
        QTest::newRow("below") << 1e-6 << UtilitySettings::kSliderMin;
        QTest::newRow("zero") << 0.0 << UtilitySettings::kSliderMin;
        QTest::newRow("above") << 1e4 << UtilitySettings::kSliderMax;
        QTest::newRow("infinity") << kInf << kInf;
    }
    void setEpsClampsAndStaysSilent() {
        QFETCH(double, input);
        QFETCH(double, expected);
        EpsSlider w;
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        w.setEps(input);
        COMPARE_EXACT(w.eps(), expected);
        QCOMPARE(w.slider()->value(), EpsSlider::positionForEps(expected));
        QCOMPARE(changed.count(), 0);
        w.setEps(std::nan(""));
        COMPARE_EXACT(w.eps(), expected);
    }

    void fieldDrivesSlider_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("expected");
        QTest::newRow("decimal") << "0.5" << 0.5;
        QTest::newRow("exponent") << "1e-2" << 0.01;
        QTest::newRow("spaces") << " 2 " << 2.0;
        QTest::newRow("inf") << "inf" << kInf;
        QTest::newRow("infinity sign") << "∞" << kInf;
        QTest::newRow("clamped above") << "1000" << 100.0;
        QTest::newRow("clamped below") << "1e-7" << 1e-3;
    }
    void fieldDrivesSlider() {
        QFETCH(QString, text);
        QFETCH(double, expected);
        EpsSlider w;
        w.setEps(1.0);
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        typeInField(w, text);
        COMPARE_EXACT(w.eps(), expected);
        QCOMPARE(w.slider()->value(), EpsSlider::positionForEps(expected));
        QCOMPARE(changed.count(), 1);
        COMPARE_EXACT(changed.at(0).at(0).toDouble(), expected);
        QCOMPARE(changed.at(0).at(1).toBool(), false);
        QCOMPARE(w.field()->text(), std::isinf(expected) ? QStringLiteral("∞") : elab::ui::formatNumber(expected, 6));
    }

    void invalidTextReverts_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("letters") << "abc";
        QTest::newRow("empty") << "";
        QTest::newRow("zero") << "0";
        QTest::newRow("negative") << "-1";
        QTest::newRow("nan") << "nan";
        QTest::newRow("two numbers") << "1 2";
    }
    void invalidTextReverts() {
        QFETCH(QString, text);
        EpsSlider w;
        w.setEps(0.25);
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        typeInField(w, text);
        QCOMPARE(w.field()->text(), QStringLiteral("0.25"));
        COMPARE_EXACT(w.eps(), 0.25);
        QCOMPARE(changed.count(), 0);
    }

    void sliderDrivesField() {
        EpsSlider w;
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        w.slider()->setValue(300); // 10^(−3 + 1.5) = 0.0316…
        COMPARE_EXACT(w.eps(), 0.0316);
        QCOMPARE(w.field()->text(), QStringLiteral("0.0316"));
        QCOMPARE(w.readoutText(), QStringLiteral("ε = 0.0316"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(1).toBool(), false);
    }

    void keyboardStepsOnGrid_data() {
        QTest::addColumn<double>("start");
        QTest::addColumn<int>("key");
        QTest::addColumn<double>("expected");
        QTest::newRow("right from a grid point") << 0.1 << int(Qt::Key_Right) << 1.0;
        QTest::newRow("up from a grid point") << 0.1 << int(Qt::Key_Up) << 1.0;
        QTest::newRow("left from a grid point") << 1.0 << int(Qt::Key_Left) << 0.1;
        QTest::newRow("down from a grid point") << 1.0 << int(Qt::Key_Down) << 0.1;
        QTest::newRow("right from between") << 0.3 << int(Qt::Key_Right) << 1.0;
        QTest::newRow("left from between") << 0.3 << int(Qt::Key_Left) << 0.1;
        QTest::newRow("right from the last point to ∞") << 10.0 << int(Qt::Key_Right) << kInf;
        QTest::newRow("right from above the grid to ∞") << 50.0 << int(Qt::Key_Right) << kInf;
        QTest::newRow("left from ∞") << kInf << int(Qt::Key_Left) << 10.0;
        QTest::newRow("right from below the grid") << 0.002 << int(Qt::Key_Right) << 0.01;
        QTest::newRow("left from below the grid stays") << 0.002 << int(Qt::Key_Left) << 0.002;
        QTest::newRow("right at ∞ stays") << kInf << int(Qt::Key_Right) << kInf;
        QTest::newRow("home") << 5.0 << int(Qt::Key_Home) << 0.01;
        QTest::newRow("end") << 0.5 << int(Qt::Key_End) << kInf;
        QTest::newRow("page up (1 point on a 4-point grid)") << 0.01 << int(Qt::Key_PageUp) << 0.1;
    }
    void keyboardStepsOnGrid() {
        QFETCH(double, start);
        QFETCH(int, key);
        QFETCH(double, expected);
        EpsSlider w;
        w.setGrid({10.0, 0.01, 1.0, 0.1, 1e5}); // unsorted, one outside the slider range
        QCOMPARE(w.grid(), (std::vector<double>{0.01, 0.1, 1.0, 10.0}));
        w.setEps(start);
        w.show();
        w.slider()->setFocus();
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        QTest::keyClick(w.slider(), Qt::Key(key));
        COMPARE_EXACT(w.eps(), expected);
        QCOMPARE(w.slider()->value(), EpsSlider::positionForEps(expected));
        QCOMPARE(changed.count(), expected == start ? 0 : 1);
        if (!changed.isEmpty())
            QCOMPARE(changed.at(0).at(1).toBool(), false);
    }

    void pageStepsOnDefaultGrid() {
        EpsSlider w;
        const std::vector<double> grid = UtilitySettings{}.grid();
        QCOMPARE(w.grid(), grid);
        w.setEps(grid[0]);
        QTest::keyClick(w.slider(), Qt::Key_PageUp);
        COMPARE_EXACT(w.eps(), grid[4]); // 21 points over 5 decades: a page is one decade
        QTest::keyClick(w.slider(), Qt::Key_PageDown);
        COMPARE_EXACT(w.eps(), grid[0]);
        for (std::size_t i = 1; i < grid.size(); ++i) {
            QTest::keyClick(w.slider(), Qt::Key_Right);
            COMPARE_EXACT(w.eps(), grid[i]);
        }
        QTest::keyClick(w.slider(), Qt::Key_Right);
        QVERIFY(std::isinf(w.eps()));
    }

    void draggingFlagAndRelease() {
        EpsSlider w;
        w.setEps(1.0);
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        QSignalSpy finished(&w, &EpsSlider::dragFinished);
        QSlider* s = w.slider();
        s->setSliderDown(true);
        s->setSliderPosition(400);                       // sliderMoved while held
        s->setSliderPosition(EpsSlider::kLogSteps + 20); // into the gap: 10²
        QCOMPARE(changed.count(), 2);
        COMPARE_EXACT(changed.at(0).at(0).toDouble(), 0.1);
        QCOMPARE(changed.at(0).at(1).toBool(), true);
        COMPARE_EXACT(changed.at(1).at(0).toDouble(), 100.0);
        QCOMPARE(changed.at(1).at(1).toBool(), true);
        QCOMPARE(s->value(), EpsSlider::kLogSteps + 20); // the handle is not moved under the mouse
        QCOMPARE(finished.count(), 0);
        s->setSliderDown(false);
        QCOMPARE(finished.count(), 1);
        COMPARE_EXACT(finished.at(0).at(0).toDouble(), 100.0);
        QCOMPARE(changed.count(), 2);               // release adds no epsChanged: the value did not change
        QCOMPARE(s->value(), EpsSlider::kLogSteps); // snapped out of the gap
        QTest::keyClick(s, Qt::Key_Right);
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.at(2).at(1).toBool(), false);
        QVERIFY(std::isinf(w.eps()));
    }

    void destroyedWithFocusInTheField() {
        auto* w = new EpsSlider;
        w->show();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w));
        w->field()->setFocus();
        QTRY_VERIFY(w->field()->hasFocus());
        w->field()->setText(QStringLiteral("0.5"));
        QSignalSpy changed(w, &EpsSlider::epsChanged);
        delete w; // the field's focus-out editingFinished must not reach the dead slider
        QCOMPARE(changed.count(), 0);
    }

    void mouseDragOfTheHandle() {
        EpsSlider w;
        w.resize(300, w.sizeHint().height());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setEps(1.0);
        QSlider* s = w.slider();
        QStyleOptionSlider option;
        option.initFrom(s);
        option.orientation = Qt::Horizontal;
        option.minimum = s->minimum();
        option.maximum = s->maximum();
        option.sliderPosition = option.sliderValue = s->value();
        const QPoint handle =
            s->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, s).center();
        QSignalSpy changed(&w, &EpsSlider::epsChanged);
        QSignalSpy finished(&w, &EpsSlider::dragFinished);
        QTest::mousePress(s, Qt::LeftButton, {}, handle);
        QTest::mouseMove(s, handle + QPoint(s->width() / 2, 0));
        QTest::mouseRelease(s, Qt::LeftButton, {}, handle + QPoint(s->width() / 2, 0));
        QVERIFY(!changed.isEmpty());
        QCOMPARE(changed.first().at(1).toBool(), true);
        QVERIFY(w.eps() > 1.0);
        QCOMPARE(finished.count(), 1);
        COMPARE_EXACT(finished.at(0).at(0).toDouble(), w.eps());
    }

    // A drag step changes the readout's text, and must not lay the window out again: every
    // layout request climbs to the window, and a QTabWidget above repaints its whole page for it.
    void aDragStepAsksTheWindowForNoLayout() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* w = new EpsSlider(&window);
        layout->addWidget(w);
        layout->addStretch(1);
        window.resize(600, 200);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        w->setEps(1.0);
        settle();
        QLabel* readout = w->findChild<QLabel*>(QStringLiteral("epsReadout"));
        QVERIFY(readout);
        LayoutRequests windowRequests(&window);
        LayoutRequests boxRequests(readout->parentWidget()); // the readout's box
        QSlider* s = w->slider();
        s->setSliderDown(true);
        for (int step = 1; step <= 20; ++step) {
            s->setSliderPosition(300 + 7 * step);
            settle();
        }
        s->setSliderDown(false);
        settle();
        QCOMPARE(readout->text(), QStringLiteral("ε = %1").arg(formatNumber(w->eps(), 4)));
        QCOMPARE(windowRequests.count, 0);
        QVERIFY2(boxRequests.count > 0 && boxRequests.count <= 21, // one per new text at most
                 qPrintable(QString::number(boxRequests.count)));
    }
};

QTEST_MAIN(TestEpsSlider)
#include "test_eps_slider.moc"
