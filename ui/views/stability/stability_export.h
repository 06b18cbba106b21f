#pragma once
// The stability view's export: its sidecar and each of its two charts written with CSV and
// sidecar (ui/export). GUI thread only.

#include "ui/export/figure_export.h"
#include "ui/views/stability/stability_state.h"

namespace elab::ui {

/// The stability view's sidecar: the session plus {"export": {figure, created_utc, results:
/// {rho, methods[] {method, test_error {mean, sd}, marginal_error {mean, sd}, lambda}}}}.
QByteArray stabilitySidecarJson(const Session& session, const StabilityState& state, const QString& figureFile);

/// One stability chart with its CSV and sidecar (writeFigure).
QStringList exportStabilityFigure(const charts::ChartData& chart, const Session& session, const StabilityState& state,
                                  const FigureExport& request, QString* error);

} // namespace elab::ui
