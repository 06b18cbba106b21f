#pragma once
// The Private dropout (PTR) view's figures and texts, pure functions of its settings and state:
// the probability that the test passes against ε (the Laplace formula, with the measured pass
// fraction at the slider's ε); Λ against the test's threshold 2·log(1/δ)/(nε) (they cross where
// passing becomes likely) with the noisy Λ̂ of one run; the readout. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/ptr/ptr_controller.h"

#include <QString>

namespace elab::ui {

/// held: the slider's handle is held; the legend names that state a number (ε, the measured
/// fraction, one run's Λ̂) leave it out, so that the legends are not laid out again for every step
/// of a drag (the readout states them on release); lines and points are the same.
charts::ChartData buildPassChart(const PtrSettings& settings, const PtrState& state, bool held = false);
charts::ChartData buildThresholdChart(const PtrSettings& settings, const PtrState& state, bool held = false);
/// Rich text: Λ and its feature, the threshold, one run (Λ̂, pass or fail, the released
/// feature), the measured pass fraction against the formula, the (2ε, δ) guarantee and what it
/// assumes. featureName(j) names feature j.
QString ptrReadoutHtml(const PtrSettings& settings, const PtrState& state,
                       const std::function<QString(core::Index)>& featureName);

} // namespace elab::ui
