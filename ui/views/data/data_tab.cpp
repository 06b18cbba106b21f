#include "ui/views/data/data_tab.h"

#include "ui/views/data/data_view.h"

namespace elab::ui {

DataTab::DataTab(QWidget* parent, ViewHost& host) : m_view(new DataView(parent)), m_host(host) {
    QObject::connect(m_view, &DataView::boundsChanged, m_view,
                     [this](const core::PublicBounds& bounds, const std::optional<core::PrivateBoundsOptions>& estimate) {
                         if (m_request.spec.isEmpty())
                             return;
                         LoadRequest request = m_request;
                         request.bounds = bounds;
                         request.privateBounds = estimate;
                         m_host.requestLoad(request);
                     });
    QObject::connect(m_view, &DataView::message, m_view,
                     [this](const QString& text) { m_host.showStatusMessage(text, 8000); });
}

QWidget* DataTab::widget() { return m_view; }

void DataTab::prepareDataset(const LoadedDataset& loaded) {
    m_request = loaded.request;
    m_view->setDataset(loaded);
}

ViewType dataViewType() {
    ViewType type;
    type.id = QStringLiteral("data");
    type.title = QObject::tr("Data");
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<DataTab>(parent, host); };
    return type;
}

} // namespace elab::ui
