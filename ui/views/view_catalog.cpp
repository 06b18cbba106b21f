#include "ui/views/view_catalog.h"

#include "ui/views/accounting/accounting_tab.h"
#include "ui/views/audit/audit_tab.h"
#include "ui/views/data/data_tab.h"
#include "ui/views/ptr/ptr_tab.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/stability/stability_tab.h"
#include "ui/views/utility/utility_tab.h"

#include "ui/session/session.h"

#include <nlohmann/json.hpp>

namespace elab::ui {

const std::vector<ViewType>& viewCatalog() {
    // One line per view, in tab order.
    static const std::vector<ViewType> catalog = {
        utilityViewType(), stabilityViewType(), regionsViewType(), accountingViewType(),
        auditViewType(),   ptrViewType(),       dataViewType(),
    };
    return catalog;
}

const ViewType* findViewType(const QString& id) {
    for (const ViewType& type : viewCatalog())
        if (type.id == id)
            return &type;
    return nullptr;
}

void keepSettingsInSession(ViewType& type, std::function<void(const nlohmann::json&)> validate) {
    const QString id = type.id;
    type.writeSettings = [id](const Session& session) {
        const auto it = session.viewSettings.constFind(id);
        return it == session.viewSettings.cend() ? nlohmann::ordered_json()
                                                 : nlohmann::ordered_json::parse(it->toStdString());
    };
    type.readSettings = [id, validate = std::move(validate)](const nlohmann::json& block, Session& session) {
        validate(block);
        session.setSettingsBlock(id, block);
    };
}

QString viewIdList() {
    QStringList ids;
    for (const ViewType& type : viewCatalog())
        ids << type.id;
    const QString last = ids.takeLast();
    return ids.isEmpty() ? last : ids.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

} // namespace elab::ui
