#pragma once
// The Privacy accounting tab (issue 12): an ε slider; ε against σ for every accountant
// (log axes) with the current σ and ε and the σ each accountant needs; ε spent epoch by epoch
// at the current σ; the table of σ per accountant; an exact readout at the hovered σ. The form
// (N, S, epochs, δ, accountant) is the tab's side panel (AccountingPanel). GUI thread only.

#include "ui/views/accounting/accounting_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
struct ChartData;
} // namespace charts
class AccountingController;
class EpsSlider;
class Throttle;
class ThrottledText;

/// The side panel's form. objectNames: "accountingRowsSpin", "accountingBatchSpin",
/// "accountingEpochsSpin", "accountingDeltaEdit", "accountingAccountantCombo",
/// "accountingPublicRowsCheck" (N is public: add/remove; else replace-one at that N),
/// "accountingFollowUtilityCheck" (the schedule follows the Utility tab's DP-SGD settings; an edit
/// of the schedule unticks it) and "accountingSource" (which settings are shown).
class AccountingPanel : public QWidget {
    Q_OBJECT
public:
    explicit AccountingPanel(QWidget* parent = nullptr);
    /// Shows s (its currentEps is kept for settings()); emits nothing.
    void setSettings(const AccountingSettings& s);
    AccountingSettings settings() const { return m_settings; }
    /// The N that rows = 0 stands for (the loaded dataset's rows), for the hint.
    void setDatasetRows(long long rows);
    /// Where the shown schedule comes from, in words.
    void setSourceText(const QString& text);

signals:
    void settingsChanged();

private:
    void edited();
    AccountingSettings m_settings;
    bool m_applying = false;
    QSpinBox* m_rows;
    QSpinBox* m_batch;
    QSpinBox* m_epochs;
    QLineEdit* m_delta;
    QComboBox* m_accountant;
    QCheckBox* m_nPublic;
    QCheckBox* m_follow;
    QLabel* m_source;
    QLabel* m_problem;
};

class AccountingView : public QWidget {
    Q_OBJECT
public:
    /// While the slider's handle is held, the table and the status line change at most this often.
    static constexpr int kHeldTextMs = 250;
    /// While it is held, new curves are drawn at most this often (both charts repaint).
    static constexpr int kHeldRedrawMs = 40;

    AccountingView(AccountingController* controller, AccountingPanel* panel, QWidget* parent = nullptr);

    /// The settings of the form and the slider together.
    AccountingSettings composedSettings() const;
    void applySettings(const AccountingSettings& s);
    charts::ChartData sigmaChart() const;
    charts::ChartData epochChart() const;
    QString tableText() const;

    QString readoutText() const;
    EpsSlider* slider() const { return m_slider; }

signals:
    void redrawn();

private:
    void pushSettings();
    void refresh();
    void showReadout(double sigma);

    AccountingController* m_controller;
    AccountingPanel* m_panel;
    EpsSlider* m_slider;
    charts::ChartView* m_sigmaChart;
    charts::ChartView* m_epochChart;
    QLabel* m_table;
    QLabel* m_readout;
    QLabel* m_status;
    bool m_applying = false;
    ThrottledText* m_tableShown;  ///< the table: at most every kHeldTextMs while the handle is held
    ThrottledText* m_statusShown; ///< the status line: likewise
    Throttle* m_redraw;           ///< a redraw per new result; every kHeldRedrawMs at most while held
};

} // namespace elab::ui
