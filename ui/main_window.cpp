#include "ui/main_window.h"

#include "ui/controllers/load_controller.h"
#include "ui/data_view.h"
#include "ui/dataset_panel.h"
#include "ui/dataset_text.h"
#include "ui/job_indicator.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

namespace elab::ui {

namespace {

QString displayName(const LoadRequest& request) {
    return request.isBuiltin() ? request.spec.mid(8) : QFileInfo(request.spec).fileName();
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("EpsilonLab"));
    m_controller = new LoadController(this);
    m_panel = new DatasetPanel(this);
    m_dataView = new DataView(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_dataView, tr("Data"));

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_panel);
    m_splitter->addWidget(m_tabs);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({290, 1110});
    setCentralWidget(m_splitter);

    m_datasetStatus = new QLabel(tr("No dataset"), this);
    m_jobs = new JobIndicator(this);
    statusBar()->addWidget(m_datasetStatus, 1);
    statusBar()->addPermanentWidget(m_jobs);
    buildMenus();

    connect(m_panel, &DatasetPanel::loadRequested, this, &MainWindow::load);
    connect(m_jobs, &JobIndicator::cancelRequested, m_controller, &LoadController::cancel);
    connect(m_controller, &LoadController::started, this,
            [this](const LoadRequest& request) { m_jobs->start(displayName(request)); });
    connect(m_controller, &LoadController::progress, m_jobs, &JobIndicator::setProgress);
    connect(m_controller, &LoadController::loaded, this, &MainWindow::showDataset);
    connect(m_controller, &LoadController::failed, this, &MainWindow::reportFailure);
    connect(m_controller, &LoadController::cancelled, this, [this](const LoadRequest& request) {
        m_jobs->finish(tr("Loading %1 cancelled").arg(displayName(request)));
        m_panel->revertToShown();
    });
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open dataset…"), m_panel, &DatasetPanel::openFile);
    open->setShortcut(QKeySequence::Open);
    QAction* reload = file->addAction(tr("&Reload"), m_panel, &DatasetPanel::reload);
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::load(const LoadRequest& request) { m_controller->load(request); }

QString MainWindow::datasetStatusText() const { return m_datasetStatus->text(); }

void MainWindow::showDataset(const LoadedDataset& loaded) {
    m_current = loaded;
    m_dataView->setDataset(loaded);
    m_panel->setShown(loaded);
    m_datasetStatus->setText(statusText(*loaded.data));
    m_datasetStatus->setToolTip(QString::fromStdString(loaded.data->provenance.sha256));
    setWindowTitle(tr("EpsilonLab — %1").arg(QString::fromStdString(loaded.data->name)));
    m_jobs->finish();
    emit datasetShown(loaded);
}

void MainWindow::reportFailure(const QString& message, const LoadRequest& request) {
    m_jobs->finish(tr("Loading %1 failed").arg(displayName(request)));
    m_panel->revertToShown();
    if (m_errorDialogs) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not load dataset"),
                                    tr("Could not load %1.").arg(displayName(request)),
                                    QMessageBox::Ok, this);
        box->setInformativeText(message + QStringLiteral("\n\n") +
                                (m_current.isValid()
                                     ? tr("The previous dataset (%1) stays loaded.")
                                           .arg(QString::fromStdString(m_current.data->name))
                                     : QString()));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit loadFailed(message);
}

} // namespace elab::ui
