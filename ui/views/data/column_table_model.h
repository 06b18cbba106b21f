#pragma once
// One row per source column of the loaded dataset: name, kind, missing cells, one-hot
// levels and the feature columns it became. Datasets without a column schema (LIBSVM,
// generated) get one row per feature, computed on demand.
//
// Threads: GUI thread only.

#include "core/data/dataset.h"

#include <QAbstractTableModel>

#include <memory>

namespace elab::ui {

class ColumnTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Missing, Levels, Features, ColumnCount };

    explicit ColumnTableModel(QObject* parent = nullptr);

    void setDataset(std::shared_ptr<const core::Dataset> data);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    bool hasSchema() const { return m_data && !m_data->columns.empty(); }
    QVariant schemaData(const core::ColumnInfo& column, int field, int role) const;
    QVariant featureData(core::Index feature, int field, int role) const;

    std::shared_ptr<const core::Dataset> m_data;
};

} // namespace elab::ui
