#pragma once
// Keys a widget handles itself rather than through a QAction (the ε slider's arrows, a lesson's
// Page Up/Down), declared on the widget so that Help ▸ Keyboard lists what the window really has
// (ui/shell/keyboard_help.h). GUI thread only.

#include <QList>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace elab::ui {

struct DocumentedKey {
    QString keys; ///< as shown: "← / →", "Space"
    QString what; ///< what they do, with where: "ε slider: one grid point down / up"
};

/// Declares keys w handles (replaces what was declared on it).
void documentKeys(QWidget* w, const QList<DocumentedKey>& keys);
/// What was declared on w (empty when nothing was).
QList<DocumentedKey> documentedKeys(const QWidget* w);

} // namespace elab::ui
