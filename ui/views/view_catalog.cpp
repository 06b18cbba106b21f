#include "ui/views/view_catalog.h"

#include "ui/views/data/data_tab.h"
#include "ui/views/stability/stability_tab.h"
#include "ui/views/utility/utility_tab.h"

namespace elab::ui {

const std::vector<ViewType>& viewCatalog() {
    // One line per view, in tab order.
    static const std::vector<ViewType> catalog = {
        utilityViewType(),
        stabilityViewType(),
        dataViewType(),
    };
    return catalog;
}

const ViewType* findViewType(const QString& id) {
    for (const ViewType& type : viewCatalog())
        if (type.id == id)
            return &type;
    return nullptr;
}

QString viewIdList() {
    QStringList ids;
    for (const ViewType& type : viewCatalog())
        ids << type.id;
    const QString last = ids.takeLast();
    return ids.isEmpty() ? last : ids.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

} // namespace elab::ui
