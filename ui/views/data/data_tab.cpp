#include "ui/views/data/data_tab.h"

#include "ui/views/data/data_view.h"

namespace elab::ui {

DataTab::DataTab(QWidget* parent) : m_view(new DataView(parent)) {}

QWidget* DataTab::widget() { return m_view; }

void DataTab::prepareDataset(const LoadedDataset& loaded) { m_view->setDataset(loaded); }

ViewType dataViewType() {
    ViewType type;
    type.id = QStringLiteral("data");
    type.title = QObject::tr("Data");
    type.create = [](QWidget* parent, ViewHost&) { return std::make_unique<DataTab>(parent); };
    return type;
}

} // namespace elab::ui
