#pragma once
// A saved session: the dataset (spec, loader options, checksum), the view shown and every
// view's settings — everything needed to reproduce the views' numbers. JSON on disk:
//   {"format": "epsilonlab-session", "version": 1, "app_version": …,
//    "dataset": {"spec", "label", "missing", "sha256"}, "view": "utility", "utility": {…},
//    "stability": {…}, …one block per view with settings (ui/views/view_catalog.h)}
// Export sidecars carry the same object (plus what was exported), so a sidecar opens as a
// session. Any thread (plain values).

#include "ui/dataset/load_request.h"
#include "ui/views/stability/stability_settings.h"
#include "ui/views/utility/utility_settings.h"

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace elab::ui {

struct Session {
    LoadRequest dataset;
    QString sha256;          ///< of the dataset's stored bytes when saved ("" if unknown)
    QString view = QStringLiteral("utility"); ///< a registered view's id
    UtilitySettings utility;
    StabilitySettings stability; ///< optional in the file (older sessions: the defaults)
    /// The blocks of views without a member above, by view id, as JSON text (a new view's
    /// ViewType reads and writes its block here; ui/views/view_catalog.h).
    QMap<QString, QByteArray> viewSettings;
};

/// Pretty-printed JSON (UTF-8).
QByteArray sessionToJson(const Session& session);

/// Parses a session; on any problem returns nullopt and sets *error to what is wrong and
/// where ("utility.mechanism.kind: unknown mechanism 'x'"). Nothing is applied here.
std::optional<Session> sessionFromJson(const QByteArray& json, QString* error);

/// Reads and parses a file; errors name the file.
std::optional<Session> readSessionFile(const QString& path, QString* error);
/// Writes atomically (QSaveFile); false with *error on failure.
bool writeSessionFile(const QString& path, const Session& session, QString* error);

} // namespace elab::ui
