// The GUI's composition root: parse the command line, hand over to the ui layer.

#include "app/gui/app_options.h"
#include "app/gui/application.h"
#include "core/util/memory_policy.h"

#include <QApplication>
#include <QStringList>

int main(int argc, char* argv[]) {
    // At start-up, before the first large buffer (core/util/memory_policy.h).
    elab::core::configureAllocatorForLongRuns();
    int exitCode = 0;
    if (elab::ui::isInfoRequest(argc, argv)) {
        // --help / --version print and exit; they must work without a display.
        QCoreApplication app(argc, argv);
        elab::ui::setApplicationInfo();
        elab::ui::parseAppOptions(QCoreApplication::arguments(), &exitCode);
        return exitCode;
    }
    // Our arguments as given: QGuiApplication takes "-session ID" (and "--session ID") for the
    // X11 session manager out of argv, which would swallow --session FILE.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QApplication app(argc, argv);
    elab::ui::initialiseApplication();
    const auto options = elab::ui::parseAppOptions(arguments, &exitCode);
    if (!options)
        return exitCode;
    return elab::ui::runApplication(*options);
}
