#include "ui/shell/presentation_mode.h"

#include "ui/charts/chart_theme.h"
#include "ui/charts/chart_view.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QShortcut>
#include <QSplitter>

namespace elab::ui {

PresentationMode::PresentationMode(QMainWindow* window, QSplitter* splitter)
    : QObject(window), m_window(window), m_splitter(splitter) {
    m_escape = new QShortcut(QKeySequence(Qt::Key_Escape), window, [this] { leave(); });
    m_escape->setEnabled(false);
    m_escape->setWhatsThis(tr("Leave presentation mode"));
}

void PresentationMode::addActionsTo(QMenu* menu) {
    m_action = menu->addAction(tr("&Presentation mode"), this, &PresentationMode::toggle);
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_action->setToolTip(tr("Full screen, side panels folded away, large type and high contrast for a projector "
                            "(F11 or Esc to leave)"));
}

QPalette PresentationMode::highContrastPalette() {
    // Black on white, one strong blue for selection and focus; disabled text still dark
    // enough to read from the back of a room.
    QPalette p(Qt::black, QColor(0xe6, 0xe6, 0xe6), Qt::white, QColor(0x60, 0x60, 0x60), QColor(0x90, 0x90, 0x90),
               Qt::black, Qt::white, Qt::white, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf0, 0xf0, 0xf0));
    p.setColor(QPalette::Highlight, QColor(0x00, 0x3f, 0x8a));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x00, 0x3f, 0x8a));
    p.setColor(QPalette::ToolTipBase, Qt::white);
    p.setColor(QPalette::ToolTipText, Qt::black);
    p.setColor(QPalette::PlaceholderText, QColor(0x40, 0x40, 0x40));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x50, 0x50, 0x50));
    return p;
}

void PresentationMode::enter(bool fullScreen) {
    if (m_active)
        return;
    m_active = true;
    m_geometry = m_window->saveGeometry();
    m_state = m_window->windowState();
    m_sizes = m_splitter->sizes();
    QWidget* column = m_splitter->widget(0);
    m_columnVisible = column && !column->isHidden();
    m_font = QApplication::font();
    m_palette = QApplication::palette();

    if (column)
        column->hide();
    QFont large = m_font;
    if (large.pixelSize() > 0)
        large.setPixelSize(qRound(large.pixelSize() * kFontScale));
    else
        large.setPointSizeF(large.pointSizeF() * kFontScale);
    QApplication::setFont(large);
    QApplication::setPalette(highContrastPalette());
    charts::setChartTheme(charts::presentationTheme());
    restyleCharts();
    if (fullScreen)
        m_window->setWindowState(m_window->windowState() | Qt::WindowFullScreen);
    m_escape->setEnabled(true);
    if (m_action)
        m_action->setChecked(true);
    emit toggled(true);
}

void PresentationMode::leave() {
    if (!m_active)
        return;
    m_active = false;
    m_escape->setEnabled(false);
    charts::setChartTheme(charts::ChartTheme{});
    QApplication::setPalette(m_palette);
    QApplication::setFont(m_font);
    restyleCharts();
    if (QWidget* column = m_splitter->widget(0))
        column->setVisible(m_columnVisible);
    m_window->setWindowState(m_state);
    m_window->restoreGeometry(m_geometry);
    m_splitter->setSizes(m_sizes);
    if (m_action)
        m_action->setChecked(false);
    emit toggled(false);
}

void PresentationMode::toggle() {
    if (m_active)
        leave();
    else
        enter();
}

void PresentationMode::restyleCharts() {
    // QApplication::setFont reaches the widgets only once the event loop runs: the charts are
    // given the font themselves (their texts are set from it when they are built).
    for (charts::ChartView* chart : m_window->findChildren<charts::ChartView*>()) {
        chart->setFont(QApplication::font());
        chart->restyle();
    }
}

} // namespace elab::ui
