#include "ui/views/ptr/ptr_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/palettes.h"
#include "ui/widgets/eps_text.h"

#include "core/privacy/plain_language.h"

#include <QStringList>

#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

constexpr double kEpsMin = 1e-3, kEpsMax = 1e2;
constexpr int kSamples = 241;
const QColor kFormula(0, 114, 178);
const QColor kMeasured(213, 94, 0);
const QColor kCurrent = QColor::fromRgb(charts::palette::kReference);
const QColor kLambda(0, 158, 115);

QString ptrNumber(double v, int digits = 3) { return formatNumber(v, digits, NumberForm::Printf); }

double sampleEps(int k) { return kEpsMin * std::pow(kEpsMax / kEpsMin, static_cast<double>(k) / (kSamples - 1)); }

SeriesData currentLine(double eps, bool held) {
    SeriesData line = charts::makeSeries(
        QStringLiteral("current"), held ? QStringLiteral("slider's ε") : QStringLiteral("ε = %1").arg(ptrNumber(eps)),
        SeriesKind::VerticalLine, kCurrent);
    line.value = eps;
    line.width = 1.0;
    return line;
}

} // namespace

charts::ChartData buildPassChart(const PtrSettings& s, const PtrState& state, bool held) {
    charts::ChartData chart;
    chart.title = QStringLiteral("Probability that the test passes (the release is (2ε, δ)-DP)");
    chart.xTitle = QStringLiteral("ε of the test (log scale)");
    chart.yTitle = QStringLiteral("P(pass)");
    chart.xMin = kEpsMin;
    chart.xMax = kEpsMax;
    chart.yMin = 0.0;
    chart.yMax = 1.0;
    if (!state.data)
        return chart;
    const core::PtrStatistic& st = state.data->statistic;
    SeriesData formula = charts::makeSeries(QStringLiteral("formula"), QStringLiteral("P(Λ + Lap(1/(nε)) > threshold)"),
                                            SeriesKind::Line, kFormula);
    for (int k = 0; k < kSamples; ++k) {
        const double eps = sampleEps(k);
        formula.points.append({eps, core::ptrPassProbability(st.lambda, eps, s.delta, st.rows)});
    }
    chart.series << formula << currentLine(s.currentEps, held);
    if (state.release) {
        SeriesData measured = charts::makeSeries(
            QStringLiteral("measured"),
            held ? QStringLiteral("passed in %1 runs").arg(state.runs)
                 : QStringLiteral("passed in %1 runs: %2").arg(state.runs).arg(ptrNumber(state.passFraction)),
            SeriesKind::Points, kMeasured);
        measured.points = {{state.eps, state.passFraction}};
        measured.width = 10.0;
        chart.series << measured;
    }
    chart.footnote =
        QStringLiteral("n = %1, Λ = %2, δ = %3").arg(st.rows).arg(ptrNumber(st.lambda, 4), ptrNumber(s.delta));
    return chart;
}

charts::ChartData buildThresholdChart(const PtrSettings& s, const PtrState& state, bool held) {
    charts::ChartData chart;
    chart.title = QStringLiteral("Λ against the test's threshold 2·log(1/δ)/(nε)");
    chart.xTitle = QStringLiteral("ε of the test (log scale)");
    chart.yTitle = QStringLiteral("value (log scale)");
    chart.xMin = kEpsMin;
    chart.xMax = kEpsMax;
    chart.logY = true;
    if (!state.data)
        return chart;
    const core::PtrStatistic& st = state.data->statistic;
    SeriesData threshold = charts::makeSeries(QStringLiteral("threshold"), QStringLiteral("threshold 2·log(1/δ)/(nε)"),
                                              SeriesKind::Line, kFormula);
    for (int k = 0; k < kSamples; ++k) {
        const double eps = sampleEps(k);
        threshold.points.append({eps, core::ptrThreshold(eps, s.delta, st.rows)});
    }
    SeriesData lambda =
        charts::makeSeries(QStringLiteral("lambda"), QStringLiteral("Λ = %1").arg(ptrNumber(st.lambda, 4)),
                           SeriesKind::HorizontalLine, kLambda);
    lambda.value = st.lambda;
    chart.series << threshold << lambda << currentLine(s.currentEps, held);
    if (state.release && state.release->noisyLambda > 0.0) {
        SeriesData noisy =
            charts::makeSeries(QStringLiteral("noisy"),
                               held ? QStringLiteral("one run's Λ̂")
                                    : QStringLiteral("one run's Λ̂ = %1").arg(ptrNumber(state.release->noisyLambda, 3)),
                               SeriesKind::Points, kMeasured);
        noisy.points = {{state.eps, state.release->noisyLambda}};
        noisy.width = 10.0;
        chart.series << noisy;
    }
    // Λ and the threshold over the whole ε range, whichever is drawn.
    const double lo = std::min(st.lambda > 0 ? st.lambda : 1e-6, core::ptrThreshold(kEpsMax, s.delta, st.rows));
    const double hi = std::max(st.lambda, core::ptrThreshold(kEpsMin, s.delta, st.rows));
    chart.yMin = lo / 2.0;
    chart.yMax = hi * 2.0;
    return chart;
}

QString ptrReadoutHtml(const PtrSettings& s, const PtrState& state,
                       const std::function<QString(core::Index)>& featureName) {
    if (!state.data)
        return QStringLiteral("Load a dataset: its features, binarised at the threshold, are the data of the test.");
    const core::PtrStatistic& st = state.data->statistic;
    QStringList lines;
    if (st.lambda > 0.0)
        lines << QStringLiteral(
                     "<b>Λ = %1</b>: every feature's count of ones stays at least Λ·n = %2 rows above what one "
                     "row could change (the tightest: %3).")
                     .arg(ptrNumber(st.lambda, 4), ptrNumber(st.lambda * static_cast<double>(st.rows), 6),
                          featureName(st.argmin).toHtmlEscaped());
    else
        lines << QStringLiteral(
                     "<b>Λ = 0</b>: feature “%1” has a 1 in at most one row, so one person can decide what dropout "
                     "releases. The test passes only when the noise alone clears the threshold, which it almost "
                     "never does: nothing is released. Binarising at another (public) threshold, or leaving out "
                     "features that are (almost) never 1, changes this.")
                     .arg(featureName(st.argmin).toHtmlEscaped());
    // Features the threshold leaves constant (1 in every row, or in none): when all are, nothing the
    // test decides depends on the data, and passing shows nothing about it (positive data at 0).
    const auto rows = static_cast<core::Index>(st.rows);
    const auto features = static_cast<long long>(state.data->ones.size());
    long long allOnes = 0, allZeros = 0;
    for (core::Index count : state.data->ones) {
        allOnes += count == rows ? 1 : 0;
        allZeros += count == 0 ? 1 : 0;
    }
    if (allOnes + allZeros == features)
        lines << QStringLiteral(
                     "<b>Every feature is the same in every row</b> at the threshold %1 (%2 of %3 always 1): the "
                     "data is on one side of it, so what the test decides depends on no one and passing shows "
                     "nothing about this data. Binarise at a public threshold inside the features' range to see "
                     "the test at work.")
                     .arg(ptrNumber(s.binariseAt))
                     .arg(allOnes)
                     .arg(features);
    else if (allOnes + allZeros > 0)
        lines << QStringLiteral("%1 of %2 features are the same in every row at the threshold %3 (%4 always 1, %5 "
                                "never).")
                     .arg(allOnes + allZeros)
                     .arg(features)
                     .arg(ptrNumber(s.binariseAt))
                     .arg(allOnes)
                     .arg(allZeros);
    if (state.release) {
        const core::PtrRelease& r = *state.release;
        lines << QStringLiteral("At ε = %1 the threshold is %2; one run drew <b>Λ̂ = %3</b>: %4.")
                     .arg(ptrNumber(state.eps), ptrNumber(r.threshold, 4), ptrNumber(r.noisyLambda, 4),
                          r.passed ? QStringLiteral("the test <b>passes</b> and dropout releases feature “%1”")
                                         .arg(featureName(r.feature).toHtmlEscaped())
                                   : QStringLiteral("the test <b>fails</b> and nothing is released (⊥)"));
        const double p = core::ptrPassProbability(st.lambda, state.eps, s.delta, st.rows);
        lines << QStringLiteral("Passed in %1 of %2 runs (%3); the Laplace formula says %4.")
                     .arg(std::lround(state.passFraction * state.runs))
                     .arg(state.runs)
                     .arg(ptrNumber(state.passFraction), ptrNumber(p));
        const core::PrivacyGuarantee g = core::ptrGuarantee(state.eps, s.delta);
        if (g.voided())
            lines << QStringLiteral("<b>Guarantee: none</b> — ε = %1 is not below 1, the condition of Jain et al.'s "
                                    "analysis.")
                         .arg(ptrNumber(state.eps));
        else
            lines << QStringLiteral("<b>Guarantee:</b> (2ε = %1, δ)-DP for the whole procedure (test and release), as "
                                    "Jain et al. state it for ε < 1; δ is not established numerically (the test's "
                                    "threshold uses δ = %2). Replace-one adjacency; the binarisation threshold %3 is "
                                    "public.")
                         .arg(ptrNumber(g.epsilon), ptrNumber(s.delta), ptrNumber(s.binariseAt));
        for (const std::string& line : core::plainLanguage(g, st.rows))
            lines << QString::fromStdString(line).toHtmlEscaped();
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace elab::ui
