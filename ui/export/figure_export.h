#pragma once
// Exporting a figure with what is needed to reproduce it (docs/STYLE.md §7): the figure
// (PNG/SVG/PDF by suffix, one paint routine), its series as CSV beside it, and a JSON
// sidecar that is a session (dataset spec and checksum, settings, app version) plus the
// exported numbers, written by the view (ui/views/<id>/<id>_export.h). A sidecar opens as a
// session. GUI thread only.

#include "ui/charts/chart_data.h"
#include "ui/charts/chart_export.h"
#include "ui/session/session.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace elab::ui {

struct FigureExport {
    QString path; ///< the figure; its suffix picks the format
    charts::ExportOptions options;
    bool withCsv = true;     ///< <base>.csv beside it
    bool withSidecar = true; ///< <base>.json beside it
};

/// "<dir>/<base>.csv" and "<dir>/<base>.json" for a figure path "<dir>/<base>.<ext>".
QString csvPathFor(const QString& figurePath);
QString sidecarPathFor(const QString& figurePath);
/// Writes bytes to path atomically (QSaveFile); on failure, "path: reason" into *error (when given).
bool writeBytes(const QString& path, const QByteArray& bytes, QString* error);

/// Writes the figure and, as asked, the CSV (csv() if given, else the chart's series) and the
/// sidecar (bytes as given). Returns the files written; on failure sets *error (naming the
/// file) and returns what was written before it.
QStringList writeFigure(const charts::ChartData& chart, const QByteArray& sidecar, const FigureExport& request,
                        QString* error, const std::function<QByteArray()>& csv = {});

} // namespace elab::ui
