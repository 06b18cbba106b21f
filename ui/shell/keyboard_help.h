#pragma once
// Help ▸ Keyboard: the window's shortcuts as they are, collected when the window opens from the
// menus' actions, the window's QShortcuts and the keys widgets declare (ui/widgets/documented_keys.h),
// so that the list cannot drift from the keys the window answers to. GUI thread only.

#include "ui/widgets/documented_keys.h"

#include <QList>

QT_BEGIN_NAMESPACE
class QMainWindow;
class QMenu;
class QWidget;
QT_END_NAMESPACE

namespace elab::ui {

/// Every shortcut of window: menu actions as "File ▸ Open dataset…" (ampersands dropped),
/// other actions and QShortcuts by their text, tool tip or What's This, then widgets' declared
/// keys; each (keys, what) once, in that order.
QList<DocumentedKey> keyboardShortcuts(QWidget& window);
/// Adds "&Keyboard…" (F1) to menu: a window-modal dialog listing keyboardShortcuts(window).
void addKeyboardHelp(QMenu* menu, QMainWindow& window);
/// The dialog itself (its table's objectName "keyboardTable"); deleted when closed.
QWidget* showKeyboardHelp(QMainWindow& window);

} // namespace elab::ui
