#pragma once
// The one window: dataset and mechanism panels on the left, tabs of views on the right, a
// status bar with the dataset and running jobs. Layout and wiring only: loading lives in
// LoadController, the utility computations in UtilityController, sessions in
// SessionActions. GUI thread only.

#include "ui/charts/chart_export.h"
#include "ui/dataset/loaded_dataset.h"

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QLabel;
class QSplitter;
class QTabWidget;
QT_END_NAMESPACE

namespace elab::ui {

class DataView;
class DatasetPanel;
class JobIndicator;
class JobSlot;
class LoadController;
class MechanismPanel;
class SessionActions;
class StabilityController;
class StabilityView;
class UtilityController;
class UtilityView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Starts loading; the displayed dataset stays until the new one has arrived.
    void load(const LoadRequest& request);
    /// Off: load errors are only reported through loadFailed() and the status bar (tests,
    /// --screenshot). On by default: a message box (non-blocking, window-modal).
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    /// A window-modal, non-blocking warning (if dialogs are enabled) and the status bar.
    void showError(const QString& title, const QString& text, const QString& details);

    /// The displayed dataset (invalid before the first successful load).
    const LoadedDataset& current() const { return m_current; }
    LoadController* loadController() const { return m_controller; }
    DatasetPanel* datasetPanel() const { return m_panel; }
    DataView* dataView() const { return m_dataView; }
    MechanismPanel* mechanismPanel() const { return m_mechanism; }
    UtilityController* utilityController() const { return m_utility; }
    UtilityView* utilityView() const { return m_utilityView; }
    StabilityController* stabilityController() const { return m_stability; }
    StabilityView* stabilityView() const { return m_stabilityView; }
    SessionActions* sessionActions() const { return m_sessions; }
    /// Shows the tab of a view: "utility", "stability" or "data".
    void showView(const QString& view);
    /// The name of the view shown ("utility", "stability" or "data").
    QString currentView() const;
    /// Export dialog for the figure of the view shown (PNG/SVG/PDF with CSV and JSON beside
    /// it; the stability view writes its two charts as NAME-test-error and NAME-marginal-error).
    void exportFigureInteractively();
    /// Writes the figure(s) of the view shown to path (see above); the files written.
    QStringList exportCurrentView(const QString& path, const charts::ExportOptions& options, QString* error);
    JobIndicator* jobIndicator() const { return m_jobs; }
    /// The utility computations' progress and Cancel.
    JobIndicator* computeIndicator() const { return m_computeJobs; }
    QTabWidget* tabs() const { return m_tabs; }
    QString datasetStatusText() const;

signals:
    /// A newly loaded dataset is displayed.
    void datasetShown(const elab::ui::LoadedDataset& loaded);
    /// A load failed; message is "file:line:column: message". The old dataset is still shown.
    void loadFailed(const QString& message);

private:
    void buildMenus();
    QWidget* buildLeftColumn();
    void connectJobs();
    void connectJobSlot(JobSlot* slot, JobIndicator* indicator);
    /// The stability sweep runs only while its tab is shown (it is costly): hand over the
    /// dataset when the tab becomes visible.
    void syncStabilityDataset();
    void showDataset(const LoadedDataset& loaded);
    void reportFailure(const QString& message, const LoadRequest& request);

    LoadController* m_controller = nullptr;
    DatasetPanel* m_panel = nullptr;
    QTabWidget* m_tabs = nullptr;
    DataView* m_dataView = nullptr;
    MechanismPanel* m_mechanism = nullptr;
    UtilityController* m_utility = nullptr;
    UtilityView* m_utilityView = nullptr;
    SessionActions* m_sessions = nullptr;
    StabilityController* m_stability = nullptr;
    StabilityView* m_stabilityView = nullptr;
    QSplitter* m_splitter = nullptr;
    QLabel* m_datasetStatus = nullptr;
    JobIndicator* m_jobs = nullptr;
    JobIndicator* m_computeJobs = nullptr;
    LoadedDataset m_current;
    bool m_errorDialogs = true;
};

} // namespace elab::ui
