#include "ui/charts/norm_histogram_chart.h"

#include "ui/charts/chart_style.h"
#include "ui/charts/palettes.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QLocale>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace elab::ui {

namespace {
const QColor kFill = QColor::fromRgb(charts::palette::kHistogramFill);
const QColor kBorder = QColor::fromRgb(charts::palette::kHistogramBorder);
const QColor kMarker = QColor::fromRgb(charts::palette::kHistogramMarker);
// Past this norm a linear axis squeezes the marker at 1 against the left edge.
constexpr double kLogAbove = 10.0;

// "0.01", "0.1", "1", "10", "100", "1000", then "10⁴", "10⁵", …
QString decadeLabel(int k) {
    if (k >= -2 && k <= 3)
        return QLocale::c().toString(std::pow(10.0, k), 'g', 4);
    static const char16_t* const kDigits[] = {u"⁰", u"¹", u"²", u"³", u"⁴", u"⁵", u"⁶", u"⁷", u"⁸", u"⁹"};
    QString exponent;
    for (const QChar c : QString::number(std::abs(k)))
        exponent += QString::fromUtf16(kDigits[c.digitValue()]);
    return QStringLiteral("10") + (k < 0 ? QStringLiteral("⁻") : QString()) + exponent;
}

// Log scale drawn on a linear axis in log10 units, labelled at whole decades: Qt Charts'
// QLogValueAxis labels every decade and they collide when norms span many of them.
QCategoryAxis* decadeAxis(const core::Histogram& logHistogram) {
    const int lo = std::min(-1, static_cast<int>(std::floor(logHistogram.lo)));
    const int hi = std::max(1, static_cast<int>(std::ceil(logHistogram.hi)));
    const int span = hi - lo;
    const int step = span <= 6 ? 1 : span <= 12 ? 2 : 3;
    const double margin = 0.04 * span;
    auto* axis = new QCategoryAxis;
    axis->setRange(lo - margin, hi);
    axis->setStartValue(lo - margin);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int k = lo; k <= hi; k += step)
        axis->append(decadeLabel(k), k);
    return axis;
}
} // namespace

NormHistogramChart::NormHistogramChart(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart;
    applyChartStyle(chart);
    setChart(chart);
    applyChartViewStyle(this);

    m_outline = new QLineSeries;
    m_area = new QAreaSeries(m_outline);
    m_outline->setParent(m_area); // QAreaSeries does not own its boundary series
    m_area->setName(tr("rows"));
    m_area->setColor(kFill);
    m_area->setBorderColor(kBorder);
    m_marker = new QLineSeries;
    m_marker->setName(tr("norm = 1"));
    QPen pen(kMarker);
    pen.setWidthF(2.0);
    pen.setStyle(Qt::DashLine);
    m_marker->setPen(pen);
    chart->addSeries(m_area);
    chart->addSeries(m_marker);

    m_y = new QValueAxis;
    m_y->setTitleText(tr("rows"));
    m_y->setLabelFormat(QStringLiteral("%i"));
    chart->addAxis(m_y, Qt::AlignLeft);
    m_area->attachAxis(m_y);
    m_marker->attachAxis(m_y);
    clear();
}

void NormHistogramChart::setXAxis(QAbstractAxis* axis) {
    if (m_x) {
        chart()->removeAxis(m_x); // detaches the series; ownership comes back
        delete m_x;
    }
    m_x = axis;
    m_x->setTitleText(m_log ? tr("row L2 norm, log scale (red: 1)") : tr("row L2 norm (red: 1)"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    m_area->attachAxis(m_x);
    m_marker->attachAxis(m_x);
}

void NormHistogramChart::clear() {
    m_outline->clear();
    m_marker->clear();
    m_log = false;
    auto* x = new QValueAxis;
    x->setRange(0, 1.1);
    setXAxis(x);
    m_y->setRange(0, 1);
    m_clipText.clear();
    chart()->setTitle(QString());
}

void NormHistogramChart::setNorms(const core::DatasetSummary& summary, const core::Histogram& logHistogram) {
    m_log = summary.normMax > kLogAbove && !logHistogram.counts.empty();
    const core::Histogram& histogram = m_log ? logHistogram : summary.normHistogram;
    const QList<QPointF> outline = histogramOutline(histogram);
    m_outline->replace(outline);
    if (m_log) {
        setXAxis(decadeAxis(logHistogram));
    } else {
        auto* x = new QValueAxis;
        // From 0 so that the marker at 1 is always on the chart.
        x->setRange(0.0, std::max(histogram.hi, 1.0) * 1.05);
        x->applyNiceNumbers();
        x->setLabelFormat(QStringLiteral("%.4g"));
        setXAxis(x);
    }
    const double peak = std::max<double>(1.0, static_cast<double>(histogramPeak(histogram)));
    m_y->setRange(0.0, peak * 1.1);
    m_y->applyNiceNumbers();
    const double one = m_log ? 0.0 : 1.0; // log10(1) on the decade axis
    m_marker->replace({QPointF(one, 0.0), QPointF(one, m_y->max())});

    const QLocale locale;
    if (summary.rowsAboveUnitNorm == 0)
        m_clipText = tr("all %1 rows have norm ≤ 1: clipping changes none").arg(locale.toString(qint64(summary.rows)));
    else
        m_clipText =
            tr("%1 of %2 rows clipped (norm > 1)")
                .arg(locale.toString(qint64(summary.rowsAboveUnitNorm)), locale.toString(qint64(summary.rows)));
    chart()->setTitle(m_clipText);
    setToolTip(tr("Row L2 norms: min %1, median %2, max %3. The default preprocessing "
                  "divides every row with norm above 1 by its norm.")
                   .arg(summary.normMin, 0, 'g', 4)
                   .arg(summary.normMedian, 0, 'g', 4)
                   .arg(summary.normMax, 0, 'g', 4));
}

} // namespace elab::ui
