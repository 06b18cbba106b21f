#pragma once
// The Privacy audit view's figures and texts, pure functions of its settings and state (the live
// view and every export draw the same): the two score histograms (runs on D and on D′) with the
// threshold τ; ε_LB against the claimed ε, one bar per audited mechanism, with the largest value
// the runs could certify; the verdict; the details of the attack; the comparison table. Any
// thread.

#include "ui/charts/chart_data.h"
#include "ui/views/audit/audit_settings.h"
#include "ui/views/audit/audit_state.h"

#include <QString>

namespace elab::ui {

charts::ChartData buildScoreChart(const AuditSettings& settings, const AuditState& state);
charts::ChartData buildBoundChart(const AuditSettings& settings, const AuditState& state);
/// The verdict in words (empty until the chosen mechanism's audit has finished).
QString auditVerdictText(const AuditState& state);
/// The attack and its numbers (rich text): canary, adjacency, T, τ, error rates and their
/// Clopper–Pearson bounds, the largest certifiable ε, the time.
QString auditDetailsHtml(const AuditSettings& settings, const AuditState& state);
/// Every audited mechanism (rich text; empty when compareAll is off).
QString auditTableHtml(const AuditState& state);
/// The assumptions the audit rests on.
QString auditAssumptions(AuditMethod method = AuditMethod::TwoDatasets);

} // namespace elab::ui
