#pragma once
// Paged preview of a core::Dataset: one page of rows (default 100) and one page of feature
// columns (default 200, so that 100k sparse features stay cheap), with the label first.
// Cells are computed on demand from the matrix; no per-cell objects exist.
//
// Threads: GUI thread only. The dataset is immutable and shared, so holding it is safe.

#include "core/data/dataset.h"

#include <QAbstractTableModel>

#include <functional>
#include <memory>

namespace elab::ui {

class DatasetTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit DatasetTableModel(QObject* parent = nullptr);

    void setDataset(std::shared_ptr<const core::Dataset> data);
    const core::Dataset* dataset() const { return m_data.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRowPageSize(int rows);
    void setColumnPageSize(int columns);
    int rowPageSize() const { return m_rowPageSize; }
    int columnPageSize() const { return m_columnPageSize; }

    int rowPage() const { return m_rowPage; }
    int rowPageCount() const;
    void setRowPage(int page);
    int columnPage() const { return m_columnPage; }
    int columnPageCount() const;
    void setColumnPage(int page);

    /// Total rows and features of the dataset (not of the page).
    qint64 totalRows() const;
    qint64 totalFeatures() const;
    /// Dataset row / feature index of the first entry on the current page.
    qint64 firstRow() const { return qint64(m_rowPage) * m_rowPageSize; }
    qint64 firstFeature() const { return qint64(m_columnPage) * m_columnPageSize; }
    /// Name of feature j: the loader's name, else "f<j+1>" (LIBSVM's 1-based index).
    QString featureName(qint64 j) const;

signals:
    /// After any change of dataset or page.
    void pageChanged();

private:
    void resetWith(const std::function<void()>& change);

    std::shared_ptr<const core::Dataset> m_data;
    int m_rowPageSize = 100;
    int m_columnPageSize = 200;
    int m_rowPage = 0;
    int m_columnPage = 0;
};

} // namespace elab::ui
