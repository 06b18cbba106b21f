#pragma once
// A saved session: the dataset (spec, loader options, checksum), the view shown and every
// view's settings — everything needed to reproduce the views' numbers. JSON on disk:
//   {"format": "epsilonlab-session", "version": 1, "app_version": …,
//    "dataset": {"spec", "label", "missing", "sha256", optional "test" and "test_sha256"}, "view": "utility",
//    "utility": {…}, "stability": {…}, …one block per view with settings (ui/views/view_catalog.h)}
// Export sidecars carry the same object (plus what was exported), so a sidecar opens as a
// session. Any thread (plain values).

#include "ui/dataset/load_request.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace elab::ui {

struct Session {
    LoadRequest dataset;
    QString sha256;                           ///< of the dataset's stored bytes when saved ("" if unknown)
    QString testSha256;                       ///< of the test file's bytes (dataset.testSpec), likewise
    QString view = QStringLiteral("utility"); ///< a registered view's id
    /// Every view's settings block, by view id, as JSON text (each view reads and writes its own
    /// through settingsBlock / setSettingsBlock; ui/views/view_catalog.h: keepSettingsInSession).
    QMap<QString, QByteArray> viewSettings;

    /// The block of view id, or null when the session has none (the view's defaults apply).
    nlohmann::json settingsBlock(const QString& id) const;
    void setSettingsBlock(const QString& id, const nlohmann::ordered_json& block);
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
