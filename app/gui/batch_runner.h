#pragma once
// Batch mode of the GUI (--screenshot, --export): once the window shows the requested
// dataset (and a session's settings, if one was given) and the computation of the view shown
// (--view, or the session's view) has run to completion (View::complete, its controller idle),
// write the files, print their paths and quit the event loop with 0 — or 1 when loading,
// computing or writing failed, 3 on timeout. Animations come last, one after the other: each
// plays the view over its ε range (MainWindow::exportAnimation, as File ▸ Export animation…).
// GUI thread only.

#include "ui/export/animation_export.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace elab::ui {

class MainWindow;

struct BatchJob {
    QString screenshot;                       ///< window PNG, or empty
    QStringList exports;                      ///< figures (.png/.svg/.pdf), each with .csv and .json beside it
    std::vector<AnimationRequest> animations; ///< films (.gif, numbered .png), after the figures
    int dpi = 150;
};

class BatchRunner : public QObject {
    Q_OBJECT
public:
    BatchRunner(MainWindow* window, BatchJob job, QObject* parent = nullptr);

    /// Renders the window to path now; false (message on stderr) if it was not written.
    bool captureWindow(const QString& path);
    /// Writes every export and the screenshot now; false on the first failure.
    bool writeAll();

private:
    void onDatasetShown();
    void checkDone();
    void finish(int exitCode);
    /// Records animations[index], then the next; finish(0) after the last.
    void recordAnimation(std::size_t index);

    MainWindow* m_window;
    BatchJob m_job;
    bool m_shown = false;
    bool m_writing = false;
    bool m_done = false;
};

} // namespace elab::ui
