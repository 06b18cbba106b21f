#pragma once
// The "Data" view as the framework sees it (ui/views/view.h): the DataView page; no
// computation, no settings, no figure. GUI thread only.

#include "ui/dataset/load_request.h"
#include "ui/views/view_catalog.h"

namespace elab::ui {

class DataView;

class DataTab : public View {
public:
    /// host loads the dataset again when the bounds change and shows the messages.
    DataTab(QWidget* parent, ViewHost& host);

    QWidget* widget() override;
    void prepareDataset(const LoadedDataset& loaded) override;

    DataView* view() const { return m_view; }

private:
    /// Writes schema beside the data file (a built-in's stays in the request) and loads the
    /// dataset again with it.
    void declareSchema(core::PublicSchema schema);

    DataView* m_view;
    ViewHost& m_host;
    LoadRequest m_request; ///< of the shown dataset
};

/// The registry entry (ui/views/view_catalog.cpp).
ViewType dataViewType();

} // namespace elab::ui
