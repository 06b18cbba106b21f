#include "ui/views/data/column_table_model.h"

#include <QColor>
#include <QFont>

namespace elab::ui {

namespace {

QString levelsTooltip(const std::vector<std::string>& levels) {
    constexpr std::size_t kShown = 25;
    QStringList names;
    for (std::size_t i = 0; i < levels.size() && i < kShown; ++i)
        names << QString::fromStdString(levels[i]);
    QString text = names.join(QStringLiteral(", "));
    if (levels.size() > kShown)
        text += QStringLiteral(", … (%1 more)").arg(levels.size() - kShown);
    return text;
}

} // namespace

ColumnTableModel::ColumnTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ColumnTableModel::setDataset(std::shared_ptr<const core::Dataset> data) {
    beginResetModel();
    m_data = std::move(data);
    endResetModel();
}

int ColumnTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_data)
        return 0;
    if (hasSchema())
        return static_cast<int>(m_data->columns.size());
    return static_cast<int>(m_data->featureCount());
}

int ColumnTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ColumnTableModel::data(const QModelIndex& index, int role) const {
    if (!m_data || !index.isValid() || index.row() >= rowCount())
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Kind
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (hasSchema())
        return schemaData(m_data->columns[static_cast<std::size_t>(index.row())], index.column(),
                          role);
    return featureData(index.row(), index.column(), role);
}

QVariant ColumnTableModel::schemaData(const core::ColumnInfo& column, int field, int role) const {
    const bool isLabel = column.kind == core::ColumnKind::Label;
    if (role == Qt::FontRole && isLabel) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole) {
        if (field == Missing && column.missing > 0)
            return QColor(0xb3, 0x5c, 0x00);
        if (column.kind == core::ColumnKind::Ignored)
            return QColor(Qt::gray);
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (field == Levels && !column.levels.empty())
            return levelsTooltip(column.levels);
        if (field == Missing && column.missing > 0)
            return tr("%1 missing cells in the file (\"\", ?, NA, NaN), before the missing-value "
                      "policy")
                .arg(column.missing);
        if (field == Features && column.featureCount > 0)
            return tr("feature columns %1–%2")
                .arg(column.firstFeature + 1)
                .arg(column.firstFeature + column.featureCount);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (field) {
    case Name: return QString::fromStdString(column.name);
    case Kind: return QString::fromUtf8(core::toString(column.kind));
    case Missing: return QString::number(column.missing);
    case Levels:
        return column.kind == core::ColumnKind::Categorical
                   ? QString::number(column.levels.size())
                   : QStringLiteral("–");
    case Features: return column.featureCount > 0 ? QString::number(column.featureCount)
                                                  : QStringLiteral("–");
    default: return {};
    }
}

QVariant ColumnTableModel::featureData(core::Index feature, int field, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    switch (field) {
    case Name:
        return QString::fromStdString(m_data->featureName(feature));
    case Kind: return m_data->features.isSparse() ? tr("numeric (sparse)") : tr("numeric");
    case Missing: return QStringLiteral("0");
    case Levels: return QStringLiteral("–");
    case Features: return QStringLiteral("1");
    default: return {};
    }
}

QVariant ColumnTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole)
            return QString::number(section + 1);
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name: return tr("Column");
        case Kind: return tr("Kind");
        case Missing: return tr("Missing");
        case Levels: return tr("Levels");
        case Features: return tr("Features");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Kind: return tr("numeric, categorical (one-hot encoded), label or ignored");
        case Missing: return tr("Missing cells in the source file, before the policy was applied");
        case Levels: return tr("Categorical: number of one-hot levels");
        case Features: return tr("Feature columns this source column became");
        default: return {};
        }
    }
    return {};
}

} // namespace elab::ui
