#pragma once
// The Privacy audit view's texts, pure functions of its settings and state: the verdict, the
// details of the attack, the comparison table and the assumptions. Any thread.

#include "ui/views/audit/audit_settings.h"
#include "ui/views/audit/audit_state.h"

#include <QString>

namespace elab::ui {

/// The verdict in words (empty until the chosen mechanism's audit has finished).
QString auditVerdictText(const AuditState& state);
/// The attack and its numbers (rich text): canary, adjacency, T, τ, error rates and their
/// Clopper–Pearson bounds, the largest certifiable ε, the time.
QString auditDetailsHtml(const AuditSettings& settings, const AuditState& state);
/// Every audited mechanism (rich text; empty when compareAll is off).
QString auditTableHtml(const AuditState& state);
/// The assumptions the audit rests on.
QString auditAssumptions(AuditMethod method = AuditMethod::TwoDatasets);

/// A number as the audit's figures and texts show it (3 significant digits by default; "–" when
/// not finite).
QString auditNumber(double v, int digits = 3);

} // namespace elab::ui
