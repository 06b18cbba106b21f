#include "ui/shell/main_window.h"

#include "ui/dataset/load_controller.h"
#include "ui/views/stability/stability_controller.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/data/data_view.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/dataset_text.h"
#include "ui/export/figure_export.h"
#include "ui/shell/job_indicator.h"
#include "ui/session/session_actions.h"
#include "ui/views/stability/stability_view.h"
#include "ui/views/utility/mechanism_panel.h"
#include "ui/views/utility/utility_view.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QDir>
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

namespace elab::ui {

namespace {

/// The GUI keeps a core for itself: TBB's parallel work in this process (the sweeps) uses at
/// most all cores but one (at least one thread), so the event loop is never starved while a
/// sweep runs (the 50 ms target, BENCHMARKS.md). Numbers do not depend on the thread count.
void keepACoreForTheGui() {
    static const tbb::global_control limit(
        tbb::global_control::max_allowed_parallelism,
        std::max<std::size_t>(1, static_cast<std::size_t>(QThread::idealThreadCount()) - 1));
    (void)limit;
}

QString displayName(const LoadRequest& request) {
    return request.isBuiltin() ? request.spec.mid(8) : QFileInfo(request.spec).fileName();
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("EpsilonLab"));
    keepACoreForTheGui();
    m_controller = new LoadController(this);
    m_utility = new UtilityController(this);
    m_panel = new DatasetPanel(this);
    m_mechanism = new MechanismPanel(this);
    m_dataView = new DataView(this);
    m_utilityView = new UtilityView(m_utility, m_mechanism, this);
    m_stability = new StabilityController(this);
    m_stabilityView = new StabilityView(m_stability, this);
    m_sessions = new SessionActions(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_utilityView, tr("Utility vs ε"));
    m_tabs->addTab(m_stabilityView, tr("Stability"));
    m_tabs->addTab(m_dataView, tr("Data"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::syncStabilityDataset);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(buildLeftColumn());
    m_splitter->addWidget(m_tabs);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({330, 1070});
    setCentralWidget(m_splitter);

    m_datasetStatus = new QLabel(tr("No dataset"), this);
    m_jobs = new JobIndicator(this);
    m_computeJobs = new JobIndicator(this);
    m_computeJobs->setObjectName(QStringLiteral("computeJobs"));
    statusBar()->addWidget(m_datasetStatus, 1);
    statusBar()->addPermanentWidget(m_computeJobs);
    statusBar()->addPermanentWidget(m_jobs);
    buildMenus();
    connectJobs();

    connect(m_panel, &DatasetPanel::loadRequested, this, &MainWindow::load);
    connect(m_controller, &LoadController::loaded, this, &MainWindow::showDataset);
    connect(m_controller, &LoadController::failed, this, &MainWindow::reportFailure);
    connect(m_controller, &LoadController::cancelled, this, [this](const LoadRequest& request) {
        m_jobs->finish(tr("Loading %1 cancelled").arg(displayName(request)));
        m_panel->revertToShown();
    });
    connect(m_utility, &UtilityController::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Utility view: %1").arg(message), 8000);
    });
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildLeftColumn() {
    auto* column = new QWidget(this);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_panel);
    layout->addWidget(m_mechanism);
    layout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(column);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(310);
    return scroll;
}

void MainWindow::connectJobs() {
    // Two indicators: loading, and the utility computations (sweep, verification).
    connect(m_jobs, &JobIndicator::cancelRequested, m_controller, &LoadController::cancel);
    connect(m_controller, &LoadController::started, this,
            [this](const LoadRequest& request) { m_jobs->start(tr("Loading %1").arg(displayName(request))); });
    connect(m_controller, &LoadController::progress, m_jobs, &JobIndicator::setProgress);
    connect(m_computeJobs, &JobIndicator::cancelRequested, this, [this] {
        m_utility->cancel();
        m_stability->cancel();
    });
    for (JobSlot* slot : {m_utility->sweepSlot(), m_utility->verifySlot(), m_stability->sweepSlot()})
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

void MainWindow::syncStabilityDataset() {
    // The mechanism panel belongs to the utility view; the stability view has its own form.
    m_mechanism->setVisible(m_tabs->currentWidget() != m_stabilityView);
    if (m_tabs->currentWidget() == m_stabilityView && m_current.isValid() && m_stability->dataset() != m_current.data)
        m_stability->setDataset(m_current.data);
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
    QAction* exportFigure = file->addAction(tr("&Export figure…"), this, &MainWindow::exportFigureInteractively);
    exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("&Copy figure"), this, [this] { charts::copyChartToClipboard(m_utilityView->chartData()); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::load(const LoadRequest& request) { m_controller->load(request); }

QString MainWindow::datasetStatusText() const { return m_datasetStatus->text(); }

void MainWindow::showView(const QString& view) {
    QWidget* tab = view == QLatin1String("data")        ? static_cast<QWidget*>(m_dataView)
                   : view == QLatin1String("stability") ? static_cast<QWidget*>(m_stabilityView)
                                                        : static_cast<QWidget*>(m_utilityView);
    m_tabs->setCurrentWidget(tab);
}

QString MainWindow::currentView() const {
    QWidget* tab = m_tabs->currentWidget();
    return tab == m_dataView ? QStringLiteral("data") : tab == m_stabilityView ? QStringLiteral("stability")
                                                                               : QStringLiteral("utility");
}

void MainWindow::showDataset(const LoadedDataset& loaded) {
    m_current = loaded;
    m_dataView->setDataset(loaded);
    m_panel->setShown(loaded);
    const core::Dataset& d = *loaded.data;
    const bool regression = d.targets.kind == core::TaskKind::Regression;
    QStringList classes;
    for (const auto& name : d.targets.classNames)
        classes << QString::fromStdString(name);
    const UtilitySettings settings = m_utilityView->composedSettings();
    const auto trainRows = static_cast<long long>(static_cast<double>(d.rows()) * (1.0 - settings.testFraction));
    m_mechanism->setDataShape(trainRows, d.featureCount(), d.targets.kind == core::TaskKind::Multiclass, classes,
                              regression);
    m_utilityView->setDatasetName(QString::fromStdString(d.name));
    m_stabilityView->setDatasetName(QString::fromStdString(d.name));
    m_datasetStatus->setText(statusText(d));
    m_datasetStatus->setToolTip(QString::fromStdString(d.provenance.sha256));
    setWindowTitle(tr("EpsilonLab — %1").arg(QString::fromStdString(d.name)));
    m_jobs->finish();
    emit datasetShown(loaded); // session actions apply a pending session's settings here
    m_utilityView->pushSettingsNow();
    m_utility->setDataset(loaded.data);
    syncStabilityDataset();
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
              message + (m_current.isValid() ? QStringLiteral("\n\n") + tr("The previous dataset (%1) stays loaded.")
                                                                           .arg(QString::fromStdString(m_current.data->name))
                                             : QString()));
    emit loadFailed(message);
}

void MainWindow::exportFigureInteractively() {
    const bool stability = currentView() == QLatin1String("stability");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"),
                                                      stability ? QStringLiteral("stability.svg")
                                                                : QStringLiteral("utility.svg"),
                                                      tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    charts::ExportOptions options;
    if (charts::formatFromPath(path) == charts::ExportFormat::Png) {
        bool ok = false;
        options.dpi = QInputDialog::getInt(this, tr("PNG resolution"), tr("Dots per inch:"), options.dpi, 48, 1200, 1, &ok);
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
    FigureExport request;
    request.path = path;
    request.options = options;
    const Session session = m_sessions->currentSession();
    if (currentView() != QLatin1String("stability"))
        return exportFigure(m_utilityView->chartData(), session, m_utility->state(), request, error);
    // Two charts: NAME-test-error.EXT and NAME-marginal-error.EXT, each with CSV and sidecar.
    QStringList written;
    const QFileInfo info(path);
    const char* names[] = {"-test-error.", "-marginal-error."};
    for (int which = 0; which < 2; ++which) {
        request.path = info.dir().filePath(info.completeBaseName() + QLatin1String(names[which]) + info.suffix());
        written << exportStabilityFigure(m_stabilityView->chartData(which), session, m_stability->state(), request,
                                         error);
        if (error && !error->isEmpty())
            break;
    }
    return written;
}

} // namespace elab::ui
