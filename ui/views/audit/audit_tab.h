#pragma once
// The "Privacy audit" view as the framework sees it (ui/views/view.h; issue 14): its panel in
// the left column, the AuditView page, the AuditController, its session block ("audit") and two
// figures (the score histograms with τ — its CSV every run's score; ε_LB against the claim),
// each with a sidecar holding every audit's numbers. The audit runs only while its tab has been
// shown (hundreds of fits). GUI thread only.

#include "ui/views/view_catalog.h"

#include <memory>

namespace elab::core {
struct Dataset;
}

namespace elab::ui {

class AuditController;
class SharedState;
class AuditPanel;
class AuditView;

class AuditTab : public View {
public:
    AuditTab(QWidget* parent, ViewHost& host);

    QWidget* widget() override;
    QWidget* sidePanel() override;
    ComputeControllerBase* controller() override;
    void prepareDataset(const LoadedDataset& loaded) override;
    void setDataset(const LoadedDataset& loaded) override;
    void becameCurrent() override;
    void applyStartOptions(const StartOptions& options) override;
    void saveSettings(Session& session) const override;
    void restoreSettings(const Session& session) override;
    QList<ViewFigure> figures() const override;
    bool complete() const override;
    /// The report's part of this view (its own file: audit_report.cpp).
    void addToReport(core::DecisionInputs& report) const override;

    AuditView* view() const { return m_view; }
    AuditController* auditController() const { return m_controller; }

private:
    SharedState* m_shared;          ///< null: no other view to read
    bool m_mechanismChosen = false; ///< shown once, or a session or --mechanism chose the mechanism
    std::shared_ptr<const core::Dataset> m_shown;
    std::shared_ptr<const core::Dataset> m_shownTest; ///< its test file (null: none)
    AuditController* m_controller;
    AuditPanel* m_panel;
    AuditView* m_view;
};

ViewType auditViewType();

} // namespace elab::ui
