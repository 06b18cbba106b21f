#pragma once
// The left panel: choose a built-in dataset or open a file, choose the label column and the
// missing-value policy, reload. It only emits requests; the window's LoadController does
// the loading and calls setShown() with what is displayed (or revertToShown() when a load
// failed or was cancelled, so the controls never show a state that is not loaded).
// GUI thread only.

#include "ui/dataset/load_request.h"
#include "ui/dataset/loaded_dataset.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace elab::ui {

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    /// The dataset now displayed: the controls follow it.
    void setShown(const LoadedDataset& loaded);
    /// Puts the controls back to the displayed dataset.
    void revertToShown();

    /// The request of the displayed dataset (empty spec before the first load).
    const LoadRequest& shownRequest() const { return m_shown; }
    QComboBox* builtinCombo() const { return m_builtin; }
    QComboBox* labelCombo() const { return m_label; }
    QComboBox* missingCombo() const { return m_missing; }
    /// Rows of a generated set (enabled for generated built-ins only).
    QComboBox* rowsCombo() const { return m_rows; }

public slots:
    /// File dialog, then a request for the chosen file.
    void openFile();
    /// Requests the displayed spec again with the current options.
    void reload();
    /// Requests the displayed spec with this label column.
    void chooseLabelColumn(const QString& column);
    void chooseBuiltin(const QString& name);
    /// File dialog, then a request for the displayed dataset with the chosen test file.
    void openTestFile();
    /// Requests the displayed dataset with this test file (empty: none, a held-out fraction).
    void chooseTestFile(const QString& spec);
    /// Requests the displayed generated set with this many rows (0: its default size).
    void chooseRows(qlonglong rows);

signals:
    void loadRequested(const elab::ui::LoadRequest& request);

private:
    core::MissingPolicy selectedPolicy() const;
    void requestFresh(const QString& spec);
    QString askForDataFile(const QString& title);
    void fillLabelColumns(const core::Dataset& dataset);
    void describe(const LoadedDataset& loaded);

    QComboBox* m_builtin = nullptr;
    QPushButton* m_open = nullptr;
    QLabel* m_source = nullptr;
    QPushButton* m_openTest = nullptr;
    QPushButton* m_clearTest = nullptr;
    QLabel* m_testSource = nullptr;
    QComboBox* m_label = nullptr;
    QComboBox* m_missing = nullptr;
    QComboBox* m_rows = nullptr;
    QPushButton* m_reload = nullptr;
    QLabel* m_about = nullptr;
    LoadRequest m_shown;
    std::shared_ptr<const core::Dataset> m_shownData;
    std::shared_ptr<const core::Dataset> m_shownTestData;
    QString m_lastDirectory;
};

} // namespace elab::ui
