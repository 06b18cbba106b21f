#include "ui/views/data/column_table_model.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>

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
    m_pending.clear();
    endResetModel();
}

void ColumnTableModel::setBounds(const core::PublicBounds& bounds) {
    m_bounds = bounds;
    m_pending.clear();
    if (rowCount() > 0)
        emit dataChanged(index(0, Lower), index(rowCount() - 1, Upper));
}

std::string ColumnTableModel::boundableName(int row) const {
    if (!m_data || row < 0 || row >= rowCount())
        return {};
    if (!hasSchema())
        return m_data->featureName(row);
    const core::ColumnInfo& c = m_data->columns[static_cast<std::size_t>(row)];
    return c.kind == core::ColumnKind::Numeric ? c.name : std::string();
}

namespace {

/// A column of the file that can be a feature or be left out (not the label).
bool togglable(const core::ColumnInfo& c) { return c.kind != core::ColumnKind::Label; }

} // namespace

std::vector<std::string> ColumnTableModel::ignoredColumns() const {
    std::vector<std::string> out;
    if (hasSchema())
        for (const core::ColumnInfo& c : m_data->columns)
            if (c.kind == core::ColumnKind::Ignored)
                out.push_back(c.name);
    return out;
}

Qt::ItemFlags ColumnTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && (index.column() == Lower || index.column() == Upper) && !boundableName(index.row()).empty())
        f |= Qt::ItemIsEditable;
    if (index.isValid() && index.column() == Name && hasSchema() &&
        togglable(m_data->columns[static_cast<std::size_t>(index.row())]))
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant ColumnTableModel::boundData(const std::string& name, int field, int role) const {
    const bool lower = field == Lower;
    const auto pending = m_pending.find(name);
    if (role == Qt::ForegroundRole)
        return pending != m_pending.end() ? QVariant(QColor(0xc0, 0x20, 0x20)) : QVariant();
    if (role == Qt::ToolTipRole)
        return tr("Public bound of %1: what the schema says a value can be, not what the data shows. Values are "
                  "clipped to [lo, hi] and mapped to [0, 1] before the norm step. Double-click to type; clear both "
                  "ends to remove it.")
            .arg(QString::fromStdString(name));
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    double v = std::numeric_limits<double>::quiet_NaN();
    if (pending != m_pending.end())
        v = lower ? pending->second.first : pending->second.second;
    else if (const core::ColumnBound* b = m_bounds.find(name))
        v = lower ? b->lo : b->hi;
    if (std::isnan(v))
        return role == Qt::EditRole ? QVariant(QString()) : QVariant(QStringLiteral("–"));
    return QString::number(v, 'g', 10);
}

bool ColumnTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role == Qt::CheckStateRole && (flags(index) & Qt::ItemIsUserCheckable)) {
        const core::ColumnInfo& c = m_data->columns[static_cast<std::size_t>(index.row())];
        const bool use = value.toInt() == Qt::Checked;
        if (use == (c.kind != core::ColumnKind::Ignored))
            return false;
        std::vector<std::string> ignored = ignoredColumns();
        if (use)
            ignored.erase(std::remove(ignored.begin(), ignored.end(), c.name), ignored.end());
        else
            ignored.push_back(c.name);
        emit ignoredEdited(ignored); // the dataset is loaded again; the model follows it
        return true;
    }
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable))
        return false;
    const std::string name = boundableName(index.row());
    const QString text = value.toString().trimmed();
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    std::pair<double, double> range{kNone, kNone};
    if (const auto it = m_pending.find(name); it != m_pending.end())
        range = it->second;
    else if (const core::ColumnBound* b = m_bounds.find(name))
        range = {b->lo, b->hi};
    double& end = index.column() == Lower ? range.first : range.second;
    if (text.isEmpty()) {
        end = kNone;
    } else {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok || !std::isfinite(v)) {
            emit invalidBound(tr("%1: '%2' is not a finite number").arg(QString::fromStdString(name), text));
            return false;
        }
        end = v;
    }
    core::PublicBounds next = m_bounds;
    next.columns.erase(std::remove_if(next.columns.begin(), next.columns.end(),
                                      [&](const core::ColumnBound& b) { return b.column == name; }),
                       next.columns.end());
    const bool hasLo = !std::isnan(range.first), hasHi = !std::isnan(range.second);
    m_pending.erase(name);
    if (hasLo && hasHi && range.first < range.second) {
        next.columns.push_back({name, range.first, range.second});
    } else if (hasLo || hasHi) {
        m_pending[name] = range; // shown in red until the range is complete and valid
        emit dataChanged(this->index(index.row(), Lower), this->index(index.row(), Upper));
        emit invalidBound(hasLo && hasHi ? tr("%1: lo (%2) must be below hi (%3)")
                                               .arg(QString::fromStdString(name))
                                               .arg(range.first)
                                               .arg(range.second)
                                         : tr("%1: type the other end of the range").arg(QString::fromStdString(name)));
        return true;
    }
    const std::string edited = "edited in the Data tab";
    if (next.source.empty())
        next.source = "typed in the Data tab";
    else if (next.source.find(edited) == std::string::npos && next.source.find("typed in") == std::string::npos)
        next.source += ", " + edited;
    m_bounds = next;
    emit dataChanged(this->index(index.row(), Lower), this->index(index.row(), Upper));
    emit boundsEdited(m_bounds);
    return true;
}

int ColumnTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_data)
        return 0;
    if (hasSchema())
        return static_cast<int>(m_data->columns.size());
    return static_cast<int>(m_data->featureCount());
}

int ColumnTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ColumnTableModel::data(const QModelIndex& index, int role) const {
    if (!m_data || !index.isValid() || index.row() >= rowCount())
        return {};
    if (index.column() == Lower || index.column() == Upper) {
        const std::string name = boundableName(index.row());
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (name.empty())
            return role == Qt::DisplayRole ? QVariant(QString()) : QVariant();
        return boundData(name, index.column(), role);
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Kind ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (hasSchema())
        return schemaData(m_data->columns[static_cast<std::size_t>(index.row())], index.column(), role);
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
    if (role == Qt::CheckStateRole && field == Name && togglable(column))
        return column.kind == core::ColumnKind::Ignored ? Qt::Unchecked : Qt::Checked;
    if (role == Qt::ToolTipRole) {
        if (field == Name && togglable(column))
            return tr("Ticked: a feature. Unticked: left out of every view (as the CLI's --ignore).");
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
        return column.kind == core::ColumnKind::Categorical ? QString::number(column.levels.size())
                                                            : QStringLiteral("–");
    case Features: return column.featureCount > 0 ? QString::number(column.featureCount) : QStringLiteral("–");
    default: return {};
    }
}

QVariant ColumnTableModel::featureData(core::Index feature, int field, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    switch (field) {
    case Name: return QString::fromStdString(m_data->featureName(feature));
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
        case Lower: return tr("Public lo");
        case Upper: return tr("Public hi");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Kind: return tr("numeric, categorical (one-hot encoded), label or ignored");
        case Missing: return tr("Missing cells in the source file, before the policy was applied");
        case Levels: return tr("Categorical: number of one-hot levels");
        case Features: return tr("Feature columns this source column became");
        case Lower:
        case Upper:
            return tr("Public range of a numeric column (schema, not data): clipped and mapped to [0, 1] before the "
                      "norm step; privacy-safe. Double-click to edit.");
        default: return {};
        }
    }
    return {};
}

} // namespace elab::ui
