#include "ui/views/audit/audit_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/palettes.h"
#include "ui/views/audit/audit_text.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/settings_text.h"

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
const QColor kColorD = QColor::fromRgb(charts::palette::kAuditOut);
const QColor kColorDPrime = QColor::fromRgb(charts::palette::kAuditIn);
// Vermillion and blue, not red and green: told apart with every colour deficiency (palettes.h).
const QColor kClaim = QColor::fromRgb(charts::palette::kViolated);
const QColor kConsistent = QColor::fromRgb(charts::palette::kConsistent);

QString chartNumber(double v, int digits = 3) { return auditNumber(v, digits); }

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
                      .arg(chartNumber(state.eps > 0 ? state.eps : s.currentEps));
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
                      .arg(chartNumber(state.eps > 0 ? state.eps : s.currentEps));
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
        SeriesData tau = charts::makeSeries(QStringLiteral("threshold"),
                                            QStringLiteral("τ = %1").arg(chartNumber(r->bound.threshold, 4)),
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
                      .arg(chartNumber(state.eps > 0 ? state.eps : s.currentEps));
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
                                            QStringLiteral("τ = %1").arg(chartNumber(state.result->bound.threshold, 4)),
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
    chart.title = QStringLiteral("Audited lower bound ε_LB against the claimed ε = %1").arg(chartNumber(claim));
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
        const QColor colour = !row.audited()   ? QColor::fromRgb(charts::palette::kNeutral)
                              : row.violated() ? kClaim
                                               : kConsistent;
        const QString key = QStringLiteral("bar:%1").arg(i);
        const QString label =
            !row.audited() ? QStringLiteral("%1: %2").arg(mechanismName(row.kind), row.error.isEmpty()
                                                                                       ? QStringLiteral("…")
                                                                                       : QStringLiteral("not audited"))
            : row.whitebox ? QStringLiteral("white-box: %1").arg(chartNumber(row.epsLB())) // DP-SGD's; a short axis
                           : QStringLiteral("%1: %2").arg(mechanismName(row.kind), chartNumber(row.epsLB()));
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
    SeriesData claimed =
        charts::makeSeries(QStringLiteral("claim"), QStringLiteral("claimed ε = %1").arg(chartNumber(claim)),
                           SeriesKind::VerticalLine, kClaim);
    claimed.value = claim;
    claimed.style = Qt::DashLine;
    chart.series.append(claimed);
    if (std::isfinite(certifiable)) {
        SeriesData most = charts::makeSeries(QStringLiteral("certifiable"),
                                             QStringLiteral("at most %1 with these runs").arg(chartNumber(certifiable)),
                                             SeriesKind::VerticalLine, QColor(120, 120, 120));
        most.value = certifiable;
        most.style = Qt::DotLine;
        most.width = 1.5;
        chart.series.append(most);
    }
    return chart;
}

} // namespace elab::ui
