#include "app/gui/batch_runner.h"

#include "ui/jobs/compute_controller.h"
#include "ui/session/session_actions.h"
#include "ui/shell/animation_recorder.h"
#include "ui/shell/main_window.h"
#include "ui/views/view_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

namespace elab::ui {

namespace {
// Long enough for KDD Cup 99 on a slow machine; a hang must not block CI forever.
constexpr int kTimeoutMs = 600'000;
// A short pause once everything is computed, so that posted layout and chart updates have
// been processed before the window is rendered.
constexpr int kSettleMs = 150;

void print(const QString& path) {
    std::printf("%s\n", qPrintable(path));
    std::fflush(stdout);
}
} // namespace

BatchRunner::BatchRunner(MainWindow* window, BatchJob job, QObject* parent)
    : QObject(parent), m_window(window), m_job(std::move(job)) {
    window->setErrorDialogsEnabled(false);
    connect(window, &MainWindow::datasetShown, this, [this] {
        // A session's settings are applied on the same signal; look once they are.
        QTimer::singleShot(0, this, &BatchRunner::onDatasetShown);
    });
    connect(window, &MainWindow::loadFailed, this, [this](const QString& message) {
        std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(message));
        finish(1);
    });
    connect(window->sessionActions(), &SessionActions::failed, this, [this](const QString& message) {
        std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(message));
        finish(1);
    });
    for (std::size_t i = 0; i < window->views().size(); ++i) {
        ComputeControllerBase* controller = window->views()[i]->controller();
        if (!controller)
            continue;
        const QString id = window->viewType(i).id;
        connect(controller, &ComputeControllerBase::idle, this, &BatchRunner::checkDone);
        connect(controller, &ComputeControllerBase::failed, this, [this, id](const QString& message) {
            if (id != m_window->currentView())
                return;
            std::fprintf(stderr, "epsilonlab: %s view: %s\n", qPrintable(id), qPrintable(message));
            finish(1);
        });
    }
    QTimer::singleShot(kTimeoutMs, this, [this] {
        std::fprintf(stderr, "epsilonlab: timed out waiting for the computation\n");
        finish(3);
    });
}

void BatchRunner::onDatasetShown() {
    if (m_window->sessionActions()->isOpening())
        return; // another dataset is on its way (the session's)
    m_shown = true;
    checkDone();
}

void BatchRunner::checkDone() {
    if (!m_shown || m_done || m_writing)
        return;
    // The view shown: the one exported and captured (a view without a controller, like
    // "data", waits for nothing).
    if (View* view = m_window->view(m_window->currentView()); view && view->controller()) {
        if (view->controller()->isBusy())
            return; // idle() fires again when the rest has finished
        if (!view->complete()) {
            // Idle yet incomplete: the settings were refused (nothing will compute); say why.
            if (const QString error = view->controller()->lastError(); !error.isEmpty()) {
                std::fprintf(stderr, "epsilonlab: %s view: %s\n", qPrintable(m_window->currentView()),
                             qPrintable(error));
                finish(1);
            }
            return;
        }
    }
    m_writing = true; // from here on the view moves (animations): idle() no longer means "write"
    QTimer::singleShot(kSettleMs, this, [this] {
        if (!writeAll())
            finish(1);
        else
            recordAnimation(0);
    });
}

void BatchRunner::recordAnimation(std::size_t index) {
    if (index >= m_job.animations.size())
        return finish(0);
    AnimationRequest request = m_job.animations[index];
    request.path = QFileInfo(request.path).absoluteFilePath();
    AnimationRecorder* recorder = m_window->exportAnimation(request);
    connect(recorder, &AnimationRecorder::finished, this,
            [this, index](const QStringList& written, const QString& error) {
                for (const QString& file : written)
                    print(file);
                if (!error.isEmpty()) {
                    std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(error));
                    return finish(1);
                }
                QTimer::singleShot(0, this, [this, index] { recordAnimation(index + 1); });
            });
}

bool BatchRunner::captureWindow(const QString& path) {
    const QPixmap pixmap = m_window->grab();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QDir().mkpath(QFileInfo(absolute).absolutePath());
    if (pixmap.isNull() || !pixmap.save(absolute, "PNG")) {
        std::fprintf(stderr, "epsilonlab: could not write %s\n", qPrintable(absolute));
        return false;
    }
    print(absolute);
    return true;
}

bool BatchRunner::writeAll() {
    for (const QString& path : m_job.exports) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        QDir().mkpath(QFileInfo(absolute).absolutePath());
        charts::ExportOptions options;
        options.dpi = m_job.dpi;
        QString error;
        const QStringList written = m_window->exportCurrentView(absolute, options, &error);
        for (const QString& file : written)
            print(file);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(error));
            return false;
        }
    }
    return m_job.screenshot.isEmpty() || captureWindow(m_job.screenshot);
}

void BatchRunner::finish(int exitCode) {
    if (m_done)
        return;
    m_done = true;
    QCoreApplication::exit(exitCode);
}

} // namespace elab::ui
