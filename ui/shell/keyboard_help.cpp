#include "ui/shell/keyboard_help.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("KeyboardHelp", text); }

/// A menu text as read: "&Open…" → "Open…", "&&" → "&".
QString plain(const QString& text) {
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && i + 1 < text.size())
            ++i;
        out += text[i];
    }
    return out;
}

QString keysOf(const QList<QKeySequence>& sequences) {
    QStringList texts;
    for (const QKeySequence& s : sequences)
        if (!s.isEmpty())
            texts << s.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}

void addOnce(QList<DocumentedKey>& list, const DocumentedKey& key) {
    if (key.keys.isEmpty())
        return;
    for (const DocumentedKey& k : list)
        if (k.keys == key.keys && k.what == key.what)
            return;
    list.append(key);
}

void collectMenu(const QMenu* menu, const QString& path, QList<DocumentedKey>& list, QList<const QAction*>& seen) {
    for (const QAction* action : menu->actions()) {
        seen << action;
        const QString where = path + QStringLiteral(" ▸ ") + plain(action->text());
        if (action->menu())
            collectMenu(action->menu(), where, list, seen);
        else
            addOnce(list, {keysOf(action->shortcuts()), where});
    }
}

QString describe(const QObject* o, const QString& text, const QString& toolTip, const QString& whatsThis) {
    for (const QString& s : {text, whatsThis, toolTip})
        if (!s.isEmpty())
            return plain(s);
    return o->objectName();
}

} // namespace

QList<DocumentedKey> keyboardShortcuts(QWidget& window) {
    QList<DocumentedKey> list;
    QList<const QAction*> seen;
    if (auto* main = qobject_cast<QMainWindow*>(&window))
        for (const QAction* top : main->menuBar()->actions())
            if (top->menu())
                collectMenu(top->menu(), plain(top->text()), list, seen);
    for (const QAction* action : window.findChildren<QAction*>())
        if (!seen.contains(action))
            addOnce(list, {keysOf(action->shortcuts()),
                           describe(action, action->text(), action->toolTip(), action->whatsThis())});
    for (const QShortcut* shortcut : window.findChildren<QShortcut*>())
        addOnce(list, {keysOf(shortcut->keys()), describe(shortcut, {}, {}, shortcut->whatsThis())});
    for (const QWidget* w : window.findChildren<QWidget*>())
        for (const DocumentedKey& key : documentedKeys(w))
            addOnce(list, key);
    return list;
}

QWidget* showKeyboardHelp(QMainWindow& window) {
    auto* dialog = new QDialog(&window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard"));
    const QList<DocumentedKey> keys = keyboardShortcuts(window);
    auto* table = new QTableWidget(static_cast<int>(keys.size()), 2, dialog);
    table->setObjectName(QStringLiteral("keyboardTable"));
    table->setAccessibleName(tr("Keyboard shortcuts"));
    table->setHorizontalHeaderLabels({tr("Keys"), tr("What they do")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setTabKeyNavigation(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    for (int row = 0; row < keys.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(keys[row].keys));
        table->setItem(row, 1, new QTableWidgetItem(keys[row].what));
    }
    table->resizeColumnToContents(0);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(620, 480);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->show();
    return dialog;
}

void addKeyboardHelp(QMenu* menu, QMainWindow& window) {
    QAction* action = menu->addAction(tr("&Keyboard…"), &window, [&window] { showKeyboardHelp(window); });
    action->setShortcut(QKeySequence::HelpContents);
    action->setObjectName(QStringLiteral("keyboardHelpAction"));
}

} // namespace elab::ui
