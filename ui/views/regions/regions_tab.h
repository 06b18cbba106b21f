#pragma once
// The "Decision regions" view as the framework sees it (ui/views/view.h): the RegionsPanel in
// the left column, the RegionsView page, the RegionsController, its session block ("regions",
// kept as JSON text in Session::viewSettings) and its figure (raster under vector boundaries
// and points, with its own CSV of cells, points and boundaries). The regions are computed
// while the tab is shown: the dataset is handed over in becameCurrent(). GUI thread only.

#include "ui/views/view_catalog.h"

#include <memory>

namespace elab::core {
struct Dataset;
}

namespace elab::ui {

class RegionsController;
class SharedState;
class RegionsPanel;
class RegionsView;

class RegionsTab : public View {
public:
    RegionsTab(QWidget* parent, ViewHost& host);

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

    RegionsView* view() const { return m_view; }
    RegionsPanel* panel() const { return m_panel; }
    RegionsController* regionsController() const { return m_controller; }

private:
    SharedState* m_shared;          ///< null: no other view to read
    bool m_mechanismChosen = false; ///< shown once, or a session or --mechanism chose the mechanism
    RegionsController* m_controller;
    RegionsPanel* m_panel;
    RegionsView* m_view;
    std::shared_ptr<const core::Dataset> m_shown;     ///< the window's dataset, handed over when current
    std::shared_ptr<const core::Dataset> m_shownTest; ///< its test file (null: none)
};

/// The registry entry (ui/views/view_catalog.cpp).
ViewType regionsViewType();

} // namespace elab::ui
