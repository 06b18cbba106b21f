#include "ui/views/accounting/accounting_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/palettes.h"
#include "ui/widgets/eps_text.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

QString accountingNumber(double v, int digits = 4) { return formatNumber(v, digits, NumberForm::Printf); }

QString title(core::AccountantKind kind) { return QString::fromStdString(core::accountantTitle(kind)); }

/// Legend names: short enough for a legend under a half-width chart.
QString shortTitle(core::AccountantKind kind) { return QString::fromStdString(core::accountantShortTitle(kind)); }

QString setting(const core::AccountingCurves& c) {
    return QStringLiteral("q = %1 (S = %2, N = %3), T = %4 steps (%5 epochs), δ = %6")
        .arg(accountingNumber(c.inputs.q()), accountingNumber(c.inputs.batchSize), QString::number(c.inputs.rows),
             QString::number(c.inputs.steps()), QString::number(c.inputs.epochs), accountingNumber(c.inputs.delta, 3));
}

/// The calibration's largest σ, as the texts write it.
QString sigmaLimit() {
    static_assert(core::kMaxCalibratedSigma == 1e6);
    return QStringLiteral("10⁶");
}

/// The smallest m·10^k ≥ v, m in 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (v > 0).
double niceCeiling(double v) {
    const double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0})
        if (m * decade >= v * (1.0 - 1e-12))
            return m * decade;
    return 10.0 * decade;
}

/// σ / σ_RDP as "1.23×", or "—" when either is not a finite σ.
QString ratio(double sigma, double rdpSigma) {
    if (!std::isfinite(sigma) || !std::isfinite(rdpSigma))
        return QStringLiteral("—");
    return accountingNumber(sigma / rdpSigma, 3) + QStringLiteral("×");
}

Qt::PenStyle penOf(core::AccountantKind kind) { return core::accountantIsProof(kind) ? Qt::SolidLine : Qt::DashLine; }

/// The current ε as a dotted horizontal line (held: its legend without the number).
SeriesData targetLine(double eps, bool held) {
    SeriesData line =
        charts::makeSeries(QStringLiteral("target"),
                           held ? QStringLiteral("target ε") : QStringLiteral("ε = %1").arg(accountingNumber(eps)),
                           SeriesKind::HorizontalLine, QColor(40, 40, 40));
    line.value = eps;
    line.width = 1.0;
    line.style = Qt::DotLine;
    return line;
}

} // namespace

QColor accountantColor(core::AccountantKind kind) {
    if (!core::accountantIsProof(kind))
        return QColor::fromRgb(charts::palette::kReference); // shown, not proved
    int proofsBefore = 0;                                    // the palette's colours in list order, for the proofs only
    for (core::AccountantKind other : core::kAccountants) {
        if (other == kind)
            break;
        proofsBefore += core::accountantIsProof(other) ? 1 : 0;
    }
    return charts::paletteColor(proofsBefore);
}

QString accountingAssumptions(const core::AccountingCurves* c) {
    const QString adjacency =
        c && c->inputs.nPublic
            ? QStringLiteral("Adjacency: add or remove one row, N declared public (q and T the same for a dataset with "
                             "one row more or less); replacing a row is (2ε, (1 + e^ε)δ).")
            : QStringLiteral(
                  "Adjacency: replace one row at the fixed N (N not declared public): by group privacy, "
                  "(2ε_a, (1 + e^{ε_a})δ_a) from the accountant's add/remove (ε_a, δ_a), the least such ε at δ "
                  "(PLD: from the replace pair's loss distribution directly).");
    QString text = QStringLiteral("σ is the noise multiplier: noise sd / sensitivity C (the clip norm). %1 Rows are "
                                  "sampled independently with probability q at each step (Poisson). The zCDP curve is "
                                  "the paper's procedure as published: it is not a proof.")
                       .arg(adjacency);
    if (c)
        text = setting(*c) + QStringLiteral(". ") + text;
    return text;
}

charts::ChartData buildSigmaChart(const AccountingSettings& s, const core::AccountingCurves* c, bool held) {
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
        SeriesData line = charts::makeSeries(QStringLiteral("eps:%1").arg(core::toString(kind)), shortTitle(kind),
                                             SeriesKind::Line, accountantColor(kind));
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
    chart.series << targetLine(s.currentEps, held);
    if (std::isfinite(c->currentSigma)) { // +∞: no σ within the calibration's limit (the status line says so)
        const QString accountant = QString::fromLatin1(core::toString(s.accountant));
        SeriesData sigma = charts::makeSeries(
            QStringLiteral("current"),
            held ? QStringLiteral("current σ (%1)").arg(accountant)
                 : QStringLiteral("current σ = %1 (%2)").arg(accountingNumber(c->currentSigma), accountant),
            SeriesKind::VerticalLine, QColor::fromRgb(charts::palette::kReddishPurple));
        sigma.value = c->currentSigma;
        sigma.width = 1.5;
        chart.series << sigma;
    }
    SeriesData needed = charts::makeSeries(QStringLiteral("needed"), QStringLiteral("σ each accountant needs"),
                                           SeriesKind::Points, QColor(40, 40, 40));
    needed.width = 9.0;
    needed.hollow = true;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k)
        if (c->reached(k) && c->needed[k].sigma > 0.0)
            needed.points.append(QPointF(c->needed[k].sigma, std::max(c->needed[k].result.epsilon, 1e-12)));
    std::sort(needed.points.begin(), needed.points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    chart.series << needed;
    return chart;
}

charts::ChartData buildEpochChart(const AccountingSettings& s, const core::AccountingCurves* c, bool held) {
    charts::ChartData chart;
    chart.title = !c || held ? QStringLiteral("ε spent during training")
                  : std::isfinite(c->currentSigma)
                      ? QStringLiteral("ε spent during training at σ = %1").arg(accountingNumber(c->currentSigma))
                      : QStringLiteral("ε spent during training: no σ ≤ %1 reaches ε = %2 (%3)")
                            .arg(sigmaLimit(), accountingNumber(c->inputs.eps), shortTitle(c->inputs.accountant));
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
        // Below a chart narrower than the σ chart beside it, whose legend names them in full.
        SeriesData line = charts::makeSeries(QStringLiteral("spent:%1").arg(core::toString(kind)),
                                             QString::fromStdString(core::accountantAbbreviation(kind)),
                                             SeriesKind::Line, accountantColor(kind));
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
    // AC far above: clipped, not flattened. Rounded up to a step of a 1–1.25–1.5–2–2.5–3–4–5–6–8
    // scale, so that the axis (whose labels Qt Charts lays out again at any new range) changes a
    // few times per decade of a drag, not at every step.
    chart.yMax = niceCeiling(std::min(yMax * 1.05, std::max(4.0 * s.currentEps, 1e-9)));
    chart.series << targetLine(s.currentEps, held);
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
                       .arg(accountingNumber(c->inputs.eps),
                            sweep ? QStringLiteral("<th align='right'>%1 in the sweep (cost)</th>").arg(sweep->metric)
                                  : QString());
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        const core::AccountantKind kind = core::kAccountants[k];
        const core::Calibration& cal = c->needed[k];
        QString sigma = accountingNumber(cal.sigma);
        if (!c->reached(k))
            sigma = QStringLiteral("none ≤ %1").arg(sigmaLimit());
        else if (!cal.reachedTarget)
            // ε(σ) jumps past the target (AC: ε_it reaches 1; RDP: ε drops to 0 past the KL bound):
            // the smallest σ meeting it certifies a smaller ε, a stronger guarantee.
            sigma += QStringLiteral(" (ε jumps past the target: certifies ε = %1)")
                         .arg(accountingNumber(cal.result.epsilon));
        QString cost;
        if (sweep) {
            const core::UtilityCost& u = (*costs)[k];
            cost = !std::isfinite(u.sigma) ? QStringLiteral("no σ ≤ %1 reaches ε").arg(sigmaLimit())
                   : u.value               ? QStringLiteral("%1 (%2%3)")
                                   .arg(QString::number(*u.value, 'f', 3),
                                        u.cost && *u.cost > 0.0005 ? QStringLiteral("−") : QStringLiteral("±"),
                                        u.cost ? QString::number(std::abs(*u.cost), 'f', 3) : QStringLiteral("?"))
                             : QStringLiteral("outside the sweep (ε' = %1)").arg(accountingNumber(u.equivalentEps, 3));
            cost = QStringLiteral("<td align='right'>%1</td>").arg(cost);
        }
        html += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2%3</td><td align='right'>%4</td>"
                               "<td align='right'>%5</td><td align='right'>%6</td>%7</tr>")
                    .arg(accountantColor(kind).name(), title(kind),
                         cal.result.proven ? QString() : QStringLiteral(" ⚠"), sigma, ratio(cal.sigma, rdpSigma),
                         std::isfinite(c->rdpOfNeeded[k]) ? accountingNumber(c->rdpOfNeeded[k]) : QStringLiteral("—"),
                         cost);
    }
    html += QStringLiteral("</table>");
    if (sweep)
        html += QStringLiteral(
                    "<p style='color:#555'>Cost: the Utility tab's DP-SGD sweep (%1) measured with the noise each "
                    "accountant needs for ε = %2 at the sweep's own schedule, against its value at ε "
                    "(− is worse). ⚠: not a proof. The RDP column is what RDP proves for each σ: more than ε "
                    "for a tighter accountant's σ (PLD proves ε with less noise).</p>")
                    .arg(sweep->description, accountingNumber(c->inputs.eps));
    else
        html += QStringLiteral(
            "<p style='color:#555'>More noise for the same ε costs accuracy: run the Utility tab's sweep "
            "with DP-SGD to see how much here. ⚠: not a proof. The last column is what RDP proves for each "
            "σ: more than ε for a tighter accountant's σ (PLD proves ε with less noise).</p>");
    return html;
}

QString accountingUnreached(const core::AccountingCurves& c) {
    QStringList names;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k)
        if (!c.reached(k))
            names << shortTitle(core::kAccountants[k]);
    if (names.isEmpty())
        return {};
    return QStringLiteral("No noise multiplier σ ≤ %1 reaches ε = %2 under %3 at these settings: %4. ")
        .arg(sigmaLimit(), accountingNumber(c.inputs.eps), names.join(QStringLiteral(", ")),
             c.reached(core::accountantIndex(c.inputs.accountant))
                 ? QStringLiteral("the others are shown")
                 : QStringLiteral(
                       "no current σ and no spending curve (a larger ε, fewer epochs or more rows reach it)"));
}

QString accountingReadout(const core::AccountingCurves& c, double sigma) {
    QStringList lines;
    lines << QStringLiteral("σ = %1:").arg(accountingNumber(sigma, 5));
    const core::SgdPrivacyParams p{sigma, c.inputs.q(), c.inputs.steps(), c.inputs.delta};
    // At the current σ the worker has accounted every step already: the spending curves' last
    // epoch (the same computation; up to 30 ms of RDP at a small σ, kept off this thread).
    const bool spent = sigma == c.currentSigma && !c.epochs.empty() && c.epochs.back() == c.inputs.epochs;
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        const core::AccountantKind kind = core::kAccountants[k];
        const double eps = spent              ? c.epsByEpoch[k].back()
                           : c.inputs.nPublic ? core::accountEpsilon(kind, p).epsilon
                                              : core::replaceOneEpsilon(kind, p).epsilon;
        lines << QStringLiteral("  %1: ε = %2%3")
                     .arg(QString::fromLatin1(core::toString(kind)), accountingNumber(eps, 6),
                          core::accountantIsProof(kind) ? QString() : QStringLiteral(" (not a proof)"));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace elab::ui
