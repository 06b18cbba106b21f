#include "ui/views/audit/audit_export.h"

#include "ui/charts/chart_csv.h"
#include "ui/session/session_json.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/audit_json.h"
#include "core/report/result_json.h"

#include <cmath>

namespace elab::ui {

QByteArray auditSidecarJson(const Session& session, const AuditSettings& settings, const AuditState& state,
                            const core::Dataset* dataset, const QString& figureFile) {
    nlohmann::ordered_json j = detail::sessionJson(session);
    nlohmann::ordered_json e = detail::exportHeader(figureFile);
    if (dataset)
        e["data"] = core::datasetJson(*dataset);
    nlohmann::ordered_json audits = nlohmann::ordered_json::array();
    auto add = [&audits](core::MechanismKind kind, const core::AuditResult* r, const QString& error) {
        nlohmann::ordered_json a = r ? core::auditJson(*r) : nlohmann::ordered_json::object();
        a["mechanism"] = core::toString(kind);
        if (!r)
            a["not_audited"] = error.isEmpty() ? std::string("stopped before it finished") : error.toStdString();
        audits.push_back(std::move(a));
    };
    if (state.rows.empty())
        add(settings.mechanism.kind, state.result.get(), {});
    for (const AuditRow& row : state.rows)
        add(row.kind, row.result.get(), row.error);
    e["complete"] = state.finished;
    e["audits"] = std::move(audits);
    j["export"] = std::move(e);
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QByteArray auditScoresCsv(const AuditState& state) {
    QString csv = QStringLiteral("run,score_d,score_d_prime\n");
    auto field = [](double v) { return std::isfinite(v) ? charts::csvNumber(v) : QString(); };
    const std::size_t n = std::max(state.scoresD.size(), state.scoresDPrime.size());
    for (std::size_t t = 0; t < n; ++t) {
        const double d = t < state.scoresD.size() ? state.scoresD[t] : NAN;
        const double dp = t < state.scoresDPrime.size() ? state.scoresDPrime[t] : NAN;
        csv += QStringLiteral("%1,%2,%3\n").arg(t).arg(field(d), field(dp));
    }
    return csv.toUtf8();
}

} // namespace elab::ui
