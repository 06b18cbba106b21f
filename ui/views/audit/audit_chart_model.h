#pragma once
// The Privacy audit view's figures, pure functions of its settings and state (the live view and
// every export draw the same): the two score histograms (runs on D and on D′) with the threshold
// τ; ε_LB against the claimed ε, one bar per audited mechanism, with the largest value the runs
// could certify. Its texts are in audit_text.h. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/audit/audit_settings.h"
#include "ui/views/audit/audit_state.h"

#include <QString>

namespace elab::ui {

charts::ChartData buildScoreChart(const AuditSettings& settings, const AuditState& state);
charts::ChartData buildBoundChart(const AuditSettings& settings, const AuditState& state);
} // namespace elab::ui
