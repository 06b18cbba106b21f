#pragma once
// Presentation mode (View ▸ Presentation mode, F11; Esc also leaves it): the window full screen,
// the left column (dataset panel and the views' side forms) folded away, the application's
// fonts larger, a high-contrast palette, and charts drawn with the projector theme
// (ui/charts/chart_theme.h: thicker lines and markers, black texts and axes). Leaving restores
// exactly what was there: geometry, window state, splitter, the column, fonts and palette.
// GUI thread only.

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>
#include <QPalette>

QT_BEGIN_NAMESPACE
class QAction;
class QMainWindow;
class QMenu;
class QShortcut;
class QSplitter;
QT_END_NAMESPACE

namespace elab::ui {

class PresentationMode : public QObject {
    Q_OBJECT
public:
    /// The splitter's first widget is the column folded away.
    PresentationMode(QMainWindow* window, QSplitter* splitter);

    /// Fonts are this much larger while presenting.
    static constexpr double kFontScale = 1.4;

    void addActionsTo(QMenu* menu);
    bool isActive() const { return m_active; }
    /// fullScreen false: everything but the full screen (batch screenshots at a chosen size).
    void enter(bool fullScreen = true);
    void leave();
    void toggle();
    /// The high-contrast palette of presentation mode.
    static QPalette highContrastPalette();

signals:
    void toggled(bool active);

private:
    void restyleCharts();

    QMainWindow* m_window;
    QSplitter* m_splitter;
    QAction* m_action = nullptr;
    QShortcut* m_escape = nullptr;
    bool m_active = false;
    // What leave() restores.
    QByteArray m_geometry;
    Qt::WindowStates m_state;
    QList<int> m_sizes;
    bool m_columnVisible = true;
    QFont m_font;
    QPalette m_palette;
};

} // namespace elab::ui
