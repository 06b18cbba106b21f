#pragma once
// Label balance of the loaded dataset: a bar per class (classification) or a histogram of
// the target (regression). GUI thread only.

#include "core/data/dataset_summary.h"

#include <QChartView>
#include <QStringList>

#include <vector>

namespace elab::ui {

class LabelBalanceChart : public QChartView {
    Q_OBJECT
public:
    explicit LabelBalanceChart(QWidget* parent = nullptr);

    /// Bars with the row count of each class; past 12 classes, the 11 largest and one bar
    /// for the rest.
    void setClasses(const std::vector<core::ClassBalance>& classes);
    /// Histogram of a real-valued target.
    void setTargetHistogram(const core::Histogram& histogram);
    void clear();

    /// Names of the bars, top-down (classification), empty otherwise.
    QStringList categories() const { return m_categories; }
    int categoryCount() const { return static_cast<int>(m_categories.size()); }
    bool showsHistogram() const { return m_histogram; }

private:
    void reset(const QString& title);

    QStringList m_categories;
    bool m_histogram = false;
};

} // namespace elab::ui
