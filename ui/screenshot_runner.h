#pragma once
// --screenshot: once the window shows the requested dataset (or the load failed), render
// the window to a PNG, print the path and quit the event loop with 0 (1 on load failure or
// if the file cannot be written, 3 on timeout). GUI thread only.

#include <QObject>
#include <QString>

namespace elab::ui {

class MainWindow;

class ScreenshotRunner : public QObject {
    Q_OBJECT
public:
    ScreenshotRunner(MainWindow* window, QString path, QObject* parent = nullptr);

    /// Renders the window now; false (with a message on stderr) if the PNG was not written.
    bool capture();

private:
    void finish(int exitCode);

    MainWindow* m_window;
    QString m_path;
    bool m_done = false;
};

} // namespace elab::ui
