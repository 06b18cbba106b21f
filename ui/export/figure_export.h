#pragma once
// Exporting a figure with what is needed to reproduce it (docs/STYLE.md §7): the figure
// (PNG/SVG/PDF by suffix, one paint routine), its series as CSV beside it, and a JSON
// sidecar that is a session (dataset spec and checksum, mechanism, parameters, grid, seed,
// app version) plus the exported numbers. A sidecar opens as a session. GUI thread only.

#include "ui/charts/chart_data.h"
#include "ui/charts/chart_export.h"
#include "ui/views/stability/stability_state.h"
#include "ui/views/utility/utility_state.h"
#include "ui/session/session.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace elab::ui {

struct FigureExport {
    QString path;                    ///< the figure; its suffix picks the format
    charts::ExportOptions options;
    bool withCsv = true;             ///< <base>.csv beside it
    bool withSidecar = true;         ///< <base>.json beside it
};

/// "<dir>/<base>.csv" and "<dir>/<base>.json" for a figure path "<dir>/<base>.<ext>".
QString csvPathFor(const QString& figurePath);
QString sidecarPathFor(const QString& figurePath);

/// The sidecar: the session plus {"export": {figure, created_utc, data, guarantee, results}}.
QByteArray sidecarJson(const Session& session, const UtilityState& state, const QString& figureFile);

/// Writes the figure and, as asked, the CSV and sidecar. Returns the files written; on
/// failure sets *error (naming the file) and returns what was written before it.
QStringList exportFigure(const charts::ChartData& chart, const Session& session, const UtilityState& state,
                         const FigureExport& request, QString* error);

/// The stability view's sidecar: the session plus {"export": {figure, created_utc, results:
/// {rho, methods[] {method, test_error {mean, sd}, marginal_error {mean, sd}, lambda}}}}.
QByteArray stabilitySidecarJson(const Session& session, const StabilityState& state, const QString& figureFile);

/// One stability chart with its CSV and sidecar, as exportFigure.
QStringList exportStabilityFigure(const charts::ChartData& chart, const Session& session,
                                  const StabilityState& state, const FigureExport& request, QString* error);

} // namespace elab::ui
