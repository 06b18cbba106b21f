#pragma once
// The Data tab: provenance and shape, a paged table preview, the per-column table, the
// label balance and row-norm charts, the public bounds (typed in the column table or from
// the bounds panel), where the encoding came from (the schema panel) and the processing log. Layout and hand-over only:
// the models and charts do the work. GUI thread only.

#include "ui/dataset/loaded_dataset.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace elab::ui {

class BoundsPanel;
class ColumnTableModel;
class DataPreview;
class LabelBalanceChart;
class NormHistogramChart;
class ProcessingLogView;
class SchemaPanel;

class DataView : public QWidget {
    Q_OBJECT
public:
    explicit DataView(QWidget* parent = nullptr);

    /// Shows the dataset. On a page hidden in a shown window (another tab is current), the
    /// widgets are filled when the page is shown or first read, not now: a dataset switch
    /// then costs the event loop only the current view's work (issue 15's stall budget).
    void setDataset(const LoadedDataset& loaded);
    void clear();

    DataPreview* preview() const { return flushed().m_preview; }
    ColumnTableModel* columnModel() const { return flushed().m_columnModel; }
    LabelBalanceChart* labelChart() const { return flushed().m_labelChart; }
    NormHistogramChart* normChart() const { return flushed().m_normChart; }
    ProcessingLogView* logView() const { return flushed().m_log; }
    BoundsPanel* boundsPanel() const { return flushed().m_bounds; }
    SchemaPanel* schemaPanel() const { return flushed().m_schema; }
    QTableView* columnTable() const { return flushed().m_columns; }
    /// Plain text of the provenance line (path, format, gzip, sha256).
    QString provenanceText() const;
    /// A dataset given while the page was hidden and not yet shown (setDataset).
    bool hasDeferredDataset() const { return m_pending.has_value(); }

protected:
    void showEvent(QShowEvent* event) override;

signals:
    /// The user changed the public bounds (typed, file, documented, cleared) or the private
    /// estimate: the dataset is to be loaded again with them.
    void boundsChanged(const elab::core::PublicBounds& bounds,
                       const std::optional<elab::core::PrivateBoundsOptions>& estimate);
    /// The user ticked or unticked a CSV column in the column table: the dataset is to be loaded
    /// again with these columns left out of the features.
    void ignoredChanged(const std::vector<std::string>& ignored);
    /// The user declared the shown encoding's levels and classes public (the schema panel).
    void schemaDeclared(const elab::core::PublicSchema& schema);
    /// Something to say in the status bar (an invalid bound, an unreadable bounds file).
    void message(const QString& text);

private:
    QWidget* group(const QString& title, QWidget* content);
    void fill(const LoadedDataset& loaded);
    /// This view with a deferred dataset shown first (DataView objects are never const).
    const DataView& flushed() const;

    mutable std::optional<LoadedDataset> m_pending; ///< given while the page was hidden

    QLabel* m_shape = nullptr;
    QLabel* m_provenance = nullptr;
    DataPreview* m_preview = nullptr;
    ColumnTableModel* m_columnModel = nullptr;
    QTableView* m_columns = nullptr;
    LabelBalanceChart* m_labelChart = nullptr;
    NormHistogramChart* m_normChart = nullptr;
    ProcessingLogView* m_log = nullptr;
    BoundsPanel* m_bounds = nullptr;
    SchemaPanel* m_schema = nullptr;
    std::optional<core::PrivateBoundsOptions> m_estimate; ///< of the shown dataset
};

} // namespace elab::ui
