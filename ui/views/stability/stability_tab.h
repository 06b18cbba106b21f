#pragma once
// The "Stability" view as the framework sees it (ui/views/view.h): the StabilityView page
// (its form is inside, so other side panels hide), the StabilityController, its session
// block ("stability") and its two figures. The study is costly: the dataset is handed over
// only while the tab is shown. GUI thread only.

#include "ui/views/view_catalog.h"

#include <memory>

namespace elab::core {
struct Dataset;
}

namespace elab::ui {

class StabilityController;
class StabilityView;

class StabilityTab : public View {
public:
    explicit StabilityTab(QWidget* parent);

    QWidget* widget() override;
    bool hidesSidePanels() const override { return true; }
    ComputeControllerBase* controller() override;
    void prepareDataset(const LoadedDataset& loaded) override;
    void setDataset(const LoadedDataset& loaded) override;
    void becameCurrent() override;
    void saveSettings(Session& session) const override;
    void restoreSettings(const Session& session) override;
    QList<ViewFigure> figures() const override;
    bool complete() const override;

    StabilityView* view() const { return m_view; }
    StabilityController* stabilityController() const { return m_controller; }

private:
    StabilityController* m_controller;
    StabilityView* m_view;
    std::shared_ptr<const core::Dataset> m_shown;     ///< the window's dataset, handed over when current
    std::shared_ptr<const core::Dataset> m_shownTest; ///< its test file (null: none)
};

/// The registry entry (ui/views/view_catalog.cpp).
ViewType stabilityViewType();

} // namespace elab::ui
