#include "ui/charts/label_balance_chart.h"

#include "ui/charts/chart_style.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>

namespace elab::ui {

namespace {
const QColor kBarColour(0x4c, 0x78, 0xa8);
constexpr std::size_t kMaxBars = 12;
} // namespace

LabelBalanceChart::LabelBalanceChart(QWidget* parent) : QChartView(parent) {
    setChart(new QChart);
    applyChartStyle(chart());
    applyChartViewStyle(this);
    reset(tr("Label balance"));
}

void LabelBalanceChart::reset(const QString& title) {
    chart()->removeAllSeries();
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    chart()->setTitle(title);
    m_categories.clear();
    m_histogram = false;
}

void LabelBalanceChart::clear() { reset(tr("Label balance")); }

void LabelBalanceChart::setClasses(const std::vector<core::ClassBalance>& classes) {
    qint64 total = 0;
    for (const auto& c : classes)
        total += c.count;
    // Beyond kMaxBars classes the largest ones get a bar each and the rest share one.
    std::vector<core::ClassBalance> bars = classes;
    if (bars.size() > kMaxBars) {
        std::stable_sort(bars.begin(), bars.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
        core::ClassBalance rest{tr("%1 others").arg(bars.size() - (kMaxBars - 1)).toStdString(), 0};
        for (std::size_t i = kMaxBars - 1; i < bars.size(); ++i)
            rest.count += bars[i].count;
        bars.resize(kMaxBars - 1);
        bars.push_back(rest);
    }
    qint64 peak = 0;
    for (const auto& c : bars)
        peak = std::max<qint64>(peak, c.count);
    reset(tr("%1 classes, %2 rows").arg(classes.size()).arg(QLocale().toString(total)));

    // Horizontal bars: class names get the room they need, and a dozen classes still fit.
    // Categories run bottom-up, so they are added in reverse to read top-down.
    auto* set = new QBarSet(tr("rows"));
    set->setColor(kBarColour);
    set->setBorderColor(kBarColour.darker(120));
    set->setLabelColor(Qt::black);
    QStringList labels;
    for (auto it = bars.rbegin(); it != bars.rend(); ++it) {
        set->append(static_cast<qreal>(it->count));
        const double share = total > 0 ? 100.0 * static_cast<double>(it->count) / static_cast<double>(total) : 0.0;
        const QString percent =
            share > 0.0 && share < 0.5 ? QStringLiteral("<1%") : QStringLiteral("%1%").arg(share, 0, 'f', 0);
        // Axis labels are rich text: escape, or "<1%" would start a tag.
        labels << QStringLiteral("%1 (%2)").arg(QString::fromStdString(it->name), percent).toHtmlEscaped();
    }
    for (const auto& c : bars)
        m_categories << QString::fromStdString(c.name);
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setBarWidth(0.7);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    chart()->addSeries(series);

    auto* y = new QBarCategoryAxis;
    y->append(labels);
    y->setGridLineVisible(false);
    // Qt Charts elides category labels as soon as they are taller than a category's band,
    // which hides even "0 (10%)" with ten classes; the labels are short, so draw them whole.
    y->setTruncateLabels(false);
    auto* x = new QValueAxis;
    // Head room for the count written after each bar; few ticks so that large counts fit.
    x->setRange(0, std::max<qreal>(1.0, static_cast<qreal>(peak) * 1.3));
    x->setTickCount(4);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%i"));
    x->setTitleText(tr("rows"));
    chart()->addAxis(y, Qt::AlignLeft);
    chart()->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
}

void LabelBalanceChart::setTargetHistogram(const core::Histogram& histogram) {
    reset(tr("Target histogram, %1 bins").arg(histogram.counts.size()));
    m_histogram = true;
    auto* upper = new QLineSeries;
    upper->replace(histogramOutline(histogram));
    auto* area = new QAreaSeries(upper);
    upper->setParent(area); // QAreaSeries does not own its boundary series
    area->setName(tr("rows"));
    area->setColor(kBarColour.lighter(130));
    area->setBorderColor(kBarColour);
    chart()->addSeries(area);

    auto* x = new QValueAxis;
    const double span = histogram.hi > histogram.lo ? histogram.hi - histogram.lo : 1.0;
    x->setRange(histogram.lo, histogram.lo + span);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.4g"));
    x->setTitleText(tr("target value"));
    auto* y = new QValueAxis;
    y->setRange(0, std::max<qreal>(1.0, static_cast<qreal>(histogramPeak(histogram)) * 1.1));
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%i"));
    y->setTitleText(tr("rows"));
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    area->attachAxis(x);
    area->attachAxis(y);
}

} // namespace elab::ui
