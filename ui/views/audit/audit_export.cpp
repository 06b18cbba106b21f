#include "ui/views/audit/audit_export.h"

#include "ui/charts/chart_csv.h"
#include "ui/session/session_json.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/audit_json.h"
#include "core/report/one_run_audit_json.h"
#include "core/report/result_json.h"
#include "core/report/whitebox_audit_json.h"

#include <cmath>

namespace elab::ui {

QByteArray auditSidecarJson(const Session& session, const AuditSettings& settings, const AuditState& state,
                            const core::Dataset* dataset, const QString& figureFile) {
    nlohmann::ordered_json j = detail::sessionJson(session);
    nlohmann::ordered_json e = detail::exportHeader(figureFile);
    if (dataset)
        e["data"] = core::datasetJson(*dataset);
    nlohmann::ordered_json audits = nlohmann::ordered_json::array();
    auto add = [&audits](const AuditRow& row) {
        nlohmann::ordered_json a = row.oneRun     ? core::oneRunAuditJson(*row.oneRun)
                                   : row.whitebox ? core::whiteboxAuditJson(*row.whitebox)
                                   : row.result   ? core::auditJson(*row.result)
                                                  : nlohmann::ordered_json::object();
        a["mechanism"] = core::toString(row.kind);
        if (!row.audited())
            a["not_audited"] =
                row.error.isEmpty() ? std::string("stopped before it finished") : row.error.toStdString();
        audits.push_back(std::move(a));
    };
    if (state.rows.empty())
        add(AuditRow{settings.mechanism.kind, state.result, {}, state.oneRun, state.whitebox});
    for (const AuditRow& row : state.rows)
        add(row);
    e["method"] = core::optionName(auditMethodNames(), settings.method);
    e["complete"] = state.finished;
    e["audits"] = std::move(audits);
    j["export"] = std::move(e);
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QByteArray auditScoresCsv(const AuditState& state) {
    auto field = [](double v) { return std::isfinite(v) ? charts::csvNumber(v) : QString(); };
    if (state.oneRun) { // one row per canary: its column, coin and score
        QString csv = QStringLiteral("canary,feature,included,score\n");
        for (std::size_t i = 0; i < state.oneRun->canaries.size(); ++i) {
            const core::OneRunCanary& c = state.oneRun->canaries[i];
            csv += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(i)
                       .arg(static_cast<long long>(c.feature))
                       .arg(c.included ? 1 : 0)
                       .arg(field(c.score));
        }
        return csv.toUtf8();
    }
    if (const core::WhiteboxAuditResult* r = state.whitebox.get()) { // one row per trial of each side
        QString csv = QStringLiteral("run,trial,score_out,score_in\n");
        const std::size_t n = std::min(r->scoresOut.size(), r->scoresIn.size());
        const std::size_t perRun = r->runs > 0 ? n / static_cast<std::size_t>(r->runs) : n;
        for (std::size_t t = 0; t < n; ++t)
            csv += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(perRun > 0 ? t / perRun : 0)
                       .arg(perRun > 0 ? t % perRun : t)
                       .arg(field(r->scoresOut[t]), field(r->scoresIn[t]));
        return csv.toUtf8();
    }
    QString csv = QStringLiteral("run,score_d,score_d_prime\n");
    const std::size_t n = std::max(state.scoresD.size(), state.scoresDPrime.size());
    for (std::size_t t = 0; t < n; ++t) {
        const double d = t < state.scoresD.size() ? state.scoresD[t] : NAN;
        const double dp = t < state.scoresDPrime.size() ? state.scoresDPrime[t] : NAN;
        csv += QStringLiteral("%1,%2,%3\n").arg(t).arg(field(d), field(dp));
    }
    return csv.toUtf8();
}

} // namespace elab::ui
