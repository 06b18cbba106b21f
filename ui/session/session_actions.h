#pragma once
// File ▸ Open session…, Save session…, Recent sessions for the main window. Opening parses
// and checks the file first (a bad file or a missing dataset: a clear message, nothing
// changes), then loads the session's dataset; its settings are applied only once that
// dataset is shown — if the load fails, the previous dataset and settings stay.
// GUI thread only.

#include "ui/session/session.h"

#include <QObject>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace elab::ui {

class MainWindow;
struct LoadedDataset;

class SessionActions : public QObject {
    Q_OBJECT
public:
    explicit SessionActions(MainWindow* window);

    void addActionsTo(QMenu* menu);
    /// The session describing what the window shows now.
    Session currentSession() const;

    /// Starts opening path; false (and failed()) if the file is rejected before anything
    /// changes. applied() follows once the dataset is shown.
    bool open(const QString& path);
    /// Opens an already parsed session (the --session command line goes through open()).
    bool openSession(const Session& session, const QString& origin);
    bool save(const QString& path);
    QStringList recentFiles() const;
    bool isOpening() const { return m_pending.has_value(); }

signals:
    void applied(const QString& origin);
    void failed(const QString& message);

private:
    void openInteractively();
    void saveInteractively();
    void rememberRecent(const QString& path);
    void fillRecentMenu();
    void onDatasetShown(const LoadedDataset& loaded);
    void fail(const QString& title, const QString& message);

    MainWindow* m_window;
    QMenu* m_recentMenu = nullptr;
    std::optional<Session> m_pending;
    QString m_pendingOrigin;
};

} // namespace elab::ui
