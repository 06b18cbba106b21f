#pragma once
// The paged table preview of the Data tab: the table and a bar with First/Prev/Next/Last,
// "rows a–b of n", and feature-column paging when there are many columns.
// GUI thread only.

#include "core/data/dataset.h"

#include <QWidget>

#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableView;
class QToolButton;
QT_END_NAMESPACE

namespace elab::ui {

class DatasetTableModel;

class DataPreview : public QWidget {
    Q_OBJECT
public:
    explicit DataPreview(QWidget* parent = nullptr);

    void setDataset(std::shared_ptr<const core::Dataset> dataset);

    DatasetTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    /// "rows 1–100 of 569"
    QString rowRangeText() const;

    void nextPage();
    void previousPage();

private:
    void updatePageBar();
    QToolButton* makeButton(const QString& text, const QString& tip, const std::function<void()>& onClick);

    DatasetTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_rowLabel = nullptr;
    QLabel* m_columnLabel = nullptr;
    QToolButton* m_first = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QToolButton* m_last = nullptr;
    QToolButton* m_previousColumns = nullptr;
    QToolButton* m_nextColumns = nullptr;
};

} // namespace elab::ui
