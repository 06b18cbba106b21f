#pragma once
// The "Stability" tab (issue 5, Jain et al. §5): a side form (model, methods, dropout rate,
// random/adversarial removal, ρ grid, repetitions, test fraction, seed), two live charts —
// test error and marginal error against ρ — and a summary (progress in cells, chosen λ,
// separable flags, model stability per method). It edits a StabilitySettings, hands it to
// the StabilityController and draws what the controller holds. Widgets have objectNames
// ("removalRandom", "removalAdversarial", "method:l2", "dropoutRateSpin", "repeatsSpin",
// "rhoMinSpin", "rhoMaxSpin", "rhoPointsSpin", "seedSpin", "testFractionSpin",
// "modelCombo", "positiveClassCombo", "problemLabel", "statusLabel", "summaryTable").
// GUI thread only.

#include "ui/charts/chart_data.h"
#include "ui/views/stability/stability_settings.h"

#include <QMap>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
}
class StabilityController;

class StabilityView : public QWidget {
    Q_OBJECT
public:
    StabilityView(StabilityController* controller, QWidget* parent = nullptr);

    /// The settings as the form has them now (possibly invalid).
    StabilitySettings settings() const { return m_settings; }
    /// Shows settings in the form and sends them to the controller.
    void applySettings(const StabilitySettings& settings);
    void setDatasetName(const QString& name);
    QString datasetName() const { return m_datasetName; }

    /// What chart which (0: test error, 1: marginal error) shows now; also what exports draw.
    charts::ChartData chartData(int which) const;
    charts::ChartView* chartView(int which) const { return which == 0 ? m_testChart : m_marginalChart; }
    QString statusText() const;
    QString problemText() const;
    QTableWidget* summaryTable() const { return m_table; }

private:
    void buildForm(QWidget* side);
    void connectEdits();
    void showSettings();
    void edited();
    void adaptToDataset();
    void refresh();
    void refreshStatus();
    void refreshTable();

    StabilityController* m_controller;
    StabilitySettings m_settings;
    QString m_datasetName;
    bool m_applying = false;

    QComboBox* m_model = nullptr;
    QComboBox* m_positiveClass = nullptr;
    QLabel* m_positiveLabel = nullptr;
    QMap<core::StabilityMethod, QCheckBox*> m_methods;
    QDoubleSpinBox* m_dropoutRate = nullptr;
    QRadioButton* m_random = nullptr;
    QRadioButton* m_adversarial = nullptr;
    QDoubleSpinBox* m_rhoMin = nullptr;
    QDoubleSpinBox* m_rhoMax = nullptr;
    QSpinBox* m_rhoPoints = nullptr;
    QSpinBox* m_repeats = nullptr;
    QDoubleSpinBox* m_testFraction = nullptr;
    QSpinBox* m_seed = nullptr;
    QLabel* m_problem = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_recompute = nullptr;
    charts::ChartView* m_testChart = nullptr;
    charts::ChartView* m_marginalChart = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace elab::ui
