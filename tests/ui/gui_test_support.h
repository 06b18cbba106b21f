#pragma once
// Helpers shared by the GUI tests.

#include "ui/dataset/load_request.h"

#include <QFile>
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

} // namespace elab::test
