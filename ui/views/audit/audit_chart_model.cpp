#include "ui/views/audit/audit_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/widgets/eps_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

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
    return {AuditRow{s.mechanism.kind, state.result, {}, state.oneRun, state.whitebox}};
}

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

namespace {

/// The range of the finite scores of both samples, or nullopt (then the chart is an empty unit frame).
std::optional<std::pair<double, double>> scoreRange(const std::vector<double>& a, const std::vector<double>& b,
                                                    charts::ChartData& chart) {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto* scores : {&a, &b})
        for (double v : *scores)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (lo <= hi)
        return std::pair{lo, hi};
    chart.xMin = -1.0;
    chart.xMax = 1.0;
    chart.yMin = 0.0;
    chart.yMax = 1.0;
    return std::nullopt;
}

/// One run's canaries: the score histograms of those left out and those put in, with the two
/// cut-offs of the best guess (top k₊ guessed in, bottom k₋ guessed out).
charts::ChartData buildOneRunScoreChart(const AuditSettings& s, const AuditState& state) {
    charts::ChartData chart;
    const core::OneRunAuditResult* r = state.oneRun.get();
    chart.title = QStringLiteral("One run: %1 canaries' scores, ε = %2")
                      .arg(r ? static_cast<long long>(r->canaries.size()) : static_cast<long long>(s.canaries))
                      .arg(num(state.eps > 0 ? state.eps : s.currentEps));
    chart.xTitle = QStringLiteral("score: the canary's margin under the released model");
    chart.yTitle = QStringLiteral("canaries");
    chart.logX = false;
    std::vector<double> out, in;
    if (r)
        for (const core::OneRunCanary& c : r->canaries)
            (c.included ? in : out).push_back(c.score);
    const auto range = scoreRange(out, in, chart);
    if (!range)
        return chart;
    const auto [lo, hi] = *range;
    const double pad = hi > lo ? 0.04 * (hi - lo) : std::max(1e-6, 0.05 * std::abs(lo));
    chart.xMin = lo - pad;
    chart.xMax = hi + pad;
    chart.yMin = 0.0;
    SeriesData o = charts::makeSeries(QStringLiteral("out"), QStringLiteral("out"), SeriesKind::Line, kColorD);
    o.points = outline(out, chart.xMin, chart.xMax);
    SeriesData i = charts::makeSeries(QStringLiteral("in"), QStringLiteral("in"), SeriesKind::Line, kColorDPrime);
    i.points = outline(in, chart.xMin, chart.xMax);
    chart.series = {o, i};
    // The best guess's cut-offs: the k₊-th highest and the k₋-th lowest score.
    std::vector<double> sorted;
    for (const core::OneRunCanary& c : r->canaries)
        sorted.push_back(c.score);
    std::sort(sorted.begin(), sorted.end());
    const core::OneRunGuess& g = r->bound.best;
    const auto n = static_cast<long long>(sorted.size());
    if (g.kIn > 0 && g.kIn <= n) {
        SeriesData cut = charts::makeSeries(QStringLiteral("guess-in"), QStringLiteral("guess in ≥"),
                                            SeriesKind::VerticalLine, QColor(40, 40, 40));
        cut.value = sorted[static_cast<std::size_t>(n - g.kIn)];
        cut.style = Qt::DashLine;
        chart.series.append(cut);
    }
    if (g.kOut > 0 && g.kOut <= n) {
        SeriesData cut = charts::makeSeries(QStringLiteral("guess-out"), QStringLiteral("guess out ≤"),
                                            SeriesKind::VerticalLine, QColor(120, 120, 120));
        cut.value = sorted[static_cast<std::size_t>(g.kOut - 1)];
        cut.style = Qt::DotLine;
        chart.series.append(cut);
    }
    return chart;
}

/// The white-box audit's trials: the score histograms of the canary weights left out and put in,
/// with the threshold τ.
charts::ChartData buildWhiteboxScoreChart(const AuditSettings& s, const AuditState& state) {
    charts::ChartData chart;
    const core::WhiteboxAuditResult* r = state.whitebox.get();
    chart.title = QStringLiteral("White-box: %1 runs × %2 canary weights, ε = %3")
                      .arg(r ? r->runs : s.whiteboxRuns)
                      .arg(r ? QString::number(static_cast<long long>(r->canaries.size())) : QStringLiteral("…"))
                      .arg(num(state.eps > 0 ? state.eps : s.currentEps));
    chart.xTitle = QStringLiteral("score: the weight's log-likelihood ratio, in against out");
    chart.yTitle = QStringLiteral("trials");
    chart.logX = false;
    static const std::vector<double> none;
    const auto range = scoreRange(r ? r->scoresOut : none, r ? r->scoresIn : none, chart);
    if (!range)
        return chart;
    auto [lo, hi] = *range;
    if (std::isfinite(r->bound.threshold)) {
        lo = std::min(lo, r->bound.threshold);
        hi = std::max(hi, r->bound.threshold);
    }
    const double pad = hi > lo ? 0.04 * (hi - lo) : std::max(1e-6, 0.05 * std::abs(lo));
    chart.xMin = lo - pad;
    chart.xMax = hi + pad;
    chart.yMin = 0.0;
    SeriesData o = charts::makeSeries(QStringLiteral("out"), QStringLiteral("out"), SeriesKind::Line, kColorD);
    o.points = outline(r->scoresOut, chart.xMin, chart.xMax);
    SeriesData i = charts::makeSeries(QStringLiteral("in"), QStringLiteral("in"), SeriesKind::Line, kColorDPrime);
    i.points = outline(r->scoresIn, chart.xMin, chart.xMax);
    chart.series = {o, i};
    if (std::isfinite(r->bound.threshold)) {
        SeriesData tau =
            charts::makeSeries(QStringLiteral("threshold"), QStringLiteral("τ = %1").arg(num(r->bound.threshold, 4)),
                               SeriesKind::VerticalLine, QColor(40, 40, 40));
        tau.value = r->bound.threshold;
        tau.style = Qt::DashLine;
        tau.width = 1.5;
        chart.series.append(tau);
    }
    return chart;
}

} // namespace

charts::ChartData buildScoreChart(const AuditSettings& s, const AuditState& state) {
    if (s.method == AuditMethod::OneRun)
        return buildOneRunScoreChart(s, state);
    if (s.method == AuditMethod::Whitebox)
        return buildWhiteboxScoreChart(s, state);
    charts::ChartData chart;
    chart.title = QStringLiteral("Canary's score, %1 runs per neighbour, ε = %2") // fits half a 1280-px window
                      .arg(s.runs)
                      .arg(num(state.eps > 0 ? state.eps : s.currentEps));
    chart.xTitle = QStringLiteral("score: the canary's margin under the released model");
    chart.yTitle = QStringLiteral("runs");
    chart.logX = false;
    const auto range = scoreRange(state.scoresD, state.scoresDPrime, chart);
    if (!range)
        return chart;
    auto [lo, hi] = *range;
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
        if (row.audited()) {
            const core::AuditBound* b = row.thresholdBound();
            xMax = std::max({xMax, row.epsLB(), row.maxCertifiable(), b ? b->pointEstimate : 0.0});
            certifiable = row.maxCertifiable();
        }
    chart.xMin = 0.0;
    chart.xMax = 1.08 * xMax;
    chart.yMin = -0.7;
    chart.yMax = static_cast<double>(rows.size()) - 0.3;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AuditRow& row = rows[i];
        const double y = static_cast<double>(rows.size() - 1 - i); // the first row on top
        const QColor colour = !row.audited() ? QColor(150, 150, 150) : row.violated() ? kClaim : kConsistent;
        const QString key = QStringLiteral("bar:%1").arg(i);
        const QString label =
            !row.audited()
                ? QStringLiteral("%1: %2").arg(title(row.kind), row.error.isEmpty() ? QStringLiteral("…")
                                                                                    : QStringLiteral("not audited"))
            : row.whitebox ? QStringLiteral("white-box: %1").arg(num(row.epsLB())) // DP-SGD's; a short axis
                           : QStringLiteral("%1: %2").arg(title(row.kind), num(row.epsLB()));
        chart.yCategories.prepend(label); // category k is drawn at y = k: the last row first
        if (row.audited() && row.epsLB() > 0.0) {
            const double lb = row.epsLB();
            SeriesData bar = charts::makeSeries(key, QString(), SeriesKind::Band, colour);
            bar.points = {{0.0, y - 0.3}, {lb, y - 0.3}};
            bar.upper = {{0.0, y + 0.3}, {lb, y + 0.3}};
            chart.series.append(bar);
        } else {
            SeriesData dot = charts::makeSeries(key, QString(), SeriesKind::Points, colour);
            dot.points = {{0.0, y}};
            dot.width = 9.0;
            dot.hollow = !row.audited();
            chart.series.append(dot);
        }
    }
    // What the attack saw without confidence, beside the bound: how far from 0 the evidence is when
    // the bound itself is 0 (a bar of nothing otherwise).
    SeriesData observed =
        charts::makeSeries(QStringLiteral("observed"), QStringLiteral("observed"), SeriesKind::Points, kConsistent);
    observed.hollow = true;
    observed.width = 9.0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (const core::AuditBound* b = rows[i].thresholdBound())
            observed.points.append({b->pointEstimate, static_cast<double>(rows.size() - 1 - i)});
    if (!observed.points.isEmpty())
        chart.series.append(observed);
    SeriesData claimed = charts::makeSeries(QStringLiteral("claim"), QStringLiteral("claimed ε = %1").arg(num(claim)),
                                            SeriesKind::VerticalLine, kClaim);
    claimed.value = claim;
    claimed.style = Qt::DashLine;
    chart.series.append(claimed);
    if (std::isfinite(certifiable)) {
        SeriesData most = charts::makeSeries(QStringLiteral("certifiable"),
                                             QStringLiteral("at most %1 with these runs").arg(num(certifiable)),
                                             SeriesKind::VerticalLine, QColor(120, 120, 120));
        most.value = certifiable;
        most.style = Qt::DotLine;
        most.width = 1.5;
        chart.series.append(most);
    }
    return chart;
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
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), num(r.delta))
                 .arg(static_cast<long long>(r.trainingRows))
                 .arg(s.seed)
                 .arg(num(r.seconds));
    lines << QStringLiteral("<b>Guess:</b> the %1 highest scores in, the %2 lowest out: %3 of %4 right (the best of "
                            "%5 guess sizes, each at α/%5)")
                 .arg(b.best.kIn)
                 .arg(b.best.kOut)
                 .arg(b.best.correct)
                 .arg(b.best.guesses)
                 .arg(static_cast<long long>(b.grid.size()));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with %4 canaries)")
                 .arg(num(b.epsLB), num(r.claimedEps), num(b.maxCertifiable))
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
                 .arg(num(r.sigma, 4), num(r.q, 3))
                 .arg(r.steps)
                 .arg(num(r.canaryNorm))
                 .arg(QString::fromLatin1(core::toString(r.adjacency)), num(r.delta));
    lines << QStringLiteral("<b>Runs:</b> %1 trainings; %2 trials per side (%3 evaluate); seed %4; %5 s")
                 .arg(r.runs)
                 .arg(static_cast<long long>(r.scoresOut.size()))
                 .arg(b.evaluated)
                 .arg(s.seed)
                 .arg(num(r.seconds));
    lines << QStringLiteral("<b>Attack:</b> say in when the score ≥ τ = %1: false positives %2 (≤ %3), false "
                            "negatives %4 (≤ %5)")
                 .arg(num(b.threshold, 4), num(b.fpr), num(b.fprUpper), num(b.fnr), num(b.fnrUpper));
    lines << QStringLiteral("<b>ε_LB = %1</b> (claimed ε = %2; at most %3 can be shown with these trials)")
                 .arg(num(b.epsLB), num(r.claimedEps), num(b.maxCertifiable));
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
    // One audited row, by either method.
    const auto cells = [](double claimed, double delta, core::Adjacency adjacency, double epsLB, double certifiable,
                          bool violated, double seconds) {
        const QString verdict = violated ? QStringLiteral("<span style='color:#b01e1e'><b>violated</b></span>")
                                         : QStringLiteral("<span style='color:#2c8a3c'>consistent</span>");
        return QStringLiteral(
                   "<td align='right'>%1</td><td align='right'>%2</td><td>%3</td><td align='right'><b>%4</b></td>"
                   "<td align='right'>%5</td><td>%6</td><td align='right'>%7 s</td></tr>")
            .arg(num(claimed), num(delta), QString::fromLatin1(core::toString(adjacency)), num(epsLB), num(certifiable),
                 verdict, num(seconds, 2));
    };
    for (const AuditRow& row : state.rows) {
        html += QStringLiteral("<tr><td>%1</td>").arg(title(row.kind).toHtmlEscaped());
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
