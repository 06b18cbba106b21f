#include "ui/views/data/dataset_table_model.h"

#include "ui/widgets/eps_text.h"

#include <QFont>

#include <algorithm>
#include <cmath>

namespace elab::ui {

namespace {

/// A cell: whole numbers in full, others with 6 significant digits.
QString cellText(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QString::number(static_cast<qint64>(v));
    return formatNumber(v, 6, NumberForm::Printf);
}

} // namespace

DatasetTableModel::DatasetTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DatasetTableModel::resetWith(const std::function<void()>& change) {
    beginResetModel();
    change();
    endResetModel();
    emit pageChanged();
}

void DatasetTableModel::setDataset(std::shared_ptr<const core::Dataset> data) {
    resetWith([&] {
        m_data = std::move(data);
        m_rowPage = 0;
        m_columnPage = 0;
    });
}

void DatasetTableModel::setRowPageSize(int rows) {
    resetWith([&] {
        m_rowPageSize = std::max(1, rows);
        m_rowPage = 0;
    });
}

void DatasetTableModel::setColumnPageSize(int columns) {
    resetWith([&] {
        m_columnPageSize = std::max(1, columns);
        m_columnPage = 0;
    });
}

qint64 DatasetTableModel::totalRows() const { return m_data ? m_data->rows() : 0; }

qint64 DatasetTableModel::totalFeatures() const { return m_data ? m_data->featureCount() : 0; }

int DatasetTableModel::rowPageCount() const {
    return static_cast<int>(std::max<qint64>(1, (totalRows() + m_rowPageSize - 1) / m_rowPageSize));
}

int DatasetTableModel::columnPageCount() const {
    return static_cast<int>(std::max<qint64>(1, (totalFeatures() + m_columnPageSize - 1) / m_columnPageSize));
}

void DatasetTableModel::setRowPage(int page) {
    page = std::clamp(page, 0, rowPageCount() - 1);
    if (page == m_rowPage)
        return;
    resetWith([&] { m_rowPage = page; });
}

void DatasetTableModel::setColumnPage(int page) {
    page = std::clamp(page, 0, columnPageCount() - 1);
    if (page == m_columnPage)
        return;
    resetWith([&] { m_columnPage = page; });
}

int DatasetTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_data)
        return 0;
    return static_cast<int>(std::clamp<qint64>(totalRows() - firstRow(), 0, m_rowPageSize));
}

int DatasetTableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_data)
        return 0;
    const qint64 features = std::clamp<qint64>(totalFeatures() - firstFeature(), 0, m_columnPageSize);
    return static_cast<int>(features) + 1; // column 0 is the label
}

QString DatasetTableModel::featureName(qint64 j) const {
    if (m_data)
        return QString::fromStdString(m_data->featureName(j));
    return QStringLiteral("f%1").arg(j + 1);
}

QVariant DatasetTableModel::data(const QModelIndex& index, int role) const {
    if (!m_data || !index.isValid())
        return {};
    const core::Index row = firstRow() + index.row();
    if (row >= m_data->rows())
        return {};
    const bool isLabel = index.column() == 0;
    const core::Index feature = firstFeature() + index.column() - 1;

    switch (role) {
    case Qt::DisplayRole: {
        const auto& targets = m_data->targets;
        if (isLabel) {
            if (targets.isClassification()) {
                const int c = targets.classIndex[row];
                return QString::fromStdString(targets.classNames[static_cast<std::size_t>(c)]);
            }
            return cellText(targets.values[row]);
        }
        const double v = m_data->features.value(row, feature);
        if (v == 0.0 && m_data->features.isSparse())
            return QString(); // structural zero: blank keeps sparse rows readable
        return cellText(v);
    }
    case Qt::TextAlignmentRole:
        return isLabel && m_data->targets.isClassification() ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (isLabel) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (isLabel)
            return tr("Row %1, label").arg(row + 1);
        return tr("Row %1, %2 = %3")
            .arg(row + 1)
            .arg(featureName(feature))
            .arg(m_data->features.value(row, feature), 0, 'g', 17);
    default: return {};
    }
}

QVariant DatasetTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (!m_data)
        return {};
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole)
            return QString::number(firstRow() + section + 1);
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (section == 0) {
        if (role == Qt::DisplayRole)
            return tr("label");
        if (role == Qt::ToolTipRole)
            return tr("Target (%1)").arg(QString::fromUtf8(core::toString(m_data->targets.kind)));
        return {};
    }
    const qint64 feature = firstFeature() + section - 1;
    if (role == Qt::DisplayRole)
        return featureName(feature);
    if (role == Qt::ToolTipRole)
        return tr("Feature %1 of %2: %3").arg(feature + 1).arg(totalFeatures()).arg(featureName(feature));
    return {};
}

} // namespace elab::ui
