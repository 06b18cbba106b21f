#pragma once
// The one window: dataset panel on the left, tabs of views on the right, a status bar with
// the dataset and running jobs. Layout and wiring only; loading lives in LoadController.
// GUI thread only.

#include "ui/controllers/loaded_dataset.h"

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
class LoadController;

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

    /// The displayed dataset (invalid before the first successful load).
    const LoadedDataset& current() const { return m_current; }
    LoadController* loadController() const { return m_controller; }
    DatasetPanel* datasetPanel() const { return m_panel; }
    DataView* dataView() const { return m_dataView; }
    JobIndicator* jobIndicator() const { return m_jobs; }
    QTabWidget* tabs() const { return m_tabs; }
    QString datasetStatusText() const;

signals:
    /// A newly loaded dataset is displayed.
    void datasetShown(const elab::ui::LoadedDataset& loaded);
    /// A load failed; message is "file:line:column: message". The old dataset is still shown.
    void loadFailed(const QString& message);

private:
    void buildMenus();
    void showDataset(const LoadedDataset& loaded);
    void reportFailure(const QString& message, const LoadRequest& request);

    LoadController* m_controller = nullptr;
    DatasetPanel* m_panel = nullptr;
    QTabWidget* m_tabs = nullptr;
    DataView* m_dataView = nullptr;
    QSplitter* m_splitter = nullptr;
    QLabel* m_datasetStatus = nullptr;
    JobIndicator* m_jobs = nullptr;
    LoadedDataset m_current;
    bool m_errorDialogs = true;
};

} // namespace elab::ui
