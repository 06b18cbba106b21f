#pragma once
// The utility chart as data: measured mean and ±1 sd band, Taylor-estimated lines from each
// measuring point, the non-private level, the current ε with its measured value, the
// target and the proposed ε, and the verification steps. A pure function of what the
// controller holds, so the live view and every export draw the same thing. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/utility/utility_state.h"
#include "ui/widgets/utility_settings.h"

#include <optional>
#include <string>

namespace elab::ui {

/// Number of points of each estimated line (log-spaced over the x range).
inline constexpr int kEstimateSamples = 121;

QString metricTitle(core::UtilityMetric metric);
QString estimatorTitle(core::Estimator estimator);
QString formatEps(double eps); ///< "0.25", "1e-03", "∞"

/// datasetName appears in the title; proposedEps from UtilityController::proposedEps();
/// logY: a logarithmic utility axis (losses spanning decades); held: the slider's handle is held,
/// so the latest measured probe is drawn at its own ε even when the slider has moved on (at rest
/// only a probe at the slider's ε is drawn).
charts::ChartData buildUtilityChart(const UtilitySettings& settings, const UtilityState& state,
                                    std::optional<double> proposedEps, const QString& datasetName, bool logY = false,
                                    bool held = false);

/// One line with the guarantee, the seed and the assumptions, for footnotes and sidecars.
QString guaranteeSummary(const UtilitySettings& settings, const UtilityState& state);

} // namespace elab::ui
