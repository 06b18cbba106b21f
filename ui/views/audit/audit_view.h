#pragma once
// The Privacy audit tab (issue 14): an ε slider (an audit starts when the handle is released, not
// on every step of a drag); the two score histograms with the threshold; ε_LB against the claimed
// ε, one bar per audited mechanism; the verdict in plain words; the attack's numbers; the table of
// every mechanism; the assumptions. The form is the tab's side panel (AuditPanel). GUI thread only.

#include "ui/views/audit/audit_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace elab::ui {

namespace charts {
class ChartView;
struct ChartData;
} // namespace charts
class AuditController;
class AuditPanel;
class EpsSlider;

class AuditView : public QWidget {
    Q_OBJECT
public:
    AuditView(AuditController* controller, AuditPanel* panel, QWidget* parent = nullptr);

    /// The panel's settings plus the slider's ε.
    AuditSettings composedSettings() const;
    void applySettings(const AuditSettings& settings);
    charts::ChartData scoreChart() const;
    charts::ChartData boundChart() const;
    QString verdictText() const;
    QString detailsText() const;
    QString tableText() const;
    EpsSlider* slider() const { return m_slider; }

signals:
    void redrawn();

private:
    void pushSettings();
    void refresh();
    void refreshStatus();

    AuditController* m_controller;
    AuditPanel* m_panel;
    EpsSlider* m_slider;
    charts::ChartView* m_scoreChart;
    charts::ChartView* m_boundChart;
    QLabel* m_verdict;
    QLabel* m_details;
    QLabel* m_table;
    QLabel* m_status;
    QLabel* m_assumptions; ///< the method's assumptions in words
    QPushButton* m_rerun;
    bool m_applying = false;
    bool m_statusIsProblem = false;
};

} // namespace elab::ui
