#pragma once
// The training curves of the Utility tab (issue 12): train and test accuracy (left) and loss
// (right) per epoch of the DP-SGD run at the slider's ε, streaming in, with the non-private run
// of the same problem dashed grey for reference. Shown while the mechanism trains in epochs.
// GUI thread only.

#include "ui/charts/chart_data.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
}
class TrainingController;

class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    TrainingPanel(TrainingController* controller, QWidget* parent = nullptr);

    charts::ChartData accuracyChart() const;
    charts::ChartData lossChart() const;
    QString statusText() const;

private:
    void refresh();

    TrainingController* m_controller;
    charts::ChartView* m_accuracy;
    charts::ChartView* m_loss;
    QLabel* m_status;
};

} // namespace elab::ui
