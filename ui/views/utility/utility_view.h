#pragma once
// The "Utility vs ε" tab: the ε slider, the chart (measured curve, Taylor estimates,
// non-private level, target), the readout at the current ε, the target / verify block and
// the measuring points. It composes the settings from the mechanism panel, the slider and
// the target field and hands them to the UtilityController; it draws what the controller
// holds. GUI thread only.

#include "ui/charts/chart_data.h"
#include "ui/widgets/utility_settings.h"

#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QVBoxLayout;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
}
class EpsSlider;
class MechanismPanel;
class UtilityController;

class UtilityView : public QWidget {
    Q_OBJECT
public:
    UtilityView(UtilityController* controller, MechanismPanel* panel, QWidget* parent = nullptr);

    /// The settings as the user has them now: panel + slider ε + target.
    UtilitySettings composedSettings() const;
    /// Applies settings to the panel, slider and target field, and to the controller.
    void applySettings(const UtilitySettings& settings);
    void setDatasetName(const QString& name);
    /// Sends the composed settings to the controller now (after a new dataset's shape).
    void pushSettingsNow() { pushSettings(); }
    QString datasetName() const { return m_datasetName; }

    /// What the chart shows now (also what exports draw).
    charts::ChartData chartData() const;
    charts::ChartView* chartView() const { return m_chart; }
    EpsSlider* slider() const { return m_slider; }
    /// Puts w under the chart (the training curves of a mechanism that trains in epochs).
    void addBelowChart(QWidget* w);
    QLineEdit* targetEdit() const { return m_target; }
    QPushButton* verifyButton() const { return m_verify; }
    /// The chart's utility axis: logarithmic when checked (a view option, not a setting).
    QCheckBox* logYCheck() const { return m_logY; }
    QListWidget* measuringList() const { return m_measuring; }
    QTableWidget* stepsTable() const { return m_steps; }
    /// "Compare with": a checkable row per catalog mechanism (objectName "compareList"; the item's
    /// data Qt::UserRole is its name); the chosen mechanism's row is disabled.
    QListWidget* compareList() const { return m_compare; }
    /// The compared mechanisms ranked at the current ε and the ε each needs (comparisonLines).
    QString comparisonText() const;
    QString readoutText() const;
    QString proposalText() const;
    QString warningText() const;

public slots:
    /// Adds a measuring point at eps (rounded to 3 significant digits) unless present.
    void addMeasuringPoint(double eps);
    void removeSelectedMeasuringPoint();

private:
    void buildLayout();
    void pushSettings();
    void onEpsChanged(double eps, bool dragging);
    void refresh();
    void refreshReadout();
    void refreshTarget();
    void refreshMeasuringList();
    void buildCompareList();
    void refreshCompareList(const UtilitySettings& settings);

    UtilityController* m_controller;
    MechanismPanel* m_panel;
    EpsSlider* m_slider = nullptr;
    QVBoxLayout* m_chartColumn = nullptr;
    charts::ChartView* m_chart = nullptr;
    QLabel* m_readout = nullptr;
    QLineEdit* m_target = nullptr;
    QLabel* m_proposal = nullptr;
    QLabel* m_warning = nullptr;
    QPushButton* m_verify = nullptr;
    QPushButton* m_useProposal = nullptr;
    QTableWidget* m_steps = nullptr;
    QLabel* m_stepsSummary = nullptr;
    QListWidget* m_measuring = nullptr;
    QListWidget* m_compare = nullptr;
    QLabel* m_comparison = nullptr;
    QPushButton* m_removeMeasuring = nullptr;
    QLabel* m_privacyNote = nullptr;
    QCheckBox* m_logY = nullptr;
    bool m_logYChosen = false; ///< the user set the box: no automatic log scale any more
    QString m_datasetName;
    QTimer m_refreshTimer;
    bool m_applying = false;
};

} // namespace elab::ui
