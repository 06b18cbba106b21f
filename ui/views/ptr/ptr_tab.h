#pragma once
// The "Private dropout (PTR)" teaching view as the framework sees it (ui/views/view.h; issue 14):
// its panel in the left column, the PtrView page, the PtrController, its session block ("ptr")
// and two figures (pass probability against ε; Λ against the threshold), each with a sidecar of
// Λ, the threshold, the run and the guarantee. GUI thread only.

#include "ui/views/view_catalog.h"

namespace elab::ui {

class PtrController;
class PtrPanel;
class PtrView;

class PtrTab : public View {
public:
    PtrTab(QWidget* parent, ViewHost& host);

    QWidget* widget() override;
    QWidget* sidePanel() override;
    ComputeControllerBase* controller() override;
    void setDataset(const LoadedDataset& loaded) override;
    void applyStartOptions(const StartOptions& options) override;
    void saveSettings(Session& session) const override;
    void restoreSettings(const Session& session) override;
    QList<ViewFigure> figures() const override;
    bool complete() const override;

    PtrView* view() const { return m_view; }
    PtrController* ptrController() const { return m_controller; }

private:
    PtrController* m_controller;
    PtrPanel* m_panel;
    PtrView* m_view;
};

ViewType ptrViewType();

} // namespace elab::ui
