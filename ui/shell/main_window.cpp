#include "ui/shell/main_window.h"

#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/dataset_text.h"
#include "ui/dataset/load_controller.h"
#include "ui/export/figure_export.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/background_release.h"
#include "ui/jobs/compute_controller.h"
#include "ui/lessons/lesson_player.h"
#include "ui/session/session_actions.h"
#include "ui/shell/decision_report_action.h"
#include "ui/shell/job_indicator.h"
#include "ui/shell/keyboard_help.h"
#include "ui/shell/presentation_mode.h"
#include "ui/views/shared_state.h"
#include "ui/views/view_catalog.h"
#include "ui/widgets/form_names.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include <tbb/global_control.h>

#include <algorithm>
#include <utility>

namespace elab::ui {

namespace {

/// The GUI keeps a core for itself: TBB's parallel work in this process (the sweeps) uses at
/// most all cores but one (at least one thread), and every worker runs below the event loop
/// (background_priority.h), so the event loop is never starved while a sweep runs (the 50 ms
/// target, BENCHMARKS.md). Numbers do not depend on the thread count. Measured on 2 cores: all
/// cores at nice +10 made the million-row sweeps 30–40 % faster but let a memory-bound sweep
/// (sparse, 1 M rows) hold the event loop 53.5 ms once; with a core kept, 29–38 ms.
void keepACoreForTheGui() {
    static const tbb::global_control limit(
        tbb::global_control::max_allowed_parallelism,
        std::max<std::size_t>(1, static_cast<std::size_t>(QThread::idealThreadCount()) - 1));
    (void)limit;
    runTbbWorkersBelowTheGui();
}

QString displayName(const LoadRequest& request) {
    return request.isBuiltin() ? request.spec.mid(8) : QFileInfo(request.spec).fileName();
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("EpsilonLab"));
    keepACoreForTheGui();
    m_controller = new LoadController(this);
    m_panel = new DatasetPanel(this);
    m_shared = new SharedState(this);
    for (const ViewType& type : viewCatalog()) {
        m_views.push_back(type.create(this, *this));
        m_types.push_back(&type);
    }
    m_sessions = new SessionActions(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    // Each page in a frameless scroll area: the window is never wider or taller than asked (a tab
    // widget asks for its largest page, shown or not); a page larger than the window scrolls.
    // test_window_sizes holds every page to 1280 × 720 without scrolling.
    for (std::size_t i = 0; i < m_views.size(); ++i) {
        auto* page = new QScrollArea(m_tabs);
        page->setWidget(m_views[i]->widget());
        page->setWidgetResizable(true);
        page->setFrameShape(QFrame::NoFrame);
        page->setFocusPolicy(Qt::NoFocus); // Tab goes to the page's controls, not to the frame around them
        m_tabs->addTab(page, m_types[i]->title);
    }
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::syncCurrentView);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(buildLeftColumn());
    m_splitter->addWidget(m_tabs);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({330, 1070});
    setCentralWidget(m_splitter);
    m_lessons = new LessonPlayer(this);
    m_presentation = new PresentationMode(this, m_splitter);

    m_datasetStatus = new QLabel(tr("No dataset"), this);
    m_jobs = new JobIndicator(this);
    m_computeJobs = new JobIndicator(this);
    m_computeJobs->setObjectName(QStringLiteral("computeJobs"));
    statusBar()->addWidget(m_datasetStatus, 1);
    statusBar()->addPermanentWidget(m_computeJobs);
    statusBar()->addPermanentWidget(m_jobs);
    buildMenus();
    connectJobs();
    connectPlayback();
    // Screen readers and Tab: names for controls of form rows without a buddy label and for
    // nameless controls in titled boxes; Tab leaves tables and lists (arrows move inside).
    nameFormFields(this);
    nameFromGroupBoxes(this);
    tabLeavesItemViews(this);

    connect(m_panel, &DatasetPanel::loadRequested, this, &MainWindow::load);
    connect(m_controller, &LoadController::loaded, this, &MainWindow::showDataset);
    connect(m_controller, &LoadController::failed, this, &MainWindow::reportFailure);
    connect(m_controller, &LoadController::cancelled, this, [this](const LoadRequest& request) {
        m_jobs->finish(tr("Loading %1 cancelled").arg(displayName(request)));
        m_panel->revertToShown();
    });
    syncCurrentView();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildLeftColumn() {
    auto* column = new QWidget(this);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_panel);
    for (const auto& v : m_views)
        if (QWidget* side = v->sidePanel())
            layout->addWidget(side);
    layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(column);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setMinimumWidth(310);
    return scroll;
}

void MainWindow::connectJobs() {
    // Two indicators: loading, and the views' computations (sweeps, verification).
    connect(m_jobs, &JobIndicator::cancelRequested, m_controller, &LoadController::cancel);
    connect(m_controller, &LoadController::started, this,
            [this](const LoadRequest& request) { m_jobs->start(tr("Loading %1").arg(displayName(request))); });
    connect(m_controller, &LoadController::progress, m_jobs, &JobIndicator::setProgress);
    connect(m_computeJobs, &JobIndicator::cancelRequested, this, [this] {
        for (const auto& v : m_views)
            if (ComputeControllerBase* c = v->controller())
                c->cancel();
    });
    for (const auto& v : m_views)
        if (ComputeControllerBase* c = v->controller())
            for (JobSlot* slot : c->indicatedSlots())
                connectJobSlot(slot, m_computeJobs);
}

void MainWindow::connectJobSlot(JobSlot* slot, JobIndicator* indicator) {
    connect(slot, &JobSlot::started, indicator, [indicator](const QString& what) { indicator->start(what); });
    connect(slot, &JobSlot::progress, indicator, &JobIndicator::setProgress);
    connect(slot, &JobSlot::finished, indicator, [indicator, slot](bool cancelled) {
        indicator->finish(cancelled ? tr("%1 cancelled: finished results kept").arg(slot->what()) : QString());
    });
    connect(slot, &JobSlot::failed, indicator,
            [indicator, slot](const QString&) { indicator->finish(tr("%1 failed").arg(slot->what())); });
}

View* MainWindow::currentViewObject() const {
    const int index = m_tabs->currentIndex();
    return index >= 0 && static_cast<std::size_t>(index) < m_views.size()
               ? m_views[static_cast<std::size_t>(index)].get()
               : nullptr;
}

void MainWindow::syncCurrentView() {
    View* shown = currentViewObject();
    if (!shown)
        return;
    // A side panel shows with its view; a view with no form of its own keeps the panel of the
    // view shown last that had one (at first: the first such view).
    if (shown->sidePanel())
        m_panelView = shown;
    if (!m_panelView)
        for (const auto& v : m_views)
            if (v->sidePanel() && !m_panelView)
                m_panelView = v.get();
    const View* panelView = shown->hidesSidePanels() ? nullptr : m_panelView;
    for (const auto& v : m_views)
        if (QWidget* side = v->sidePanel())
            side->setVisible(v.get() == panelView);
    if (m_current.isValid())
        shown->becameCurrent();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open dataset…"), m_panel, &DatasetPanel::openFile);
    open->setShortcut(QKeySequence::Open);
    QAction* reload = file->addAction(tr("&Reload"), m_panel, &DatasetPanel::reload);
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    m_sessions->addActionsTo(file);
    file->addSeparator();
    m_lessons->addActionsTo(file);
    file->addSeparator();
    QAction* exportFigure = file->addAction(tr("&Export figure…"), this, &MainWindow::exportFigureInteractively);
    exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &animation…"), this, &MainWindow::exportAnimationInteractively);
    file->addAction(tr("&Copy figure"), this, [this] {
        if (View* shown = currentViewObject(); shown && !shown->figures().isEmpty())
            charts::copyChartToClipboard(shown->figures().constFirst().chart);
    });
    file->addAction(tr("&Decision report…"), this, [this] { writeDecisionReportInteractively(*this); })
        ->setObjectName(QStringLiteral("decisionReportAction"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    m_presentation->addActionsTo(menuBar()->addMenu(tr("&View")));
    addKeyboardHelp(menuBar()->addMenu(tr("&Help")), *this);
}

void MainWindow::load(const LoadRequest& request) { m_controller->load(request); }

QString MainWindow::datasetStatusText() const { return m_datasetStatus->text(); }

void MainWindow::showStatusMessage(const QString& text, int milliseconds) {
    statusBar()->showMessage(text, milliseconds);
}

View* MainWindow::view(const QString& id) const {
    for (std::size_t i = 0; i < m_views.size(); ++i)
        if (m_types[i]->id == id)
            return m_views[i].get();
    return nullptr;
}

void MainWindow::showView(const QString& id) {
    int index = 0;
    for (std::size_t i = 0; i < m_types.size(); ++i)
        if (m_types[i]->id == id)
            index = static_cast<int>(i);
    m_tabs->setCurrentIndex(index);
}

QString MainWindow::currentView() const {
    const int index = m_tabs->currentIndex();
    return index >= 0 ? m_types[static_cast<std::size_t>(index)]->id : QString();
}

void MainWindow::showDataset(const LoadedDataset& loaded) {
    // The previous dataset is freed on the release thread once the views have let it go (a
    // million rows: unmapping tens of MiB, off the GUI thread).
    releaseInBackground(std::exchange(m_current, loaded));
    for (const auto& v : m_views)
        v->prepareDataset(loaded);
    m_panel->setShown(loaded);
    const core::Dataset& d = *loaded.data;
    m_datasetStatus->setText(statusText(d));
    m_datasetStatus->setToolTip(QString::fromStdString(d.provenance.sha256));
    setWindowTitle(tr("EpsilonLab — %1").arg(QString::fromStdString(d.name)));
    m_jobs->finish();
    emit datasetShown(loaded); // session actions apply a pending session's settings here
    for (const auto& v : m_views)
        v->setDataset(loaded);
    syncCurrentView();
}

void MainWindow::showError(const QString& title, const QString& text, const QString& details) {
    QString line = text + QLatin1Char(' ') + details;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    statusBar()->showMessage(line.simplified(), 10000);
    if (!m_errorDialogs)
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setInformativeText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::reportFailure(const QString& message, const LoadRequest& request) {
    m_jobs->finish(tr("Loading %1 failed").arg(displayName(request)));
    m_panel->revertToShown();
    showError(tr("Could not load dataset"), tr("Could not load %1.").arg(displayName(request)),
              message + (m_current.isValid()
                             ? QStringLiteral("\n\n") + tr("The previous dataset (%1) stays loaded.")
                                                            .arg(QString::fromStdString(m_current.data->name))
                             : QString()));
    emit loadFailed(message);
}

void MainWindow::exportFigureInteractively() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"), currentView() + QStringLiteral(".svg"),
                                                      tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    charts::ExportOptions options;
    if (charts::formatFromPath(path) == charts::ExportFormat::Png) {
        bool ok = false;
        options.dpi =
            QInputDialog::getInt(this, tr("PNG resolution"), tr("Dots per inch:"), options.dpi, 48, 1200, 1, &ok);
        if (!ok)
            return;
    }
    QString error;
    const QStringList written = exportCurrentView(path, options, &error);
    if (!error.isEmpty())
        showError(tr("Export failed"), tr("Could not export the figure."), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(written.join(QStringLiteral(", "))), 8000);
}

QStringList MainWindow::exportCurrentView(const QString& path, const charts::ExportOptions& options, QString* error) {
    View* shown = currentViewObject();
    const QList<ViewFigure> figures = shown ? shown->figures() : QList<ViewFigure>();
    if (figures.isEmpty()) {
        if (error)
            *error = tr("the %1 view has no figure to export").arg(currentView());
        return {};
    }
    const Session session = m_sessions->currentSession();
    const QFileInfo info(path);
    QStringList written;
    for (const ViewFigure& figure : figures) {
        FigureExport request;
        request.path =
            figures.size() == 1
                ? path
                : info.dir().filePath(info.completeBaseName() + figure.suffix + QLatin1Char('.') + info.suffix());
        request.options = options;
        const QByteArray sidecar = request.withSidecar ? figure.sidecar(session, request.path) : QByteArray();
        written << writeFigure(figure.chart, sidecar, request, error, figure.csv);
        if (error && !error->isEmpty())
            break;
    }
    return written;
}

} // namespace elab::ui
