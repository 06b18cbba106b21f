#pragma once
// Helpers shared by the GUI tests.

#include "ui/dataset/load_request.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QLabel>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace elab::test {

inline ui::LoadRequest request(const QString& spec) {
    ui::LoadRequest r;
    r.spec = spec;
    return r;
}

/// Writes bytes to name inside dir and returns the path (aborts the test run on failure).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

/// Delivers the posted events, and those they post (a label's layout request, then its box's,
/// then the window's).
inline void settle() {
    for (int i = 0; i < 4; ++i)
        QCoreApplication::sendPostedEvents();
}

/// The same rich text with other digits outside its tags, of the same length: what a readout
/// or table shows for a new ε or σ (the same rows and lines).
inline QString otherDigits(const QString& html) {
    QString changed = html;
    bool inTag = false;
    for (QChar& ch : changed) {
        inTag = ch == QLatin1Char('<') || (inTag && ch != QLatin1Char('>'));
        if (!inTag && ch.isDigit())
            ch = ch == QLatin1Char('9') ? QLatin1Char('1') : QChar(ch.unicode() + 1);
    }
    return changed;
}

/// Counts the layout requests a widget receives.
class LayoutRequests : public QObject {
public:
    explicit LayoutRequests(QObject* watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return QObject::eventFilter(watched, event);
    }
};

/// The layout requests `view` receives when `label` shows a new text of the same shape
/// (otherDigits), then one two paragraphs taller: what a readout changing while a slider moves
/// costs the view's layout.
struct Relayouts {
    int sameShape = 0;
    int taller = 0;
};
inline Relayouts relayoutsForNewTexts(QObject& view, QLabel& label) {
    const QString text = label.text();
    LayoutRequests requests(&view);
    label.setText(otherDigits(text));
    settle();
    Relayouts r;
    r.sameShape = requests.count;
    requests.count = 0;
    label.setText(text + QStringLiteral("<p>One more line.</p><p>And another.</p>"));
    settle();
    r.taller = requests.count;
    return r;
}

} // namespace elab::test
