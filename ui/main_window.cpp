#include "ui/main_window.h"

#include "ui/controllers/load_controller.h"
#include "ui/controllers/utility_controller.h"
#include "ui/data_view.h"
#include "ui/dataset_panel.h"
#include "ui/dataset_text.h"
#include "ui/export/figure_export.h"
#include "ui/job_indicator.h"
#include "ui/session/session_actions.h"
#include "ui/utility/mechanism_panel.h"
#include "ui/utility/utility_view.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

QString displayName(const LoadRequest& request) {
    return request.isBuiltin() ? request.spec.mid(8) : QFileInfo(request.spec).fileName();
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("EpsilonLab"));
    m_controller = new LoadController(this);
    m_utility = new UtilityController(this);
    m_panel = new DatasetPanel(this);
    m_mechanism = new MechanismPanel(this);
    m_dataView = new DataView(this);
    m_utilityView = new UtilityView(m_utility, m_mechanism, this);
    m_sessions = new SessionActions(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_utilityView, tr("Utility vs ε"));
    m_tabs->addTab(m_dataView, tr("Data"));

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
    connect(m_computeJobs, &JobIndicator::cancelRequested, m_utility, &UtilityController::cancel);
    for (JobSlot* slot : {m_utility->sweepSlot(), m_utility->verifySlot()}) {
        connect(slot, &JobSlot::started, m_computeJobs, [this](const QString& what) { m_computeJobs->start(what); });
        connect(slot, &JobSlot::progress, m_computeJobs, &JobIndicator::setProgress);
        connect(slot, &JobSlot::finished, m_computeJobs, [this, slot](bool cancelled) {
            m_computeJobs->finish(cancelled ? tr("%1 cancelled: finished points kept").arg(slot->what()) : QString());
        });
        connect(slot, &JobSlot::failed, m_computeJobs,
                [this, slot](const QString&) { m_computeJobs->finish(tr("%1 failed").arg(slot->what())); });
    }
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
    m_tabs->setCurrentWidget(view == QLatin1String("data") ? static_cast<QWidget*>(m_dataView) : m_utilityView);
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
    m_datasetStatus->setText(statusText(d));
    m_datasetStatus->setToolTip(QString::fromStdString(d.provenance.sha256));
    setWindowTitle(tr("EpsilonLab — %1").arg(QString::fromStdString(d.name)));
    m_jobs->finish();
    emit datasetShown(loaded); // session actions apply a pending session's settings here
    m_utilityView->pushSettingsNow();
    m_utility->setDataset(loaded.data);
}

void MainWindow::showError(const QString& title, const QString& text, const QString& details) {
    statusBar()->showMessage(text + QLatin1Char(' ') + details, 10000);
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
    const QString path = QFileDialog::getSaveFileName(this, tr("Export figure"), QStringLiteral("utility.svg"),
                                                      tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    FigureExport request;
    request.path = path;
    QString error;
    const QStringList written =
        exportFigure(m_utilityView->chartData(), m_sessions->currentSession(), m_utility->state(), request, &error);
    if (!error.isEmpty())
        showError(tr("Export failed"), tr("Could not export the figure."), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(written.join(QStringLiteral(", "))), 8000);
}

} // namespace elab::ui
