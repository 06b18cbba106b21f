#include "app/gui/application.h"

#include "app/gui/batch_runner.h"
#include "core/util/vector_state.h"
#include "ui/dataset/load_request.h"
#include "ui/lessons/lesson_player.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/shell/presentation_mode.h"

#include <QApplication>
#include <QStyleFactory>

#include <cstdio>
#include <memory>

namespace elab::ui {

void setApplicationInfo() {
    QCoreApplication::setApplicationName(QStringLiteral("EpsilonLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("EpsilonLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(EPSILONLAB_VERSION));
}

void initialiseApplication() {
    setApplicationInfo();
    QApplication::setApplicationDisplayName(QStringLiteral("EpsilonLab"));
    // Fusion looks the same on every desktop and offscreen, so screenshots match the app.
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);
}

int runApplication(const AppOptions& options) {
    // QApplication's constructor and Qt's string code (the option parser) leave this thread's
    // upper vector state dirty; threads started from here would inherit it, and its own SSE
    // code would run slower (core/util/vector_state.h). Job threads clear it again themselves.
    core::clearUpperVectorState();
    MainWindow window;
    window.resize(options.size);
    std::unique_ptr<BatchRunner> batch;
    if (options.batchMode()) {
        BatchJob job;
        job.screenshot = options.screenshot;
        job.exports = options.exports;
        job.animations = options.animations;
        job.dpi = options.dpi;
        batch = std::make_unique<BatchRunner>(&window, job);
    }
    window.show();
    window.showView(options.view);
    if (options.presentation)
        window.presentationMode()->enter(!batch); // batch: at --size, as on a screen of that size

    if (!options.lesson.isEmpty()) {
        QString error;
        const auto lesson = readLesson(options.lesson, &error);
        if (lesson && static_cast<std::size_t>(options.step) > lesson->steps.size())
            error = QStringLiteral("%1: no step %2 (the lesson has %3)")
                        .arg(options.lesson)
                        .arg(options.step)
                        .arg(lesson->steps.size());
        if (!error.isEmpty()) {
            std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(error));
            return 2;
        }
        if (window.lessons()->openLesson(*lesson, options.lesson, options.step - 1))
            return QApplication::exec();
        if (batch)
            return 1; // the step was rejected (message printed)
    }

    if (!options.session.isEmpty() && window.sessionActions()->open(options.session))
        return QApplication::exec();
    if (!options.session.isEmpty() && batch)
        return 1; // the session was rejected (message printed); nothing to compute

    StartOptions start;
    if (!options.mechanism.isEmpty())
        start.mechanism = core::mechanismKindFromString(options.mechanism.toStdString());
    start.eps = options.eps;
    start.target = options.target;
    for (const QString& name : options.compare)
        start.compareWith.push_back(core::mechanismKindFromString(name.toStdString()));
    for (const auto& view : window.views())
        view->applyStartOptions(start);

    LoadRequest request;
    request.spec = options.data;
    request.testSpec = options.test;
    request.options.csv.labelColumn = options.label.toStdString();
    request.options.csv.missing = options.missing;
    request.bounds = options.bounds;
    if (options.privateBounds) {
        request.privateBounds = core::PrivateBoundsOptions{};
        request.privateBounds->epsilon = *options.privateBounds;
    }
    window.load(request);
    return QApplication::exec();
}

} // namespace elab::ui
