#pragma once
// A saved session: the dataset (spec, loader options, checksum) and the utility explorer's
// settings — everything needed to reproduce the view's numbers. JSON on disk:
//   {"format": "epsilonlab-session", "version": 1, "app_version": …,
//    "dataset": {"spec", "label", "missing", "sha256"}, "view": "utility", "utility": {…},
//    "stability": {…}}
// Export sidecars carry the same object (plus what was exported), so a sidecar opens as a
// session. Any thread (plain values).

#include "ui/dataset/load_request.h"
#include "ui/views/stability/stability_settings.h"
#include "ui/views/utility/utility_settings.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace elab::ui {

struct Session {
    LoadRequest dataset;
    QString sha256;          ///< of the dataset's stored bytes when saved ("" if unknown)
    QString view = QStringLiteral("utility"); ///< "utility", "stability" or "data"
    UtilitySettings utility;
    StabilitySettings stability; ///< optional in the file (older sessions: the defaults)
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
