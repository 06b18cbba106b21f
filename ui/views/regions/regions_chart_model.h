#pragma once
// The Decision regions as chart data (issue 11). Under everything a raster of the grid: each
// cell's majority class in its class colour, fainter where the draws disagree (uncertain areas
// look uncertain); or one draw's regions; or the agreement alone on a sequential scale with a
// colour bar. Over it each draw's boundary as thin grey lines (one series per chain), the
// non-private boundary dashed and dark, the training rows as filled dots and the test rows as
// rings in their class colours (the palette of every chart), and a red ring round the points
// most draws misclassify. For given settings the series keys are fixed (draws × a chain
// capacity, and a class capacity of at least four), also on the empty chart shown while a plane
// is prepared: a slider step, and a switch between datasets of up to four classes, only
// replace()s points (no rebuild of the Qt chart). The title carries the picture's ε (the
// marker). A pure function of what the controller holds, so the live view and every export
// draw the same. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/regions/regions_settings.h"
#include "ui/views/regions/regions_state.h"

#include <QImage>

namespace elab::ui {

/// The colour of class k of `classes`, the same for regions and points: the charts' Okabe–Ito
/// palette up to 8 classes; beyond, Paul Tol's "muted" palette of 10 colours designed to stay
/// apart for colour-blind readers (digits' ten classes, each its own colour; past 10 they repeat).
QColor regionsClassColor(int k, int classes = 2);
/// The ring round the points most draws misclassify.
QColor misclassifiedColor();
/// Opacity of a majority cell whose agreement is a, among K classes: full at a = 1, faint at
/// a = 1/K (the draws split evenly).
double agreementOpacity(double agreement, int classes);

/// The fill of result on its gridSize² grid (row 0 at the top), as settings.fill says; null if
/// the result does not match the grid.
QImage regionsImage(const core::RegionsResult& result, int gridSize, int classes, RegionsFill fill, int fillDraw);

/// The figure; datasetName appears in the footnote. dragging (the slider's handle is held): the
/// title leaves out the picture's ε, which the readout beside the chart states for every picture.
/// A new QChart title lays the whole chart out again, ≈ 20 % of the GUI thread's time in a drag
/// of ≈ 57 pictures a second (BENCHMARKS.md, fourteenth session); the title gains ε on release.
charts::ChartData buildRegionsChart(const RegionsSettings& settings, const RegionsState& state,
                                    const QString& datasetName, bool dragging = false);

} // namespace elab::ui
