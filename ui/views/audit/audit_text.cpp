#include "ui/views/audit/audit_text.h"

#include "ui/widgets/eps_text.h"
#include "ui/widgets/settings_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QStringList>

namespace elab::ui {

QString auditNumber(double v, int digits) { return formatNumber(v, digits, NumberForm::Printf, QStringLiteral("–")); }

namespace {

QString textNumber(double v, int digits = 3) { return auditNumber(v, digits); }

} // namespace

QString auditAssumptions(AuditMethod method) {
    if (method == AuditMethod::Whitebox)
        return QStringLiteral(
            "A white-box audit trains DP-SGD T times with gradient canaries: extra examples whose gradient is one "
            "weight, clipped to C and sampled at the rows' rate, half of them in and half out in each run. The "
            "attacker sees every step's noisy sum (iterates: at the weights of features no training row uses; "
            "residual: at every weight, the sampled rows' sum taken off — an attacker who knows the batch, as DP-SGD's "
            "proof allows) and scores each canary weight by its likelihood ratio under the claimed σ (Nasr et al. "
            "2021, 2023; MATH.md §5.2). τ and the Clopper–Pearson bound as for two datasets; every weight of every "
            "run is one trial.");
    if (method == AuditMethod::OneRun)
        return QStringLiteral(
            "A one-run audit trains the mechanism once with m canaries, each a unit row along its own column put in or "
            "left out by its own fair coin (the mechanism's adjacency per canary), scores every canary by its margin "
            "under the released model, and counts right guesses among the highest and lowest scores (Steinke, Nasr & "
            "Jagielski 2023, Theorem 3.1; MATH.md §5.1). One fit instead of thousands; with one canary per column its "
            "power is capped by the number of columns, so on small data it rarely shows more than 0.");
    return QStringLiteral(
        "An audit runs the mechanism T times on D and T times on its neighbour D′ (the mechanism's own adjacency: "
        "the last row replaced by the canary, or the canary added) with fresh noise, and scores each released model "
        "by the canary's margin. τ is chosen on the first half of the runs and the error rates are measured on the "
        "second half, with Clopper–Pearson bounds (MATH.md §5). ε_LB is a lower bound: any value below the claim is "
        "consistent with it, and it cannot exceed about log(T/2) whatever the mechanism. The ring (observed) is the "
        "same "
        "formula on the observed rates, without confidence: what the attack saw, not a bound.");
}

QString auditVerdictText(const AuditState& state) {
    if (state.oneRun)
        return QString::fromStdString(core::oneRunAuditVerdict(*state.oneRun));
    if (state.whitebox)
        return QString::fromStdString(core::whiteboxAuditVerdict(*state.whitebox));
    if (!state.result)
        return {};
    return QString::fromStdString(core::auditVerdict(*state.result));
}

namespace {

QString oneRunDetailsHtml(const AuditSettings& s, const core::OneRunAuditResult& r) {
    const core::OneRunBound& b = r.bound;
    QStringList lines;
    lines << QStringLiteral("<b>Canaries:</b> %1 unit rows along the least-covered columns (%2 asked; one per "
                            "column), each in or out by its own coin; %3 in")
                 .arg(static_cast<long long>(r.canaries.size()))
                 .arg(r.canariesAsked)
                 .arg(std::count_if(r.canaries.begin(), r.canaries.end(),
                                    [](const core::OneRunCanary& c) { return c.included; }));
    lines << QStringLiteral("<b>Neighbours:</b> %1 per canary; δ = %2; one private fit on %3 rows; seed %4; %5 s")
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), textNumber(r.delta))
                 .arg(static_cast<long long>(r.trainingRows))
                 .arg(s.seed)
                 .arg(textNumber(r.seconds));
    lines << QStringLiteral("<b>Guess:</b> the %1 highest scores in, the %2 lowest out: %3 of %4 right (the best of "
                            "%5 guess sizes, each at α/%5)")
                 .arg(b.best.kIn)
                 .arg(b.best.kOut)
                 .arg(b.best.correct)
                 .arg(b.best.guesses)
                 .arg(static_cast<long long>(b.grid.size()));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with %4 canaries)")
                 .arg(textNumber(b.epsLB), textNumber(r.claimedEps), textNumber(b.maxCertifiable))
                 .arg(b.canaries);
    return lines.join(QStringLiteral("<br>"));
}

QString whiteboxDetailsHtml(const AuditSettings& s, const core::WhiteboxAuditResult& r) {
    const core::AuditBound& b = r.bound;
    QStringList lines;
    lines << QStringLiteral("<b>Canaries:</b> %1 weights per run (%2 view), half in and half out; %3")
                 .arg(static_cast<long long>(r.canaries.size()))
                 .arg(QString::fromLatin1(core::toString(r.view)))
                 .arg(r.view == core::WhiteboxView::Iterates
                          ? QStringLiteral("the weights of %1 features no training row uses")
                                .arg(static_cast<long long>(r.zeroFeatures.size()))
                          : QStringLiteral("every weight, the sampled rows' sum taken off"));
    lines << QStringLiteral("<b>Training:</b> σ = %1, q = %2, %3 steps, C = %4; %5 per canary; δ = %6")
                 .arg(textNumber(r.sigma, 4), textNumber(r.q, 3))
                 .arg(r.steps)
                 .arg(textNumber(r.canaryNorm))
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), textNumber(r.delta));
    lines << QStringLiteral("<b>Runs:</b> %1 trainings; %2 trials per side (%3 evaluate); seed %4; %5 s")
                 .arg(r.runs)
                 .arg(static_cast<long long>(r.scoresOut.size()))
                 .arg(b.evaluated)
                 .arg(s.seed)
                 .arg(textNumber(r.seconds));
    lines << QStringLiteral("<b>Attack:</b> say in when the score ≥ τ = %1: false positives %2 (≤ %3), false "
                            "negatives %4 (≤ %5)")
                 .arg(textNumber(b.threshold, 4), textNumber(b.fpr), textNumber(b.fprUpper), textNumber(b.fnr),
                      textNumber(b.fnrUpper));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with these trials)")
                 .arg(textNumber(b.epsLB), textNumber(r.claimedEps), textNumber(b.maxCertifiable));
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

QString auditDetailsHtml(const AuditSettings& s, const AuditState& state) {
    if (s.method == AuditMethod::OneRun)
        return state.oneRun ? oneRunDetailsHtml(s, *state.oneRun) : QString();
    if (s.method == AuditMethod::Whitebox)
        return state.whitebox ? whiteboxDetailsHtml(s, *state.whitebox) : QString();
    if (!state.result)
        return state.runsDone > 0 ? QStringLiteral("%1 of %2 runs done.").arg(state.runsDone).arg(2 * s.runs)
                                  : QString();
    const core::AuditResult& r = *state.result;
    const core::AuditBound& b = r.bound;
    QStringList lines;
    lines << QStringLiteral("<b>Canary:</b> %1").arg(QString::fromStdString(r.canary.description).toHtmlEscaped());
    lines << QStringLiteral("<b>Neighbours:</b> %1; δ = %2")
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), textNumber(r.delta));
    lines << QStringLiteral("<b>Runs:</b> %1 per neighbour (%2 choose τ, %3 evaluate); seed %4; %5 s")
                 .arg(r.runs)
                 .arg(r.runs - b.evaluated)
                 .arg(b.evaluated)
                 .arg(s.seed)
                 .arg(textNumber(r.seconds));
    lines << QStringLiteral(
                 "<b>Attack:</b> say D′ when the score ≥ τ = %1: false positives %2 (≤ %3), false negatives %4 "
                 "(≤ %5), bounds at %6 % confidence each")
                 .arg(textNumber(b.threshold, 4), textNumber(b.fpr), textNumber(b.fprUpper), textNumber(b.fnr),
                      textNumber(b.fnrUpper), textNumber(100.0 * (1.0 - r.alpha / 2.0)));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with these runs)")
                 .arg(textNumber(b.epsLB), textNumber(r.claimedEps), textNumber(b.maxCertifiable));
    return lines.join(QStringLiteral("<br>"));
}

QString auditTableHtml(const AuditState& state) {
    if (state.rows.empty())
        return {};
    QString html = QStringLiteral(
        "<table cellspacing='0' cellpadding='3'><tr><th align='left'>Mechanism</th><th>claimed ε</th>"
        "<th>δ</th><th>adjacency</th><th>ε_LB</th><th>most certifiable</th><th>verdict</th><th>time</th></tr>");
    // One audited row, by either method.
    const auto cells = [](double claimed, double delta, core::Adjacency adjacency, double epsLB, double certifiable,
                          bool violated, double seconds) {
        const QString verdict = violated ? QStringLiteral("<span style='color:#b01e1e'><b>violated</b></span>")
                                         : QStringLiteral("<span style='color:#2c8a3c'>consistent</span>");
        return QStringLiteral(
                   "<td align='right'>%1</td><td align='right'>%2</td><td>%3</td><td align='right'><b>%4</b></td>"
                   "<td align='right'>%5</td><td>%6</td><td align='right'>%7 s</td></tr>")
            .arg(textNumber(claimed), textNumber(delta), QString::fromLatin1(core::toString(adjacency)),
                 textNumber(epsLB), textNumber(certifiable), verdict, textNumber(seconds, 2));
    };
    for (const AuditRow& row : state.rows) {
        html += QStringLiteral("<tr><td>%1</td>").arg(mechanismName(row.kind).toHtmlEscaped());
        if (const core::OneRunAuditResult* one = row.oneRun.get())
            html += cells(one->claimedEps, one->delta, one->adjacency, one->bound.epsLB, one->bound.maxCertifiable,
                          one->violated(), one->seconds);
        else if (const core::AuditResult* two = row.result.get())
            html += cells(two->claimedEps, two->delta, two->adjacency, two->bound.epsLB, two->bound.maxCertifiable,
                          two->violated(), two->seconds);
        else
            html += QStringLiteral("<td colspan='7'>%1</td></tr>")
                        .arg(row.error.isEmpty() ? QStringLiteral("waiting…")
                                                 : QStringLiteral("not audited: ") + row.error.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

} // namespace elab::ui
