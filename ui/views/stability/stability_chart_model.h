#pragma once
// The stability charts as data (Jain et al. §5, Figures 1–2): test error and marginal error
// |err(ρ) − err(0)| against the fraction ρ of training rows removed, one colour per method,
// the mean over repetitions as a line with dots and a ±1 sd band. Every method always has
// the same three series keys ("band:l2", "mean:l2", "points:l2"), so the live charts update
// in place while cells stream in. A pure function of what the controller holds, so the live
// view and every export draw the same thing. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/stability/stability_settings.h"
#include "ui/views/stability/stability_state.h"

namespace elab::ui {

enum class StabilityChart { TestError = 0, MarginalError = 1 };

/// The fixed colour of a method (Okabe–Ito).
QColor methodColor(core::StabilityMethod method);
/// "misclassification rate" or "mean squared error".
QString errorMeasureTitle(core::StabilityModel model);
/// One line with the settings for footnotes and sidecars: model, removal, dropout rate,
/// repetitions, seed, test fraction and the chosen λ once known.
QString stabilitySummary(const StabilitySettings& settings, const StabilityState& state);

/// datasetName appears in the title.
charts::ChartData buildStabilityChart(StabilityChart which, const StabilitySettings& settings,
                                      const StabilityState& state, const QString& datasetName);

} // namespace elab::ui
