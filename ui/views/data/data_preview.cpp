#include "ui/views/data/data_preview.h"

#include "ui/views/data/dataset_table_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace elab::ui {

namespace {
// Fitting columns to their contents costs O(cells); beyond this many columns a fixed
// width is used instead.
constexpr int kMaxColumnsToFit = 210;
} // namespace

DataPreview::DataPreview(QWidget* parent) : QWidget(parent) {
    m_model = new DatasetTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setCornerButtonEnabled(false);
    QHeaderView* rows = m_table->verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    QHeaderView* columns = m_table->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setDefaultSectionSize(90);
    columns->setMinimumSectionSize(56);
    columns->setMaximumSectionSize(240);
    columns->setResizeContentsPrecision(40);
    columns->setHighlightSections(false);

    m_first = makeButton(QStringLiteral("«"), tr("First page"), [this] { m_model->setRowPage(0); });
    m_previous = makeButton(tr("‹ Prev"), tr("Previous page"), [this] { previousPage(); });
    m_next = makeButton(tr("Next ›"), tr("Next page"), [this] { nextPage(); });
    m_last =
        makeButton(QStringLiteral("»"), tr("Last page"), [this] { m_model->setRowPage(m_model->rowPageCount() - 1); });
    m_previousColumns = makeButton(QStringLiteral("‹"), tr("Previous feature columns"),
                                   [this] { m_model->setColumnPage(m_model->columnPage() - 1); });
    m_nextColumns = makeButton(QStringLiteral("›"), tr("Next feature columns"),
                               [this] { m_model->setColumnPage(m_model->columnPage() + 1); });
    m_rowLabel = new QLabel(this);
    m_columnLabel = new QLabel(this);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(2);
    bar->addWidget(m_first);
    bar->addWidget(m_previous);
    bar->addWidget(m_rowLabel);
    bar->addWidget(m_next);
    bar->addWidget(m_last);
    bar->addStretch(1);
    bar->addWidget(m_previousColumns);
    bar->addWidget(m_columnLabel);
    bar->addWidget(m_nextColumns);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_model, &DatasetTableModel::pageChanged, this, &DataPreview::updatePageBar);
    updatePageBar();
}

QToolButton* DataPreview::makeButton(const QString& text, const QString& tip, const std::function<void()>& onClick) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, this, onClick);
    return button;
}

void DataPreview::setDataset(std::shared_ptr<const core::Dataset> dataset) { m_model->setDataset(std::move(dataset)); }

void DataPreview::nextPage() { m_model->setRowPage(m_model->rowPage() + 1); }

void DataPreview::previousPage() { m_model->setRowPage(m_model->rowPage() - 1); }

QString DataPreview::rowRangeText() const {
    const QLocale locale;
    const qint64 total = m_model->totalRows();
    if (total == 0)
        return tr("no rows");
    const qint64 first = m_model->firstRow() + 1;
    const qint64 last = m_model->firstRow() + m_model->rowCount();
    return tr("rows %1–%2 of %3").arg(locale.toString(first), locale.toString(last), locale.toString(total));
}

void DataPreview::updatePageBar() {
    const QLocale locale;
    const int page = m_model->rowPage();
    const int pages = m_model->rowPageCount();
    m_rowLabel->setText(QStringLiteral(" %1 ").arg(rowRangeText()));
    m_first->setEnabled(page > 0);
    m_previous->setEnabled(page > 0);
    m_next->setEnabled(page + 1 < pages);
    m_last->setEnabled(page + 1 < pages);

    const bool pagedColumns = m_model->columnPageCount() > 1;
    m_previousColumns->setVisible(pagedColumns);
    m_nextColumns->setVisible(pagedColumns);
    m_columnLabel->setVisible(pagedColumns);
    if (pagedColumns) {
        const qint64 first = m_model->firstFeature() + 1;
        const qint64 last = m_model->firstFeature() + m_model->columnCount() - 1;
        m_columnLabel->setText(
            tr(" features %1–%2 of %3 ")
                .arg(locale.toString(first), locale.toString(last), locale.toString(m_model->totalFeatures())));
        m_previousColumns->setEnabled(m_model->columnPage() > 0);
        m_nextColumns->setEnabled(m_model->columnPage() + 1 < m_model->columnPageCount());
    }
    if (m_model->columnCount() <= kMaxColumnsToFit)
        m_table->resizeColumnsToContents();
}

} // namespace elab::ui
