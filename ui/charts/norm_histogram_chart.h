#pragma once
// Histogram of the rows' L2 norms with a marker at norm 1, the bound that the default
// preprocessing (clip rows, MATH.md §1) enforces; the title says how many rows it changes.
// Norms that reach past 10 are drawn on a log axis, so that the marker stays visible next
// to raw data whose norms are in the thousands. GUI thread only.

#include "core/data/dataset_summary.h"

#include <QChartView>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace elab::ui {

class NormHistogramChart : public QChartView {
    Q_OBJECT
public:
    explicit NormHistogramChart(QWidget* parent = nullptr);

    /// summary: linear histogram, norm range and rows above 1; logHistogram: log10(norm)
    /// bins (LoadedDataset::logNormHistogram), used when the norms reach past 10.
    void setNorms(const core::DatasetSummary& summary, const core::Histogram& logHistogram);
    void clear();

    /// The title, e.g. "569 of 569 rows clipped (norm > 1)".
    QString clipText() const { return m_clipText; }
    bool isLogScale() const { return m_log; }

private:
    void setXAxis(QAbstractAxis* axis);

    QLineSeries* m_outline = nullptr;
    QAreaSeries* m_area = nullptr;
    QLineSeries* m_marker = nullptr;
    QAbstractAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QString m_clipText;
    bool m_log = false;
};

} // namespace elab::ui
