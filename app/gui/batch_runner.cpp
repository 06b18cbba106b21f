#include "app/gui/batch_runner.h"

#include "ui/views/stability/stability_controller.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/export/figure_export.h"
#include "ui/shell/main_window.h"
#include "ui/session/session_actions.h"
#include "ui/views/utility/utility_view.h"

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
    UtilityController* utility = window->utilityController();
    connect(utility, &UtilityController::idle, this, &BatchRunner::checkDone);
    connect(utility, &UtilityController::failed, this, [this](const QString& message) {
        if (!m_job.waitForUtility)
            return;
        std::fprintf(stderr, "epsilonlab: utility view: %s\n", qPrintable(message));
        finish(1);
    });
    StabilityController* stability = window->stabilityController();
    connect(stability, &StabilityController::idle, this, &BatchRunner::checkDone);
    connect(stability, &StabilityController::failed, this, [this](const QString& message) {
        if (!m_job.waitForStability)
            return;
        std::fprintf(stderr, "epsilonlab: stability view: %s\n", qPrintable(message));
        finish(1);
    });
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
    if (!m_shown || m_done)
        return;
    if (m_job.waitForUtility) {
        const UtilityController* utility = m_window->utilityController();
        if (utility->isBusy() || !utility->state().sweepComplete)
            return; // idle() fires again when the rest has finished
    }
    if (m_job.waitForStability) {
        const StabilityController* stability = m_window->stabilityController();
        if (stability->isBusy() || !stability->state().complete)
            return;
    }
    QTimer::singleShot(kSettleMs, this, [this] { finish(writeAll() ? 0 : 1); });
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
