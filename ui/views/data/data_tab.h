#pragma once
// The "Data" view as the framework sees it (ui/views/view.h): the DataView page; no
// computation, no settings, no figure. GUI thread only.

#include "ui/views/view_catalog.h"

namespace elab::ui {

class DataView;

class DataTab : public View {
public:
    explicit DataTab(QWidget* parent);

    QWidget* widget() override;
    void prepareDataset(const LoadedDataset& loaded) override;

    DataView* view() const { return m_view; }

private:
    DataView* m_view;
};

/// The registry entry (ui/views/view_catalog.cpp).
ViewType dataViewType();

} // namespace elab::ui
