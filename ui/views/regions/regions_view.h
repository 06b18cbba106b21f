#pragma once
// The "Decision regions" tab (issue 11): the ε slider (the utility view's EpsSlider), the
// regions chart and, beside it, the readout at the picture's ε — accuracy mean ± sd over the
// draws, the non-private accuracy, the misclassified points — and the guarantee of what is
// shown (notion, ε, δ, source, assumptions, branch and constants). It composes the settings
// from the side panel and the slider and hands them to the RegionsController; every slider
// step goes to the controller at once, and each result redraws the picture, its ε in the
// title (the marker) and the readout in one call (refresh). Widgets have objectNames
// ("readout", "guarantee", "status"). GUI thread only.

#include "ui/charts/chart_data.h"
#include "ui/views/regions/regions_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
}
class EpsSlider;
class RegionsController;
class RegionsPanel;
class ThrottledText;

class RegionsView : public QWidget {
    Q_OBJECT
public:
    RegionsView(RegionsController* controller, RegionsPanel* panel, QWidget* parent = nullptr);

    /// The settings as the user has them now: the panel's plus the slider's ε.
    RegionsSettings composedSettings() const;
    /// Shows settings in the panel and the slider and hands them to the controller.
    void applySettings(const RegionsSettings& settings);
    /// Sends the composed settings to the controller now (a new dataset's plane).
    void pushSettingsNow() { pushSettings(); }
    void setDatasetName(const QString& name);
    QString datasetName() const { return m_datasetName; }

    /// What the chart shows now; also what exports draw.
    charts::ChartData chartData() const;
    charts::ChartView* chartView() const { return m_chart; }
    EpsSlider* slider() const { return m_slider; }
    QString readoutText() const;
    QString guaranteeText() const;
    QString statusText() const;

signals:
    /// The picture, its ε marker and the readout were just updated together (refresh).
    void redrawn();

private:
    void buildLayout();
    void pushSettings();
    void onEpsChanged(double eps, bool dragging);
    void refresh();
    void refreshStatus();

    RegionsController* m_controller;
    RegionsPanel* m_panel;
    EpsSlider* m_slider = nullptr;
    charts::ChartView* m_chart = nullptr;
    QLabel* m_readout = nullptr;
    QLabel* m_guarantee = nullptr;
    ThrottledText* m_guaranteeShown = nullptr; // on m_guarantee: every 100 ms at most while dragging
    QLabel* m_status = nullptr;
    QString m_datasetName;
    bool m_applying = false;
    bool m_statusIsProblem = false;
};

} // namespace elab::ui
