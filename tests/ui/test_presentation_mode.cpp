// Presentation mode: F11 enters it (full screen, the left column folded away, fonts 1.4× as
// large, the high-contrast palette, charts with the projector theme: lines twice as thick), F11
// or Esc leaves it, and leaving restores the window exactly (geometry, state, splitter, column,
// font, palette, chart look).

#include "gui_test_support.h"

#include "ui/charts/chart_theme.h"
#include "ui/charts/chart_view.h"
#include "ui/shell/main_window.h"
#include "ui/shell/presentation_mode.h"

#include <QApplication>
#include <QChart>
#include <QLineSeries>
#include <QSignalSpy>
#include <QSplitter>
#include <QtTest>

#include <memory>

using namespace elab::ui;

namespace {

constexpr int kTimeout = 60000;

/// The widest line pen of any chart in the window's current tab (0 when none is drawn).
double widestPen(MainWindow& window) {
    double widest = 0.0;
    for (charts::ChartView* view : window.findChildren<charts::ChartView*>())
        for (QAbstractSeries* series : view->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(series))
                widest = std::max(widest, line->pen().widthF());
    return widest;
}

} // namespace

class TestPresentationMode : public QObject {
    Q_OBJECT
private slots:
    void entersAndRestoresExactly_data() {
        QTest::addColumn<int>("leaveKey");
        QTest::newRow("F11") << int(Qt::Key_F11);
        QTest::newRow("Esc") << int(Qt::Key_Escape);
    }
    void entersAndRestoresExactly() {
        QFETCH(int, leaveKey);
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.setGeometry(60, 40, 1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::datasetShown);
        window.load(elab::test::request(QStringLiteral("builtin:moons")));
        QVERIFY(shown.wait(kTimeout));
        window.showView(QStringLiteral("utility"));
        window.splitter()->setSizes({280, 820});
        QTRY_VERIFY(widestPen(window) > 0.0);

        const QRect geometry = window.geometry();
        const QList<int> sizes = window.splitter()->sizes();
        const QFont font = QApplication::font();
        const QPalette palette = QApplication::palette();
        const double pen = widestPen(window);
        QWidget* column = window.splitter()->widget(0);
        QVERIFY(column->isVisible());

        QSignalSpy toggled(window.presentationMode(), &PresentationMode::toggled);
        QTest::keyClick(&window, Qt::Key_F11);
        QCOMPARE(toggled.count(), 1);
        QVERIFY(window.presentationMode()->isActive());
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        QVERIFY(!column->isVisible());
        QCOMPARE(QApplication::font().pointSizeF(), font.pointSizeF() * PresentationMode::kFontScale);
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::black));
        QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
        QCOMPARE(charts::chartTheme().lineScale, 2.0);
        QVERIFY(charts::chartTheme().highContrast);
        QCOMPARE(widestPen(window), 2.0 * pen); // the live charts were drawn again, thicker
        QCOMPARE(charts::themeTextColor(), QColor(Qt::black));

        QTest::keyClick(&window, Qt::Key(leaveKey));
        QCOMPARE(toggled.count(), 2);
        QVERIFY(!window.presentationMode()->isActive());
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        QTRY_COMPARE(window.geometry(), geometry);
        QVERIFY(column->isVisible());
        QCOMPARE(window.splitter()->sizes(), sizes);
        QCOMPARE(QApplication::font(), font);
        QCOMPARE(QApplication::palette(), palette);
        QCOMPARE(charts::chartTheme().lineScale, 1.0);
        QVERIFY(!charts::chartTheme().highContrast);
        QCOMPARE(widestPen(window), pen);
    }

    void escapeDoesNothingOutsidePresentationMode() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QRect geometry = window.geometry();
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.presentationMode()->isActive());
        QCOMPARE(window.geometry(), geometry);
    }

    void theHighContrastPaletteIsHighContrast() {
        // WCAG 2 contrast ratio of text on its background: at least 7:1 (level AAA) for every pair.
        auto luminance = [](const QColor& c) {
            auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
        };
        auto ratio = [&](const QColor& a, const QColor& b) {
            const double x = luminance(a), y = luminance(b);
            return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
        };
        const QPalette p = PresentationMode::highContrastPalette();
        const QList<QPair<QPalette::ColorRole, QPalette::ColorRole>> pairs = {
            {QPalette::WindowText, QPalette::Window},
            {QPalette::Text, QPalette::Base},
            {QPalette::ButtonText, QPalette::Button},
            {QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::ToolTipText, QPalette::ToolTipBase}};
        for (const auto& [text, back] : pairs)
            QVERIFY2(
                ratio(p.color(text), p.color(back)) >= 7.0,
                qPrintable(
                    QStringLiteral("roles %1/%2: %3").arg(text).arg(back).arg(ratio(p.color(text), p.color(back)))));
        QVERIFY(ratio(p.color(QPalette::Disabled, QPalette::WindowText), p.color(QPalette::Window)) >= 4.5);
    }
};

QTEST_MAIN(TestPresentationMode)
#include "test_presentation_mode.moc"
