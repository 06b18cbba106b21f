#pragma once
// The one window: the dataset panel (and the side panels of the views) on the left, one tab
// per registered view (ui/views/view_catalog.h) on the right, a status bar with the dataset
// and running jobs. Layout and wiring only: loading lives in LoadController, each view's
// computations in its controller, sessions in SessionActions; nothing here names a view.
// GUI thread only.

#include "ui/charts/chart_export.h"
#include "ui/dataset/loaded_dataset.h"
#include "ui/views/view.h"

#include <QMainWindow>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QSplitter;
class QTabWidget;
QT_END_NAMESPACE

namespace elab::ui {

class AnimationRecorder;
struct AnimationRequest;
class DataView;
class DatasetPanel;
class JobIndicator;
class JobSlot;
class LoadController;
class MechanismPanel;
class LessonPlayer;
class PresentationMode;
class SessionActions;
class StabilityController;
class StabilityView;
class UtilityController;
class UtilityView;
struct ViewType;

class MainWindow : public QMainWindow, public ViewHost {
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
    void showStatusMessage(const QString& text, int milliseconds) override;

    /// The displayed dataset (invalid before the first successful load).
    const LoadedDataset& current() const { return m_current; }
    LoadController* loadController() const { return m_controller; }
    DatasetPanel* datasetPanel() const { return m_panel; }
    SessionActions* sessionActions() const { return m_sessions; }
    /// File ▸ Open lesson…, stepping, captions (ui/lessons/lesson_player.h).
    LessonPlayer* lessons() const { return m_lessons; }
    /// View ▸ Presentation mode (ui/shell/presentation_mode.h).
    PresentationMode* presentationMode() const { return m_presentation; }
    QSplitter* splitter() const { return m_splitter; }

    /// The views in tab order (the catalog's order) and their types.
    const std::vector<std::unique_ptr<View>>& views() const { return m_views; }
    const ViewType& viewType(std::size_t index) const { return *m_types[index]; }
    /// The view with this id, or null.
    View* view(const QString& id) const;
    SharedState* sharedState() const override { return m_shared; }
    void requestLoad(const LoadRequest& request) override { load(request); }
    /// The first view of type T (a tab class, e.g. UtilityTab), or null.
    template <class T>
    T* view() const {
        for (const auto& v : m_views)
            if (auto* t = dynamic_cast<T*>(v.get()))
                return t;
        return nullptr;
    }
    /// Shows the tab of a view by id ("utility", "stability", "data", …); unknown: the first.
    void showView(const QString& id);
    /// The id of the view shown.
    QString currentView() const;
    /// Export dialog for the figure of the view shown (PNG/SVG/PDF with CSV and JSON beside
    /// it; a view with several figures writes NAME<suffix>.EXT for each).
    void exportFigureInteractively();
    /// Writes the figure(s) of the view shown to path (see above); the files written.
    QStringList exportCurrentView(const QString& path, const charts::ExportOptions& options, QString* error);
    /// Plays the view shown over request's ε range into an animated GIF or a numbered PNG
    /// sequence with CSV and JSON beside it (ui/shell/animation_recorder.h); the recorder is the
    /// window's child, starts from the event loop (connect to it first), reports with its
    /// finished signal and is deleted after it. main_window_animation.cpp.
    AnimationRecorder* exportAnimation(const AnimationRequest& request);
    /// File ▸ Export animation…: the file, ε range and frame time, then exportAnimation().
    void exportAnimationInteractively();
    JobIndicator* jobIndicator() const { return m_jobs; }
    /// The views' computations: progress and Cancel.
    JobIndicator* computeIndicator() const { return m_computeJobs; }
    QTabWidget* tabs() const { return m_tabs; }
    QString datasetStatusText() const;

    /// Shortcuts to the first views' parts (tests, the composition root); main_window_views.cpp.
    DataView* dataView() const;
    MechanismPanel* mechanismPanel() const;
    UtilityView* utilityView() const;
    UtilityController* utilityController() const;
    StabilityView* stabilityView() const;
    StabilityController* stabilityController() const;

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
    /// Each ε slider's play button steps only once its view shows the result of the last step.
    void connectPlayback();
    /// The view shown: side panels, and a costly view's dataset hand-over.
    void syncCurrentView();
    View* currentViewObject() const;
    void showDataset(const LoadedDataset& loaded);
    void reportFailure(const QString& message, const LoadRequest& request);

    LoadController* m_controller = nullptr;
    DatasetPanel* m_panel = nullptr;
    QTabWidget* m_tabs = nullptr;
    SharedState* m_shared = nullptr; ///< created before the views, so deleted before their controllers
    std::vector<std::unique_ptr<View>> m_views;
    std::vector<const ViewType*> m_types;
    SessionActions* m_sessions = nullptr;
    LessonPlayer* m_lessons = nullptr;
    PresentationMode* m_presentation = nullptr;
    QSplitter* m_splitter = nullptr;
    QLabel* m_datasetStatus = nullptr;
    JobIndicator* m_jobs = nullptr;
    JobIndicator* m_computeJobs = nullptr;
    LoadedDataset m_current;
    const View* m_panelView = nullptr; ///< whose side panel the left column shows
    bool m_errorDialogs = true;
};

} // namespace elab::ui
