#pragma once
// The Decision regions view's export beside its figure (ui/export): the JSON sidecar — the
// session plus {"export": {figure, created_utc, data (provenance), plane, guarantee, results}}
// — and the CSV of what the figure shows: every grid cell, every point and every boundary.
// GUI thread only.

#include "ui/export/figure_export.h"
#include "ui/views/regions/regions_settings.h"
#include "ui/views/regions/regions_state.h"

#include <QByteArray>

namespace elab::ui {

/// The sidecar of the regions in state (at state.result->eps); dataset (may be null): the loaded
/// data's provenance (core/report).
QByteArray regionsSidecarJson(const Session& session, const RegionsSettings& settings, const RegionsState& state,
                              const core::Dataset* dataset, const QString& figureFile);

/// The CSV, one row per grid cell, point or boundary vertex:
///   kind,draw,chain,class,x,y,agreement,nonprivate_class,misclassified
/// kind "cell" (centre; class: the majority class, agreement, the non-private model's class),
/// "train" or "test" (a point; misclassified: the fraction of draws that get it wrong),
/// "boundary" (draw r's chain c, vertex by vertex) or "nonprivate_boundary". Class names
/// quoted as RFC 4180 says; numbers %.17g.
QByteArray regionsCsv(const RegionsState& state);

} // namespace elab::ui
