#pragma once
// The "Utility vs ε" view as the framework sees it (ui/views/view.h): the mechanism panel in
// the left column, the UtilityView page, the UtilityController, its session block
// ("utility") and its figure. GUI thread only.

#include "ui/views/view_catalog.h"

namespace elab::ui {

class MechanismPanel;
class TrainingController;
class TrainingPanel;
class UtilityController;
class UtilityView;

class UtilityTab : public View {
public:
    UtilityTab(QWidget* parent, ViewHost& host);

    QWidget* widget() override;
    QWidget* sidePanel() override;
    ComputeControllerBase* controller() override;
    void prepareDataset(const LoadedDataset& loaded) override;
    void setDataset(const LoadedDataset& loaded) override;
    void applyStartOptions(const StartOptions& options) override;
    void saveSettings(Session& session) const override;
    void restoreSettings(const Session& session) override;
    QList<ViewFigure> figures() const override;
    bool complete() const override;
    /// The report's part of this view (its own file: utility_report.cpp).
    void addToReport(core::DecisionInputs& report) const override;

    UtilityView* view() const { return m_view; }
    UtilityController* utilityController() const { return m_controller; }
    MechanismPanel* mechanismPanel() const { return m_panel; }
    TrainingController* trainingController() const { return m_training; }
    TrainingPanel* trainingPanel() const { return m_trainingPanel; }

private:
    UtilityController* m_controller;
    MechanismPanel* m_panel;
    UtilityView* m_view;
    TrainingController* m_training;
    TrainingPanel* m_trainingPanel;
};

/// The registry entry (ui/views/view_catalog.cpp).
ViewType utilityViewType();

} // namespace elab::ui
