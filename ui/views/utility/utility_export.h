#pragma once
// The utility view's export: its sidecar (a session plus {"export": {figure, created_utc,
// data, guarantee, results}}) and its figure written with CSV and sidecar (ui/export).
// GUI thread only.

#include "ui/export/figure_export.h"
#include "ui/views/utility/utility_state.h"
#include "ui/widgets/utility_settings.h"

namespace elab::ui {

/// The sidecar: the session plus {"export": {figure, created_utc, data, guarantee, results}}.
QByteArray sidecarJson(const Session& session, const UtilityState& state, const QString& figureFile);

/// With compared mechanisms, the figure's CSV in long format: mechanism,eps,measured_mean,measured_std,
/// the chosen mechanism's rows first, then each compared one's (grid points measured so far).
QByteArray comparisonCsv(const UtilitySettings& settings, const UtilityState& state);

/// Writes the figure and, as asked, the CSV and sidecar (writeFigure).
QStringList exportFigure(const charts::ChartData& chart, const Session& session, const UtilityState& state,
                         const FigureExport& request, QString* error);

} // namespace elab::ui
