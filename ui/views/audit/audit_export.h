#pragma once
// The Privacy audit view's export beside its figures (ui/export): the JSON sidecar — the session
// plus {"export": {figure, created_utc, data, audits: [every audited mechanism, core's auditJson
// with every run's score]}} — and the CSV of the score figure: every run's score on D and D′.
// GUI thread only.

#include "ui/export/figure_export.h"
#include "ui/views/audit/audit_settings.h"
#include "ui/views/audit/audit_state.h"

#include <QByteArray>

namespace elab::ui {

QByteArray auditSidecarJson(const Session& session, const AuditSettings& settings, const AuditState& state,
                            const core::Dataset* dataset, const QString& figureFile);

/// One row per run: run,score_d,score_d_prime (%.17g; empty: the run did not finish).
QByteArray auditScoresCsv(const AuditState& state);

} // namespace elab::ui
