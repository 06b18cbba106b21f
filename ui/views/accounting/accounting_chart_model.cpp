#include "ui/views/accounting/accounting_chart_model.h"

#include "ui/charts/chart_geometry.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

QString num(double v, int digits = 4) {
    if (std::isinf(v))
        return QStringLiteral("∞");
    return QString::number(v, 'g', digits);
}

QString title(core::AccountantKind kind) { return QString::fromStdString(core::accountantTitle(kind)); }

/// Legend names: short enough for a legend under a half-width chart.
QString shortTitle(core::AccountantKind kind) {
    switch (kind) {
    case core::AccountantKind::Rdp: return QStringLiteral("RDP");
    case core::AccountantKind::AdvancedComposition: return QStringLiteral("advanced composition (DPD-AC)");
    case core::AccountantKind::ZcdpPublished: return QStringLiteral("zCDP as published (no proof)");
    }
    return {};
}

QString setting(const core::AccountingCurves& c) {
    return QStringLiteral("q = %1 (S = %2, N = %3), T = %4 steps (%5 epochs), δ = %6")
        .arg(num(c.inputs.q()), num(c.inputs.batchSize), QString::number(c.inputs.rows), QString::number(c.inputs.steps()),
             QString::number(c.inputs.epochs), num(c.inputs.delta, 3));
}

Qt::PenStyle penOf(core::AccountantKind kind) {
    return kind == core::AccountantKind::ZcdpPublished ? Qt::DashLine : Qt::SolidLine;
}

/// The current ε as a dotted horizontal line.
SeriesData targetLine(double eps) {
    SeriesData line = charts::makeSeries(QStringLiteral("target"), QStringLiteral("ε = %1").arg(num(eps)),
                                         SeriesKind::HorizontalLine, QColor(40, 40, 40));
    line.value = eps;
    line.width = 1.0;
    line.style = Qt::DotLine;
    return line;
}

} // namespace

QColor accountantColor(core::AccountantKind kind) {
    switch (kind) {
    case core::AccountantKind::Rdp: return charts::paletteColor(0);
    case core::AccountantKind::AdvancedComposition: return charts::paletteColor(1);
    case core::AccountantKind::ZcdpPublished: return QColor(110, 110, 110);
    }
    return {};
}

QString accountingAssumptions(const core::AccountingCurves* c) {
    QString text = QStringLiteral(
        "σ is the noise multiplier: noise sd / sensitivity C (the clip norm). Adjacency: add or remove one row; "
        "replacing a row is (2ε, (1 + e^ε)δ). Rows are sampled independently with probability q at each step "
        "(Poisson). The zCDP curve is the paper's procedure as published: it is not a proof.");
    if (c)
        text = setting(*c) + QStringLiteral(". ") + text;
    return text;
}

charts::ChartData buildSigmaChart(const AccountingSettings& s, const core::AccountingCurves* c) {
    charts::ChartData chart;
    chart.title = QStringLiteral("ε against the noise multiplier σ");
    chart.xTitle = QStringLiteral("noise multiplier σ");
    chart.yTitle = QStringLiteral("ε");
    chart.logX = true;
    chart.logY = true;
    chart.xMin = 0.3;
    chart.xMax = 300.0;
    chart.footnote = accountingAssumptions(c);
    if (!c)
        return chart;
    chart.xMin = c->sigmas.front();
    chart.xMax = c->sigmas.back();
    double yMin = s.currentEps, yMax = s.currentEps;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        const core::AccountantKind kind = core::kAccountants[k];
        SeriesData line = charts::makeSeries(QStringLiteral("eps:%1").arg(core::toString(kind)), shortTitle(kind), SeriesKind::Line,
                                             accountantColor(kind));
        line.style = penOf(kind);
        for (std::size_t i = 0; i < c->sigmas.size(); ++i) {
            const double e = c->epsBySigma[k][i];
            if (std::isfinite(e) && e > 0.0) {
                line.points.append(QPointF(c->sigmas[i], e));
                yMin = std::min(yMin, e);
                yMax = std::max(yMax, e);
            }
        }
        chart.series << line;
    }
    yMin = std::max(yMin, 1e-3);
    chart.yMin = std::pow(10.0, std::floor(std::log10(yMin)));
    chart.yMax = std::pow(10.0, std::ceil(std::log10(std::min(yMax, 1e5))));
    chart.series << targetLine(s.currentEps);
    SeriesData sigma = charts::makeSeries(QStringLiteral("current"), QStringLiteral("current σ = %1 (%2)")
                                                                         .arg(num(c->currentSigma), QString::fromLatin1(core::toString(s.accountant))),
                                          SeriesKind::VerticalLine, QColor(200, 30, 30));
    sigma.value = c->currentSigma;
    sigma.width = 1.5;
    chart.series << sigma;
    SeriesData needed = charts::makeSeries(QStringLiteral("needed"), QStringLiteral("σ each accountant needs"),
                                           SeriesKind::Points, QColor(40, 40, 40));
    needed.width = 9.0;
    needed.hollow = true;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k)
        if (c->needed[k].sigma > 0.0)
            needed.points.append(QPointF(c->needed[k].sigma, std::max(c->needed[k].result.epsilon, 1e-12)));
    std::sort(needed.points.begin(), needed.points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    chart.series << needed;
    return chart;
}

charts::ChartData buildEpochChart(const AccountingSettings& s, const core::AccountingCurves* c) {
    charts::ChartData chart;
    chart.title = c ? QStringLiteral("ε spent during training at σ = %1").arg(num(c->currentSigma))
                    : QStringLiteral("ε spent during training");
    chart.xTitle = QStringLiteral("epoch");
    chart.yTitle = QStringLiteral("ε spent");
    chart.logX = false;
    chart.xMin = 0.0;
    chart.xMax = std::max(1, s.epochs);
    chart.yMin = 0.0;
    chart.footnote = accountingAssumptions(c);
    if (!c)
        return chart;
    double yMax = s.currentEps;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        const core::AccountantKind kind = core::kAccountants[k];
        SeriesData line = charts::makeSeries(QStringLiteral("spent:%1").arg(core::toString(kind)), shortTitle(kind), SeriesKind::Line,
                                             accountantColor(kind));
        line.style = penOf(kind);
        for (std::size_t i = 0; i < c->epochs.size(); ++i) {
            const double e = c->epsByEpoch[k][i];
            if (std::isfinite(e)) {
                line.points.append(QPointF(c->epochs[i], e));
                yMax = std::max(yMax, e);
            }
        }
        chart.series << line;
    }
    chart.yMax = std::min(yMax * 1.05, std::max(4.0 * s.currentEps, 1e-9)); // AC far above: clipped, not flattened
    chart.series << targetLine(s.currentEps);
    return chart;
}

QString accountingTableHtml(const core::AccountingCurves* c, const SweepForCost* sweep,
                            const std::vector<core::UtilityCost>* costs) {
    if (!c)
        return {};
    const double rdpSigma = c->needed[core::accountantIndex(core::AccountantKind::Rdp)].sigma;
    if (!costs || costs->size() != core::kAccountants.size())
        sweep = nullptr; // not computed (yet) for these curves
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'><tr><th align='left'>accountant</th>"
                                  "<th align='right'>σ for ε = %1</th><th align='right'>noise vs RDP</th>"
                                  "<th align='right'>ε RDP proves for that σ</th>%2</tr>")
                       .arg(num(c->inputs.eps), sweep ? QStringLiteral("<th align='right'>%1 in the sweep (cost)</th>").arg(sweep->metric)
                                                      : QString());
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        const core::AccountantKind kind = core::kAccountants[k];
        const core::Calibration& cal = c->needed[k];
        QString sigma = num(cal.sigma);
        if (!cal.reachedTarget)
            sigma += QStringLiteral(" (certifies only ε = %1)").arg(num(cal.result.epsilon));
        QString cost;
        if (sweep) {
            const core::UtilityCost& u = (*costs)[k];
            cost = u.value ? QStringLiteral("%1 (%2%3)")
                                 .arg(QString::number(*u.value, 'f', 3),
                                      u.cost && *u.cost > 0.0005 ? QStringLiteral("−") : QStringLiteral("±"),
                                      u.cost ? QString::number(std::abs(*u.cost), 'f', 3) : QStringLiteral("?"))
                           : QStringLiteral("outside the sweep (ε' = %1)").arg(num(u.equivalentEps, 3));
            cost = QStringLiteral("<td align='right'>%1</td>").arg(cost);
        }
        html += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2%3</td><td align='right'>%4</td>"
                               "<td align='right'>%5×</td><td align='right'>%6</td>%7</tr>")
                    .arg(accountantColor(kind).name(), title(kind), cal.result.proven ? QString() : QStringLiteral(" ⚠"),
                         sigma, num(cal.sigma / rdpSigma, 3), num(c->rdpOfNeeded[k]), cost);
    }
    html += QStringLiteral("</table>");
    if (sweep)
        html += QStringLiteral("<p style='color:#555'>Cost: the Utility tab's DP-SGD sweep (%1) measured with the noise each "
                               "accountant needs for ε = %2 at the sweep's own schedule, against its value at ε "
                               "(− is worse). ⚠: not a proof; the RDP column is what its σ really buys.</p>")
                    .arg(sweep->description, num(c->inputs.eps));
    else
        html += QStringLiteral("<p style='color:#555'>More noise for the same ε costs accuracy: run the Utility tab's sweep "
                               "with DP-SGD to see how much here. ⚠: not a proof; the last column is what its σ really "
                               "buys.</p>");
    return html;
}

QString accountingReadout(const core::AccountingCurves& c, double sigma) {
    QStringList lines;
    lines << QStringLiteral("σ = %1:").arg(num(sigma, 5));
    const core::SgdPrivacyParams p{sigma, c.inputs.q(), c.inputs.steps(), c.inputs.delta};
    for (core::AccountantKind kind : core::kAccountants) {
        const core::AccountantResult r = core::accountEpsilon(kind, p);
        lines << QStringLiteral("  %1: ε = %2%3").arg(QString::fromLatin1(core::toString(kind)), num(r.epsilon, 6),
                                                      r.proven ? QString() : QStringLiteral(" (not a proof)"));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace elab::ui
