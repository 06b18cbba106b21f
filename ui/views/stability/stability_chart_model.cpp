#include "ui/views/stability/stability_chart_model.h"

#include "ui/charts/palettes.h"
#include "ui/widgets/eps_text.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

QString methodKey(core::StabilityMethod method) { return QString::fromLatin1(core::toString(method)); }

QString chartNumber(double v) { return formatNumber(v, 3, NumberForm::Printf); }

/// Legend names short enough for two charts side by side.
QString shortMethodTitle(core::StabilityMethod method) {
    switch (method) {
    case core::StabilityMethod::None: return QStringLiteral("none");
    case core::StabilityMethod::L2: return QStringLiteral("L2");
    case core::StabilityMethod::Dropout: return QStringLiteral("dropout");
    case core::StabilityMethod::DeterministicDropout: return QStringLiteral("det. dropout");
    }
    return {};
}

} // namespace

QColor methodColor(core::StabilityMethod method) {
    switch (method) {
    case core::StabilityMethod::None: return QColor::fromRgb(charts::palette::kDarkGrey);
    case core::StabilityMethod::L2: return QColor::fromRgb(charts::palette::kBlue);
    case core::StabilityMethod::Dropout: return QColor::fromRgb(charts::palette::kVermillion);
    case core::StabilityMethod::DeterministicDropout: return QColor::fromRgb(charts::palette::kBluishGreen);
    }
    return QColor(Qt::black);
}

QString errorMeasureTitle(core::StabilityModel model) {
    return model == core::StabilityModel::Logistic ? QStringLiteral("misclassification rate")
                                                   : QStringLiteral("mean squared error");
}

QString stabilitySummary(const StabilitySettings& settings, const StabilityState& state) {
    QStringList parts;
    parts << (state.model == core::StabilityModel::Logistic ? QStringLiteral("logistic regression")
                                                            : QStringLiteral("linear regression"));
    parts << QStringLiteral("%1 removal").arg(QString::fromLatin1(core::toString(settings.removal)));
    parts << QStringLiteral("dropout rate %1 (q = %2)")
                 .arg(chartNumber(settings.dropoutRate), chartNumber(1.0 - settings.dropoutRate));
    parts << QStringLiteral("%1 repetitions, seed %2").arg(settings.repeats).arg(settings.seed);
    parts << QStringLiteral("test fraction %1").arg(chartNumber(settings.testFraction));
    if (const core::MethodBaseline* l2 = state.baseline(core::StabilityMethod::L2))
        parts << QStringLiteral("L2: λ = %1 (%2-fold CV)").arg(QString::number(l2->mu, 'g', 2)).arg(l2->cv.folds);
    return parts.join(QStringLiteral(" · "));
}

charts::ChartData buildStabilityChart(StabilityChart which, const StabilitySettings& settings,
                                      const StabilityState& state, const QString& datasetName) {
    const bool marginal = which == StabilityChart::MarginalError;
    const QString measure = errorMeasureTitle(state.model);
    const QString removal = QString::fromLatin1(core::toString(settings.removal));
    charts::ChartData chart;
    // Short: the two charts sit side by side; the dataset is in the window title and sidecar.
    chart.title = QStringLiteral("%1, %2 removal")
                      .arg(marginal ? QStringLiteral("Marginal error") : QStringLiteral("Test error"), removal);
    Q_UNUSED(datasetName);
    chart.xTitle = QStringLiteral("ρ (fraction of training rows removed)");
    // The shaded bands are ±1 sd over the repetitions, cut at the measure's range; said on the
    // axis, not once per method.
    const QString range = !marginal && state.model == core::StabilityModel::Logistic ? QStringLiteral("within [0, 1]")
                                                                                     : QStringLiteral("cut at 0");
    chart.yTitle = marginal ? QStringLiteral("|err(ρ) − err(0)|, %1 (mean ± 1 sd, %2)").arg(measure, range)
                            : QStringLiteral("test %1 (mean ± 1 sd, %2)").arg(measure, range);
    chart.logX = false;
    const std::vector<double>& rho = state.rho.empty() ? settings.rhoGrid() : state.rho;
    chart.xMin = rho.front();
    chart.xMax = rho.back();
    // A little room either side so that the end markers are not cut in half.
    const double span = chart.xMax > chart.xMin ? chart.xMax - chart.xMin : 0.4;
    chart.xMin -= 0.025 * span;
    chart.xMax += 0.025 * span;
    chart.footnote = stabilitySummary(settings, state);

    // Misclassification rates lie in [0, 1]; MSE and marginal errors are ≥ 0: the bands are cut there.
    const double ceiling = state.model == core::StabilityModel::Logistic ? 1.0 : INFINITY;
    double lo = INFINITY, hi = -INFINITY;
    QVector<SeriesData> bands, means, dots;
    for (std::size_t m = 0; m < state.methods.size(); ++m) {
        const core::StabilityMethod method = state.methods[m];
        const QString key = methodKey(method);
        const QColor colour = methodColor(method);
        QColor faint = colour; // four overlapping bands stay readable
        faint.setAlphaF(0.6f);
        SeriesData band = charts::makeSeries(QStringLiteral("band:") + key, QString(), SeriesKind::Band, faint);
        SeriesData mean =
            charts::makeSeries(QStringLiteral("mean:") + key, shortMethodTitle(method), SeriesKind::Line, colour);
        SeriesData points = charts::makeSeries(QStringLiteral("points:") + key, QString(), SeriesKind::Points, colour);
        points.width = 6.0;
        for (std::size_t g = 0; g < state.rho.size(); ++g) {
            const core::StabilityCell* cell = state.cell(g, m);
            if (!cell)
                continue;
            const core::MeanSd& v = marginal ? cell->marginalError : cell->testError;
            if (!std::isfinite(v.mean))
                continue;
            const double low = std::max(0.0, v.mean - v.sd), high = std::min(ceiling, v.mean + v.sd);
            band.points.append({cell->rho, low});
            band.upper.append({cell->rho, high});
            mean.points.append({cell->rho, v.mean});
            lo = std::min(lo, low);
            hi = std::max(hi, high);
        }
        points.points = mean.points;
        bands << band;
        means << mean;
        dots << points;
    }
    chart.series << bands << means << dots;
    if (hi >= lo) {
        const double pad = hi > lo ? 0.08 * (hi - lo) : 0.05 * std::max(1e-3, std::abs(hi));
        // Error rates start at 0: show 0 unless the data sits far above it.
        chart.yMin = marginal || lo - pad < 0.5 * hi ? 0.0 : lo - pad;
        chart.yMax = hi + pad;
    } else {
        chart.yMin = 0.0;
        chart.yMax = state.model == core::StabilityModel::Logistic ? 0.5 : 1.0;
    }
    return chart;
}

} // namespace elab::ui
