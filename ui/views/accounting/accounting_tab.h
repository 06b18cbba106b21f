#pragma once
// The "Privacy accounting" view as the framework sees it (ui/views/view.h; issue 12): its panel
// in the left column, the AccountingView page, the AccountingController, its session block
// ("accounting") and two figures (ε against σ; ε spent per epoch), each with a sidecar holding
// every accountant's numbers. GUI thread only.

#include "ui/views/view_catalog.h"

namespace elab::ui {

class AccountingController;
class AccountingPanel;
class AccountingView;
class SharedState;

class AccountingTab : public View {
public:
    AccountingTab(QWidget* parent, ViewHost& host);

    QWidget* widget() override;
    QWidget* sidePanel() override;
    ComputeControllerBase* controller() override;
    void setDataset(const LoadedDataset& loaded) override;
    /// Reads the Utility view's DP-SGD sweep (if any, from the shared state) for the table's cost
    /// column, and follows it from then on.
    void becameCurrent() override;
    void applyStartOptions(const StartOptions& options) override;
    void saveSettings(Session& session) const override;
    void restoreSettings(const Session& session) override;
    QList<ViewFigure> figures() const override;
    bool complete() const override;

    AccountingView* view() const { return m_view; }
    AccountingController* accountingController() const { return m_controller; }

private:
    void syncSweep();

    SharedState* m_shared; ///< null: no other view to read
    bool m_followingUtility = false;
    AccountingController* m_controller;
    AccountingPanel* m_panel;
    AccountingView* m_view;
};

ViewType accountingViewType();

} // namespace elab::ui
