#include "ui/views/utility/utility_chart_model.h"

#include "ui/charts/palettes.h"

#include <QStringList>

#include <iterator>

#include <algorithm>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

// Okabe–Ito colours (colour-blind safe), fixed per role so the figure reads the same in
// every state.
const QColor kMeasured(0, 114, 178);
const QColor kNonPrivate(0, 0, 0);
const QColor kTarget(213, 94, 0);
const QColor kCurrent = QColor::fromRgb(charts::palette::kReference);
const QColor kVerify(204, 121, 167);
const QColor kWarning = QColor::fromRgb(charts::palette::kMagenta);
const QColor kBound = QColor::fromRgb(charts::palette::kDarkRed);
const QColor kEstimateColours[] = {QColor(230, 159, 0), QColor(0, 158, 115), QColor(86, 180, 233),
                                   QColor(240, 228, 66)};
/// The compared mechanisms: a colour and a dash style each (the main curve is solid blue), so
/// that the curves stay apart in greyscale too; their points are rings, the main curve's dots.
struct ComparedStyle {
    QColor colour;
    Qt::PenStyle style;
};
const ComparedStyle kComparedStyles[] = {{QColor(0, 158, 115), Qt::DashLine},
                                         {QColor(204, 121, 167), Qt::DashDotLine},
                                         {QColor(230, 159, 0), Qt::DotLine},
                                         {QColor(86, 180, 233), Qt::DashDotDotLine},
                                         {QColor::fromRgb(charts::palette::kBrown), Qt::DashLine}};

/// The y range follows what was measured (band, non-private level, target, probe), not the
/// estimates: an estimate far from its measuring point can run off to huge values and would
/// squash the measured curve. Estimated lines beyond the range are clipped by the plot.
void fitYRange(charts::ChartData& chart, const SeriesData& band, const UtilityState& state,
               const UtilitySettings& settings) {
    double lo = INFINITY, hi = -INFINITY, loPositive = INFINITY;
    auto include = [&](double v) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            if (v > 0.0)
                loPositive = std::min(loPositive, v);
        }
    };
    for (int k = 0; k < band.points.size(); ++k) {
        include(band.points[k].y());
        include(band.upper[k].y());
    }
    const bool loss = core::isLossMetric(settings.metric);
    for (const ComparedState& c : state.compared)
        for (const auto& p : c.points)
            if (p) {
                include(std::max(0.0, p->mean - p->sd));
                include(loss ? p->mean + p->sd : std::min(1.0, p->mean + p->sd));
            }
    if (state.nonPrivate)
        include(*state.nonPrivate);
    if (const auto& majority = state.majorityFor(settings.metric); majority && !core::isLossMetric(settings.metric))
        include(majority->rate);
    if (settings.target)
        include(*settings.target);
    if (state.probe)
        include(state.probe->mean);
    for (const auto& fit : state.measuring)
        for (const auto& t : fit.points)
            include(t.value);
    if (!(hi >= lo))
        return; // nothing measured yet: the chart fits the data it has
    if (chart.logY) {
        if (std::isfinite(loPositive) && hi > 0.0) {
            chart.yMin = loPositive / 1.25;
            chart.yMax = hi * 1.25;
        }
        return;
    }
    if (!core::isLossMetric(settings.metric)) {
        lo = std::max(0.0, lo);
        hi = std::min(1.0, hi);
    }
    const double pad = hi > lo ? 0.06 * (hi - lo) : 0.05 * std::max(1e-3, std::abs(hi));
    // Never below 0 (losses and accuracies are ≥ 0), never above 1 for accuracies.
    chart.yMin = lo >= 0.0 ? std::max(0.0, lo - pad) : lo - pad;
    chart.yMax = core::isLossMetric(settings.metric) ? hi + pad : std::min(1.0, hi + pad);
    if (!(chart.yMax > chart.yMin))
        chart.yMax = chart.yMin + pad;
}

} // namespace

QString metricTitle(core::UtilityMetric metric) {
    switch (metric) {
    case core::UtilityMetric::TrainLoss: return QStringLiteral("training loss");
    case core::UtilityMetric::TestLoss: return QStringLiteral("test loss");
    case core::UtilityMetric::TrainAccuracy: return QStringLiteral("training accuracy");
    case core::UtilityMetric::TestAccuracy: return QStringLiteral("test accuracy");
    }
    return {};
}

QString estimatorTitle(core::Estimator estimator) { return QString::fromLatin1(core::toString(estimator)); }

QString formatEps(double eps) {
    if (std::isinf(eps))
        return QStringLiteral("∞");
    if (eps >= 0.01 && eps < 1000.0)
        return QString::number(eps, 'g', 3);
    return QString::number(eps, 'e', 1);
}

QString guaranteeSummary(const UtilitySettings& settings, const UtilityState& state) {
    QStringList parts;
    const core::PrivacyGuarantee& g = state.guaranteeAtMax;
    parts << QStringLiteral("%1, Λ = %2")
                 .arg(QString::fromLatin1(core::toString(settings.mechanism.kind)))
                 .arg(settings.mechanism.model.lambda, 0, 'g', 3);
    if (settings.mechanism.usesDelta())
        parts << QStringLiteral("δ = %1").arg(settings.mechanism.privacy.delta, 0, 'g', 3);
    if (!g.notion.empty())
        parts << QString::fromStdString(g.notion + " (" + g.source + ")");
    parts << QStringLiteral("rows clipped to ‖x‖ ≤ 1: %1")
                 .arg(settings.preprocess.norm == core::NormPolicy::ClipRows ? QStringLiteral("yes")
                                                                             : QStringLiteral("NO (guarantee void)"));
    parts << (settings.secretSeed
                  ? QStringLiteral("%1 repetitions, secret seed (private release)").arg(settings.repeats)
                  : QStringLiteral("%1 repetitions, seed %2").arg(settings.repeats).arg(settings.seed));
    return parts.join(QStringLiteral(" · "));
}

charts::ChartData buildUtilityChart(const UtilitySettings& settings, const UtilityState& state,
                                    std::optional<double> proposedEps, const QString& datasetName, bool logY,
                                    bool held) {
    charts::ChartData chart;
    chart.logY = logY;
    const QString metric = metricTitle(settings.metric);
    chart.title = QStringLiteral("%1 vs ε — %2").arg(metric, datasetName);
    chart.xTitle = QStringLiteral("ε (privacy budget, log scale)");
    chart.yTitle = logY ? metric + QStringLiteral(" (log scale)") : metric;
    chart.logX = true;
    chart.xMin = settings.epsMin;
    chart.xMax = settings.epsMax;
    chart.footnote = guaranteeSummary(settings, state);

    // Losses are ≥ 0 and accuracies in [0, 1]: the ±1 sd band is cut there. Legend names stay short:
    // the legend is one row under the plot, and Qt Charts cuts what does not fit at 1280 × 720.
    const bool loss = core::isLossMetric(settings.metric);
    const bool comparing = !settings.compareWith.empty();
    SeriesData band = charts::makeSeries(QStringLiteral("band"), QStringLiteral("±1 sd"), SeriesKind::Band, kMeasured);
    SeriesData mean = charts::makeSeries(QStringLiteral("measured"),
                                         comparing ? QString::fromLatin1(core::toString(settings.mechanism.kind))
                                                   : QStringLiteral("measured"),
                                         SeriesKind::Line, kMeasured);
    for (const auto& p : state.points) {
        if (!p)
            continue;
        band.points.append({p->eps, std::max(0.0, p->mean - p->sd)});
        band.upper.append({p->eps, loss ? p->mean + p->sd : std::min(1.0, p->mean + p->sd)});
        mean.points.append({p->eps, p->mean});
    }
    SeriesData dots = charts::makeSeries(QStringLiteral("measured-points"), QString(), SeriesKind::Points, kMeasured);
    dots.points = mean.points;
    dots.width = 7.0;
    // The monotonicity self-check: a red ring around every point worse than a smaller ε's.
    SeriesData worse =
        charts::makeSeries(QStringLiteral("worse-as-eps-grows"), QString(), SeriesKind::Points, kWarning);
    worse.width = 14.0;
    for (const core::MonotonicityViolation& v : state.monotonicity(settings.metric).violations)
        worse.points.append({v.epsWorse, v.meanWorse});
    if (!worse.points.isEmpty())
        worse.name = QStringLiteral("worse than at a smaller ε");
    chart.series << band << mean << worse << dots;
    // The compared mechanisms: band, curve and rings each in its own colour and dash style.
    for (std::size_t i = 0; i < state.compared.size(); ++i) {
        const ComparedState& c = state.compared[i];
        const ComparedStyle& style = kComparedStyles[i % std::size(kComparedStyles)];
        const QString kind = QString::fromLatin1(core::toString(c.kind));
        SeriesData cBand =
            charts::makeSeries(QStringLiteral("band:%1").arg(kind), QString(), SeriesKind::Band, style.colour);
        SeriesData cMean =
            charts::makeSeries(QStringLiteral("measured:%1").arg(kind), kind, SeriesKind::Line, style.colour);
        cMean.style = style.style;
        cMean.width = 2.5;
        for (const auto& p : c.points) {
            if (!p)
                continue;
            cBand.points.append({p->eps, std::max(0.0, p->mean - p->sd)});
            cBand.upper.append({p->eps, loss ? p->mean + p->sd : std::min(1.0, p->mean + p->sd)});
            cMean.points.append({p->eps, p->mean});
        }
        SeriesData cDots = charts::makeSeries(QStringLiteral("measured-points:%1").arg(kind), QString(),
                                              SeriesKind::Points, style.colour);
        cDots.points = cMean.points;
        cDots.width = 8.0;
        cDots.hollow = true;
        chart.series << cBand << cMean << cDots;
    }

    SeriesData nonPrivate = charts::makeSeries(QStringLiteral("nonprivate"), QStringLiteral("non-private"),
                                               SeriesKind::HorizontalLine, kNonPrivate);
    nonPrivate.style = Qt::DashLine;
    nonPrivate.width = 1.5;
    if (state.nonPrivate)
        nonPrivate.value = *state.nonPrivate;
    else
        nonPrivate.name.clear(); // nothing to show in the legend yet
    chart.series << nonPrivate;
    // An accuracy's floor: always answering the largest class. A curve that never leaves it learned
    // nothing, whatever ε.
    if (const auto& majority = state.majorityFor(settings.metric); majority && !core::isLossMetric(settings.metric)) {
        SeriesData floor = charts::makeSeries(QStringLiteral("majority"),
                                              QStringLiteral("always '%1'").arg(QString::fromStdString(majority->name)),
                                              SeriesKind::HorizontalLine, QColor(150, 150, 150));
        floor.style = Qt::DotLine;
        floor.width = 1.5;
        floor.value = majority->rate;
        chart.series << floor;
    }

    // The theory's bound on the expected training loss (MATH.md §4.5), beside the measurement:
    // how loose a worst-case analysis is, and why the measured and estimated curves matter.
    int boundIndex = -1;
    if (settings.metric == core::UtilityMetric::TrainLoss && state.trainLossBound.size() == state.grid.size()) {
        SeriesData bound =
            charts::makeSeries(QStringLiteral("bound"), QStringLiteral("theory's bound"), SeriesKind::Line, kBound);
        bound.style = Qt::DashDotLine;
        bound.width = 1.5;
        for (std::size_t g = 0; g < state.grid.size(); ++g)
            if (std::isfinite(state.trainLossBound[g]))
                bound.points.append({state.grid[g], state.trainLossBound[g]});
        if (!bound.points.isEmpty()) {
            boundIndex = static_cast<int>(chart.series.size());
            chart.series << bound;
        }
    }

    // Estimated lines: for every measuring point and chosen estimator.
    // Not beside compared curves: their colours and dashes would read as more mechanisms.
    int colour = 0;
    if (settings.estimatesApply() && !comparing) {
        for (std::size_t m = 0; m < state.measuring.size(); ++m) {
            const core::MeasuringFit& fit = state.measuring[m];
            for (core::Estimator estimator : settings.estimators) {
                SeriesData line = charts::makeSeries(
                    QStringLiteral("estimate:%1:%2").arg(m).arg(estimatorTitle(estimator)),
                    QStringLiteral("%1 (ε̄=%2)").arg(estimatorTitle(estimator), formatEps(fit.measureAt)),
                    SeriesKind::Line, kEstimateColours[colour++ % 4]);
                line.style = Qt::DashLine;
                for (int k = 0; k < kEstimateSamples; ++k) {
                    const double eps = settings.epsMin * std::pow(settings.epsMax / settings.epsMin,
                                                                  static_cast<double>(k) / (kEstimateSamples - 1));
                    const double v = core::meanEstimate(fit, estimator, eps);
                    if (std::isfinite(v))
                        line.points.append({eps, v});
                }
                chart.series << line;
            }
            double measuredAtBar = 0.0;
            for (const auto& t : fit.points)
                measuredAtBar += t.value / static_cast<double>(fit.points.size());
            SeriesData anchor =
                charts::makeSeries(QStringLiteral("measuring:%1").arg(m), QString(), SeriesKind::Points, kNonPrivate);
            anchor.points.append({fit.measureAt, measuredAtBar});
            anchor.width = 10.0;
            chart.series << anchor;
        }
    }

    SeriesData target = charts::makeSeries(QStringLiteral("target"), QString(), SeriesKind::HorizontalLine, kTarget);
    target.style = Qt::DotLine;
    SeriesData proposed = charts::makeSeries(QStringLiteral("proposed"), QString(), SeriesKind::VerticalLine, kTarget);
    proposed.style = Qt::DotLine;
    if (settings.target) {
        target.value = *settings.target;
        target.name = QStringLiteral("target %1").arg(*settings.target, 0, 'g', 4);
        if (proposedEps) {
            proposed.value = *proposedEps;
            proposed.name = QStringLiteral("proposed ε=%1").arg(formatEps(*proposedEps));
        }
    }
    SeriesData verify = charts::makeSeries(QStringLiteral("verify"), QString(), SeriesKind::Points, kVerify);
    verify.width = 9.0;
    if (state.verification) {
        verify.name = QStringLiteral("verified");
        for (const auto& step : state.verification->steps)
            verify.points.append({step.eps, step.measured});
    }
    chart.series << target << proposed << verify;

    SeriesData current = charts::makeSeries(QStringLiteral("current"), QString(), SeriesKind::VerticalLine, kCurrent);
    current.width = 1.0;
    if (std::isfinite(settings.currentEps))
        current.value = settings.currentEps;
    SeriesData probe = charts::makeSeries(QStringLiteral("probe"), QString(), SeriesKind::Points, kCurrent);
    probe.width = 11.0;
    if (state.probe && std::isfinite(state.probe->eps) && (held || state.probe->eps == settings.currentEps)) {
        probe.points.append({state.probe->eps, state.probe->mean});
        probe.dimmed = !state.probe->full;
    }
    chart.series << current << probe;
    fitYRange(chart, band, state, settings);
    if (boundIndex >= 0 && std::isfinite(chart.yMax)) {
        // The bound runs off the top at small ε (the plot clips it); say so when none of it shows.
        SeriesData& bound = chart.series[boundIndex];
        double firstShown = NAN;
        for (const QPointF& p : bound.points)
            if (p.y() <= chart.yMax) {
                firstShown = p.x();
                break;
            }
        if (std::isnan(firstShown))
            bound.name += QStringLiteral(" (off the chart)");
    }
    return chart;
}

} // namespace elab::ui
