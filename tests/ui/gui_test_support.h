#pragma once
// Helpers shared by the GUI tests.

#include "ui/dataset/load_request.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
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

} // namespace elab::test
