#include "ui/session/session_actions.h"

#include "ui/dataset/loaded_dataset.h"
#include "ui/shell/main_window.h"
#include "ui/views/view.h"

#include "core/data/builtin_catalog.h"
#include "core/data/generators.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

namespace elab::ui {

namespace {
constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentSessions";

/// "" if the dataset a session names can be found; else why not.
QString missingDataset(const QString& spec) {
    if (spec.startsWith(QLatin1String("builtin:"))) {
        const std::string name = spec.mid(8).section(QLatin1Char('?'), 0, 0).toStdString();
        if (core::findBuiltin(name) || core::isGeneratorName(name))
            return {};
        return QObject::tr("the session names the built-in dataset '%1', which this version does not have")
            .arg(QString::fromStdString(name));
    }
    if (!QFileInfo::exists(spec))
        return QObject::tr("the session's dataset %1 does not exist (moved or deleted?)").arg(spec);
    return {};
}
} // namespace

SessionActions::SessionActions(MainWindow* window) : QObject(window), m_window(window) {
    connect(window, &MainWindow::datasetShown, this, &SessionActions::onDatasetShown);
    connect(window, &MainWindow::loadFailed, this, [this](const QString& message) {
        if (!m_pending)
            return;
        m_pending.reset();
        fail(tr("Could not open session"),
             tr("%1: its dataset could not be loaded (%2). Nothing was changed.").arg(m_pendingOrigin, message));
    });
}

void SessionActions::addActionsTo(QMenu* menu) {
    QAction* open = menu->addAction(tr("Open &session…"), this, &SessionActions::openInteractively);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* save = menu->addAction(tr("&Save session…"), this, &SessionActions::saveInteractively);
    save->setShortcut(QKeySequence::Save);
    m_recentMenu = menu->addMenu(tr("Recent sessions"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &SessionActions::fillRecentMenu);
}

Session SessionActions::currentSession() const {
    Session s;
    const LoadedDataset& current = m_window->current();
    if (current.isValid()) {
        s.dataset = current.request;
        s.sha256 = QString::fromStdString(current.data->provenance.sha256);
        if (current.test)
            s.testSha256 = QString::fromStdString(current.test->provenance.sha256);
    }
    s.view = m_window->currentView();
    for (const auto& view : m_window->views())
        view->saveSettings(s);
    return s;
}

bool SessionActions::open(const QString& path) {
    QString error;
    const auto session = readSessionFile(path, &error);
    if (!session) {
        fail(tr("Could not open session"), error + QLatin1Char('\n') + tr("Nothing was changed."));
        return false;
    }
    if (!openSession(*session, path))
        return false;
    rememberRecent(path);
    return true;
}

bool SessionActions::openSession(const Session& session, const QString& origin) {
    if (const QString missing = missingDataset(session.dataset.spec); !missing.isEmpty()) {
        fail(tr("Could not open session"),
             QStringLiteral("%1: %2. ").arg(origin, missing) + tr("Nothing was changed."));
        return false;
    }
    m_pending = session;
    m_pendingOrigin = origin;
    m_window->load(session.dataset);
    return true;
}

void SessionActions::onDatasetShown(const LoadedDataset& loaded) {
    if (!m_pending || loaded.request.spec != m_pending->dataset.spec)
        return;
    const Session session = *m_pending;
    m_pending.reset();
    for (const auto& view : m_window->views())
        view->restoreSettings(session);
    m_window->showView(session.view);
    const QString sha = QString::fromStdString(loaded.data->provenance.sha256);
    const QString testSha = loaded.test ? QString::fromStdString(loaded.test->provenance.sha256) : QString();
    const bool testChanged = !session.testSha256.isEmpty() && testSha != session.testSha256;
    if ((!session.sha256.isEmpty() && sha != session.sha256) || testChanged)
        m_window->statusBar()->showMessage(
            tr("Note: %1 has changed since the session was saved (checksum differs); numbers may differ.")
                .arg(testChanged ? session.dataset.testSpec : session.dataset.spec),
            15000);
    emit applied(m_pendingOrigin);
}

bool SessionActions::save(const QString& path) {
    QString error;
    if (!writeSessionFile(path, currentSession(), &error)) {
        fail(tr("Could not save session"), error);
        return false;
    }
    rememberRecent(path);
    m_window->statusBar()->showMessage(tr("Session saved to %1").arg(path), 5000);
    return true;
}

QStringList SessionActions::recentFiles() const { return QSettings().value(QLatin1String(kRecentKey)).toStringList(); }

void SessionActions::rememberRecent(const QString& path) {
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
}

void SessionActions::fillRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { open(path); })->setToolTip(path);
}

void SessionActions::openInteractively() {
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), QString(),
                                                      tr("EpsilonLab sessions (*.json);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void SessionActions::saveInteractively() {
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save session"), QStringLiteral("session.json"),
                                                      tr("EpsilonLab sessions (*.json)"));
    if (!path.isEmpty())
        save(path);
}

void SessionActions::fail(const QString& title, const QString& message) {
    m_window->showError(title, title + QLatin1Char('.'), message);
    emit failed(message);
}

} // namespace elab::ui
