#include "ui/views/audit/audit_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/widgets/eps_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

constexpr int kBins = 40;
const QColor kColorD(0x1f, 0x77, 0xb4);
const QColor kColorDPrime(0xff, 0x7f, 0x0e);
const QColor kClaim(0xb0, 0x1e, 0x1e);
const QColor kConsistent(0x2c, 0x8a, 0x3c);

QString num(double v, int digits = 3) { return formatNumber(v, digits, NumberForm::Printf, QStringLiteral("–")); }

QString title(core::MechanismKind kind) { return QString::fromUtf8(core::mechanismInfo(kind).title); }

/// The step outline of the finite scores in [lo, hi] over kBins bins: (lo,0) (lo,c0) (lo+w,c0) …
QVector<QPointF> outline(const std::vector<double>& scores, double lo, double hi) {
    std::vector<int> counts(kBins, 0);
    const double width = (hi - lo) / kBins;
    for (double s : scores)
        if (std::isfinite(s))
            ++counts[static_cast<std::size_t>(std::clamp(static_cast<int>((s - lo) / width), 0, kBins - 1))];
    QVector<QPointF> points{{lo, 0.0}};
    for (int b = 0; b < kBins; ++b) {
        points.append({lo + b * width, double(counts[b])});
        points.append({lo + (b + 1) * width, double(counts[b])});
    }
    points.append({hi, 0.0});
    return points;
}

/// The audited rows to draw: the table's, or the chosen mechanism alone.
std::vector<AuditRow> shownRows(const AuditSettings& s, const AuditState& state) {
    if (!state.rows.empty())
        return state.rows;
    return {AuditRow{s.mechanism.kind, state.result, {}}};
}

} // namespace

QString auditAssumptions() {
    return QStringLiteral(
        "An audit runs the mechanism T times on D and T times on its neighbour D′ (the mechanism's own adjacency: "
        "the last row replaced by the canary, or the canary added) with fresh noise, and scores each released model "
        "by the canary's margin. τ is chosen on the first half of the runs and the error rates are measured on the "
        "second half, with Clopper–Pearson bounds (MATH.md §5). ε_LB is a lower bound: any value below the claim is "
        "consistent with it, and it cannot exceed about log(T/2) whatever the mechanism.");
}

charts::ChartData buildScoreChart(const AuditSettings& s, const AuditState& state) {
    charts::ChartData chart;
    chart.title = QStringLiteral("Canary's score, %1 runs per neighbour, ε = %2") // fits half a 1280-px window
                      .arg(s.runs)
                      .arg(num(state.eps > 0 ? state.eps : s.currentEps));
    chart.xTitle = QStringLiteral("score: the canary's margin under the released model");
    chart.yTitle = QStringLiteral("runs");
    chart.logX = false;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto* scores : {&state.scoresD, &state.scoresDPrime})
        for (double v : *scores)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (!(lo <= hi)) {
        chart.xMin = -1.0;
        chart.xMax = 1.0;
        chart.yMin = 0.0;
        chart.yMax = 1.0;
        return chart;
    }
    if (state.result && std::isfinite(state.result->bound.threshold)) {
        lo = std::min(lo, state.result->bound.threshold);
        hi = std::max(hi, state.result->bound.threshold);
    }
    const double pad = hi > lo ? 0.04 * (hi - lo) : std::max(1e-6, 0.05 * std::abs(lo));
    lo -= pad;
    hi += pad;
    chart.xMin = lo;
    chart.xMax = hi;
    chart.yMin = 0.0;
    SeriesData d = charts::makeSeries(QStringLiteral("d"), QStringLiteral("D (no canary)"), SeriesKind::Line, kColorD);
    d.points = outline(state.scoresD, lo, hi);
    SeriesData dPrime = charts::makeSeries(QStringLiteral("d-prime"), QStringLiteral("D′ (with the canary)"),
                                           SeriesKind::Line, kColorDPrime);
    dPrime.points = outline(state.scoresDPrime, lo, hi);
    const bool partial = !state.result;
    d.dimmed = dPrime.dimmed = partial;
    chart.series = {d, dPrime};
    if (state.result && std::isfinite(state.result->bound.threshold)) {
        SeriesData tau = charts::makeSeries(QStringLiteral("threshold"),
                                            QStringLiteral("τ = %1").arg(num(state.result->bound.threshold, 4)),
                                            SeriesKind::VerticalLine, QColor(40, 40, 40));
        tau.value = state.result->bound.threshold;
        tau.style = Qt::DashLine;
        tau.width = 1.5;
        chart.series.append(tau);
    }
    if (partial && state.runsDone > 0)
        chart.title += QStringLiteral(" (%1 of %2 runs)").arg(state.runsDone).arg(2 * s.runs);
    return chart;
}

charts::ChartData buildBoundChart(const AuditSettings& s, const AuditState& state) {
    charts::ChartData chart;
    const double claim = state.eps > 0 ? state.eps : s.currentEps;
    chart.title = QStringLiteral("Audited lower bound ε_LB against the claimed ε = %1").arg(num(claim));
    chart.xTitle = QStringLiteral("ε");
    chart.yTitle = QString(); // the rows are named on the axis: mechanism and its ε_LB
    chart.logX = false;
    const std::vector<AuditRow> rows = shownRows(s, state);
    double xMax = claim;
    double certifiable = NAN;
    for (const AuditRow& row : rows)
        if (row.result) {
            xMax = std::max({xMax, row.result->bound.epsLB, row.result->bound.maxCertifiable});
            certifiable = row.result->bound.maxCertifiable;
        }
    chart.xMin = 0.0;
    chart.xMax = 1.08 * xMax;
    chart.yMin = -0.7;
    chart.yMax = static_cast<double>(rows.size()) - 0.3;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AuditRow& row = rows[i];
        const double y = static_cast<double>(rows.size() - 1 - i); // the first row on top
        const QColor colour = !row.result ? QColor(150, 150, 150) : row.result->violated() ? kClaim : kConsistent;
        const QString key = QStringLiteral("bar:%1").arg(i);
        const QString label =
            !row.result
                ? QStringLiteral("%1: %2").arg(title(row.kind), row.error.isEmpty() ? QStringLiteral("…")
                                                                                    : QStringLiteral("not audited"))
                : QStringLiteral("%1: %2").arg(title(row.kind), num(row.result->bound.epsLB));
        chart.yCategories.prepend(label); // category k is drawn at y = k: the last row first
        if (row.result && row.result->bound.epsLB > 0.0) {
            const double lb = row.result->bound.epsLB;
            SeriesData bar = charts::makeSeries(key, QString(), SeriesKind::Band, colour);
            bar.points = {{0.0, y - 0.3}, {lb, y - 0.3}};
            bar.upper = {{0.0, y + 0.3}, {lb, y + 0.3}};
            chart.series.append(bar);
        } else {
            SeriesData dot = charts::makeSeries(key, QString(), SeriesKind::Points, colour);
            dot.points = {{0.0, y}};
            dot.width = 9.0;
            dot.hollow = !row.result;
            chart.series.append(dot);
        }
    }
    SeriesData claimed = charts::makeSeries(QStringLiteral("claim"), QStringLiteral("claimed ε = %1").arg(num(claim)),
                                            SeriesKind::VerticalLine, kClaim);
    claimed.value = claim;
    claimed.style = Qt::DashLine;
    chart.series.append(claimed);
    if (std::isfinite(certifiable)) {
        SeriesData most = charts::makeSeries(QStringLiteral("certifiable"),
                                             QStringLiteral("most these runs can certify = %1").arg(num(certifiable)),
                                             SeriesKind::VerticalLine, QColor(120, 120, 120));
        most.value = certifiable;
        most.style = Qt::DotLine;
        most.width = 1.5;
        chart.series.append(most);
    }
    return chart;
}

QString auditVerdictText(const AuditState& state) {
    if (!state.result)
        return {};
    return QString::fromStdString(core::auditVerdict(*state.result));
}

QString auditDetailsHtml(const AuditSettings& s, const AuditState& state) {
    if (!state.result)
        return state.runsDone > 0 ? QStringLiteral("%1 of %2 runs done.").arg(state.runsDone).arg(2 * s.runs)
                                  : QString();
    const core::AuditResult& r = *state.result;
    const core::AuditBound& b = r.bound;
    QStringList lines;
    lines << QStringLiteral("<b>Canary:</b> %1").arg(QString::fromStdString(r.canary.description).toHtmlEscaped());
    lines << QStringLiteral("<b>Neighbours:</b> %1; δ = %2")
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), num(r.delta));
    lines << QStringLiteral("<b>Runs:</b> %1 per neighbour (%2 choose τ, %3 evaluate); seed %4; %5 s")
                 .arg(r.runs)
                 .arg(r.runs - b.evaluated)
                 .arg(b.evaluated)
                 .arg(s.seed)
                 .arg(num(r.seconds));
    lines << QStringLiteral(
                 "<b>Attack:</b> say D′ when the score ≥ τ = %1: false positives %2 (≤ %3), false negatives %4 "
                 "(≤ %5), bounds at %6 % confidence each")
                 .arg(num(b.threshold, 4), num(b.fpr), num(b.fprUpper), num(b.fnr), num(b.fnrUpper),
                      num(100.0 * (1.0 - r.alpha / 2.0)));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with these runs)")
                 .arg(num(b.epsLB), num(r.claimedEps), num(b.maxCertifiable));
    return lines.join(QStringLiteral("<br>"));
}

QString auditTableHtml(const AuditState& state) {
    if (state.rows.empty())
        return {};
    QString html = QStringLiteral(
        "<table cellspacing='0' cellpadding='3'><tr><th align='left'>Mechanism</th><th>claimed ε</th>"
        "<th>δ</th><th>adjacency</th><th>ε_LB</th><th>most certifiable</th><th>verdict</th><th>time</th></tr>");
    for (const AuditRow& row : state.rows) {
        html += QStringLiteral("<tr><td>%1</td>").arg(title(row.kind).toHtmlEscaped());
        if (!row.result) {
            html += QStringLiteral("<td colspan='7'>%1</td></tr>")
                        .arg(row.error.isEmpty() ? QStringLiteral("waiting…")
                                                 : QStringLiteral("not audited: ") + row.error.toHtmlEscaped());
            continue;
        }
        const core::AuditResult& r = *row.result;
        const QString verdict = r.violated() ? QStringLiteral("<span style='color:#b01e1e'><b>violated</b></span>")
                                             : QStringLiteral("<span style='color:#2c8a3c'>consistent</span>");
        html += QStringLiteral(
                    "<td align='right'>%1</td><td align='right'>%2</td><td>%3</td><td align='right'><b>%4</b></td>"
                    "<td align='right'>%5</td><td>%6</td><td align='right'>%7 s</td></tr>")
                    .arg(num(r.claimedEps), num(r.delta), QString::fromLatin1(core::toString(r.adjacency)),
                         num(r.bound.epsLB), num(r.bound.maxCertifiable), verdict, num(r.seconds, 2));
    }
    return html + QStringLiteral("</table>");
}

} // namespace elab::ui
