#include "ui/screenshot_runner.h"

#include "ui/main_window.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

namespace elab::ui {

namespace {
// Long enough for KDD Cup 99 on a slow machine; a hang must not block CI forever.
constexpr int kTimeoutMs = 180'000;
// One short pause after the dataset is shown, so that posted layout and chart updates
// have been processed before the window is rendered.
constexpr int kSettleMs = 150;
} // namespace

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString path, QObject* parent)
    : QObject(parent), m_window(window), m_path(std::move(path)) {
    window->setErrorDialogsEnabled(false);
    connect(window, &MainWindow::datasetShown, this, [this] {
        QTimer::singleShot(kSettleMs, this, [this] { finish(capture() ? 0 : 1); });
    });
    connect(window, &MainWindow::loadFailed, this, [this](const QString& message) {
        std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(message));
        finish(1);
    });
    QTimer::singleShot(kTimeoutMs, this, [this] {
        std::fprintf(stderr, "epsilonlab: timed out waiting for the dataset\n");
        finish(3);
    });
}

bool ScreenshotRunner::capture() {
    const QPixmap pixmap = m_window->grab();
    const QString absolute = QFileInfo(m_path).absoluteFilePath();
    QDir().mkpath(QFileInfo(absolute).absolutePath());
    if (pixmap.isNull() || !pixmap.save(absolute, "PNG")) {
        std::fprintf(stderr, "epsilonlab: could not write %s\n", qPrintable(absolute));
        return false;
    }
    std::printf("%s\n", qPrintable(absolute));
    std::fflush(stdout);
    return true;
}

void ScreenshotRunner::finish(int exitCode) {
    if (m_done)
        return;
    m_done = true;
    QCoreApplication::exit(exitCode);
}

} // namespace elab::ui
