#include "ui/application.h"

#include "ui/controllers/load_request.h"
#include "ui/main_window.h"
#include "ui/screenshot_runner.h"

#include <QApplication>
#include <QStyleFactory>

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
    MainWindow window;
    window.resize(options.size);
    LoadRequest request;
    request.spec = options.data;
    request.options.csv.labelColumn = options.label.toStdString();
    request.options.csv.missing = options.missing;

    std::unique_ptr<ScreenshotRunner> screenshot;
    if (options.screenshotMode())
        screenshot = std::make_unique<ScreenshotRunner>(&window, options.screenshot);
    window.show();
    window.load(request);
    return QApplication::exec();
}

} // namespace elab::ui
