#include "ui/views/data/data_view.h"

#include "ui/charts/label_balance_chart.h"
#include "ui/charts/norm_histogram_chart.h"
#include "ui/dataset/dataset_text.h"
#include "ui/views/data/bounds_panel.h"
#include "ui/views/data/column_table_model.h"
#include "ui/views/data/data_preview.h"
#include "ui/views/data/processing_log_view.h"
#include "ui/views/data/schema_panel.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include <utility>

namespace elab::ui {

DataView::DataView(QWidget* parent) : QWidget(parent) {
    m_shape = new QLabel(this);
    m_shape->setTextFormat(Qt::RichText);
    m_shape->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_provenance = new QLabel(this);
    m_provenance->setTextFormat(Qt::RichText);
    m_provenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_shape->setWordWrap(true); // a long file name or provenance must not widen the window
    m_provenance->setWordWrap(true);

    m_preview = new DataPreview(this);

    m_columnModel = new ColumnTableModel(this);
    m_columns = new QTableView(this);
    m_columns->setModel(m_columnModel);
    m_columns->setAlternatingRowColors(true);
    m_columns->setWordWrap(false);
    m_columns->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                               QAbstractItemView::AnyKeyPressed);
    m_columns->verticalHeader()->setVisible(false);
    m_columns->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_columns->verticalHeader()->setDefaultSectionSize(m_columns->fontMetrics().height() + 6);
    QHeaderView* header = m_columns->horizontalHeader();
    header->setStretchLastSection(false);
    header->setResizeContentsPrecision(200);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ColumnTableModel::Name, QHeaderView::Stretch);
    header->setHighlightSections(false);

    m_bounds = new BoundsPanel(this);
    connect(m_columnModel, &ColumnTableModel::boundsEdited, this,
            [this](const core::PublicBounds& b) { emit boundsChanged(b, m_estimate); });
    connect(m_columnModel, &ColumnTableModel::invalidBound, this, &DataView::message);
    connect(m_columnModel, &ColumnTableModel::ignoredEdited, this, &DataView::ignoredChanged);
    connect(m_bounds, &BoundsPanel::changed, this, &DataView::boundsChanged);
    connect(m_bounds, &BoundsPanel::failed, this, &DataView::message);
    m_schema = new SchemaPanel(this);
    connect(m_schema, &SchemaPanel::declared, this, &DataView::schemaDeclared);
    auto* columnsBox = new QWidget(this);
    auto* columnsLayout = new QVBoxLayout(columnsBox);
    columnsLayout->setContentsMargins(0, 0, 0, 0);
    columnsLayout->setSpacing(2);
    columnsLayout->addWidget(m_columns, 1);
    columnsLayout->addWidget(m_bounds);
    columnsLayout->addWidget(m_schema);

    m_labelChart = new LabelBalanceChart(this);
    m_normChart = new NormHistogramChart(this);
    m_log = new ProcessingLogView(this);

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->setChildrenCollapsible(false);
    lower->addWidget(group(tr("Columns"), columnsBox));
    lower->addWidget(group(tr("Label"), m_labelChart));
    lower->addWidget(group(tr("Row norms"), m_normChart));
    lower->setStretchFactor(0, 4);
    lower->setStretchFactor(1, 3);
    lower->setStretchFactor(2, 4);

    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->setChildrenCollapsible(false);
    vertical->addWidget(group(tr("Preview"), m_preview));
    vertical->addWidget(lower);
    vertical->addWidget(group(tr("Processing log"), m_log));
    vertical->setStretchFactor(0, 3); // the preview pages and scrolls; the columns, bounds and charts
    vertical->setStretchFactor(1, 6); // below it need the height on a 720-px screen
    vertical->setStretchFactor(2, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_shape);
    layout->addWidget(m_provenance);
    layout->addWidget(vertical, 1);
    clear();
}

QWidget* DataView::group(const QString& title, QWidget* content) {
    auto* box = new QGroupBox(title, this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(content);
    return box;
}

void DataView::clear() {
    m_pending.reset();
    m_shape->setText(tr("No dataset loaded"));
    m_provenance->clear();
    m_preview->setDataset(nullptr);
    m_columnModel->setDataset(nullptr);
    m_columnModel->setBounds({});
    m_estimate.reset();
    m_bounds->clear();
    m_schema->clear();
    m_labelChart->clear();
    m_normChart->clear();
    m_log->setLog({});
}

void DataView::setDataset(const LoadedDataset& loaded) {
    m_pending.reset();
    if (!loaded.isValid()) {
        clear();
        return;
    }
    if (window()->isVisible() && !isVisible()) {
        m_pending = loaded;
        m_preview->setDataset(nullptr); // the tables let the previous dataset go now
        m_columnModel->setDataset(nullptr);
        return;
    }
    fill(loaded);
}

const DataView& DataView::flushed() const {
    if (m_pending) {
        const LoadedDataset loaded = *std::exchange(m_pending, std::nullopt);
        const_cast<DataView*>(this)->fill(loaded);
    }
    return *this;
}

void DataView::showEvent(QShowEvent* event) {
    flushed();
    QWidget::showEvent(event);
}

void DataView::fill(const LoadedDataset& loaded) {
    const core::Dataset& dataset = *loaded.data;
    const core::DatasetSummary& summary = loaded.summary;
    m_shape->setText(shapeText(dataset, summary, loaded.seconds));
    m_provenance->setText(provenanceHtml(dataset.provenance, m_provenance->fontMetrics(), 520));
    m_provenance->setToolTip(QString::fromStdString(dataset.provenance.path));
    m_preview->setDataset(loaded.data);
    m_columnModel->setDataset(loaded.data);
    m_columnModel->setBounds(loaded.request.bounds);
    m_estimate = loaded.request.privateBounds;
    m_bounds->setState(loaded.request.bounds, loaded.request.privateBounds, loaded.request.spec,
                       QString::fromStdString(loaded.boundsHint), dataset.preparationEpsilon);
    m_schema->setDataset(loaded.data);
    if (summary.task == core::TaskKind::Regression)
        m_labelChart->setTargetHistogram(loaded.targetHistogram);
    else
        m_labelChart->setClasses(summary.classes);
    m_normChart->setNorms(summary, loaded.logNormHistogram);
    m_log->setLog(dataset.log);
}

QString DataView::provenanceText() const {
    QTextDocument doc;
    doc.setHtml(flushed().m_provenance->text());
    return doc.toPlainText();
}

} // namespace elab::ui
