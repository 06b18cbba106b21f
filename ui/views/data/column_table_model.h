#pragma once
// One row per source column of the loaded dataset: name, kind, missing cells, one-hot
// levels, the feature columns it became, and its public bounds (editable for numeric columns:
// typing both ends of a range emits boundsEdited; the Name column's tick puts a feature column
// in or leaves it out, emitting ignoredEdited). Datasets without a column schema (LIBSVM,
// generated) get one row per feature ("f1", "f2", …), computed on demand.
//
// Threads: GUI thread only.

#include "core/data/dataset.h"
#include "core/data/feature_bounds.h"

#include <QAbstractTableModel>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace elab::ui {

class ColumnTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Missing, Levels, Features, Lower, Upper, ColumnCount };

    explicit ColumnTableModel(QObject* parent = nullptr);

    void setDataset(std::shared_ptr<const core::Dataset> data);
    /// The bounds the dataset was loaded with (shown; edits start from them).
    void setBounds(const core::PublicBounds& bounds);
    const core::PublicBounds& bounds() const { return m_bounds; }

    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// Lower/Upper of a numeric row: a number sets that end, an empty text removes the
    /// column's bound. A complete, valid range (or a removal) emits boundsEdited; an invalid
    /// one emits invalidBound with the reason and keeps the typed end shown in red.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The columns of a CSV left out of the features (unticked in the Name column), in file order.
    std::vector<std::string> ignoredColumns() const;

signals:
    void boundsEdited(const elab::core::PublicBounds& bounds);
    /// A feature column of a CSV was ticked or unticked: the columns to leave out now.
    void ignoredEdited(const std::vector<std::string>& ignored);
    void invalidBound(const QString& reason);

private:
    bool hasSchema() const { return m_data && !m_data->columns.empty(); }
    QVariant schemaData(const core::ColumnInfo& column, int field, int role) const;
    QVariant featureData(core::Index feature, int field, int role) const;
    /// The numeric column of a row ("" for categorical, label and ignored rows).
    std::string boundableName(int row) const;
    QVariant boundData(const std::string& name, int field, int role) const;

    std::shared_ptr<const core::Dataset> m_data;
    core::PublicBounds m_bounds;
    /// Ends typed while the other end is missing or the range is invalid: (lo, hi), NaN = none.
    std::map<std::string, std::pair<double, double>> m_pending;
};

} // namespace elab::ui
