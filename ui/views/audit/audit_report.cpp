// AuditTab's part of the decision report: the verdict of each finished audit, read back from
// the same JSON as `epsilonlab-cli audit` writes (core/report/*audit_json.h), so that the CLI's
// --audit file and the tab give the report the same lines.

#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_tab.h"

#include "core/report/audit_json.h"
#include "core/report/decision_report.h"
#include "core/report/one_run_audit_json.h"
#include "core/report/whitebox_audit_json.h"

namespace elab::ui {

namespace {

nlohmann::ordered_json rowJson(core::MechanismKind kind, const core::AuditResult* result,
                               const core::OneRunAuditResult* oneRun, const core::WhiteboxAuditResult* whitebox) {
    nlohmann::ordered_json j = result   ? core::auditJson(*result, false)
                               : oneRun ? core::oneRunAuditJson(*oneRun, false)
                                        : core::whiteboxAuditJson(*whitebox, false);
    j["mechanism"] = core::toString(kind);
    return j;
}

} // namespace

void AuditTab::addToReport(core::DecisionInputs& report) const {
    const AuditState& state = m_controller->state();
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    if (!state.rows.empty()) {
        for (const AuditRow& row : state.rows)
            if (row.audited())
                list.push_back(rowJson(row.kind, row.result.get(), row.oneRun.get(), row.whitebox.get()));
    } else if (state.result || state.oneRun || state.whitebox) {
        list.push_back(rowJson(m_controller->settings().mechanism.kind, state.result.get(), state.oneRun.get(),
                               state.whitebox.get()));
    }
    if (list.empty()) {
        report.auditNote = "none was run in the Privacy audit tab";
        return;
    }
    report.audit = core::auditLinesFromJson(nlohmann::ordered_json{{"audits", list}}.dump(), "the Privacy audit tab");
    if (!state.finished)
        report.auditNote = "the audit had not finished: the lines are those that had";
}

} // namespace elab::ui
