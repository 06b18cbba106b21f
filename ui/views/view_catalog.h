#pragma once
// The registry of views: every tab the main window shows, in tab order, with what sessions
// and the command line need before any window exists. One line per view in
// view_catalog.cpp (README, "Developer notes: adding a view"). Any thread (read-only).

#include "ui/views/view.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace elab::ui {

struct ViewType {
    QString id;              ///< "utility": --view, a session's "view", its settings key
    QString title;           ///< the tab's title
    bool hasFigures = false; ///< --export and File ▸ Export figure apply
    /// Builds the view; its widgets and controller are parented to parent (the window).
    std::function<std::unique_ptr<View>(QWidget* parent, ViewHost& host)> create;
    /// The view's settings block in a session file ({"<id>": {…}}); empty: none; a null
    /// result writes no block.
    std::function<nlohmann::ordered_json(const Session&)> writeSettings;
    /// Parses the block into the session; throws std::runtime_error naming the field.
    std::function<void(const nlohmann::json&, Session&)> readSettings;
    /// A session without the block is rejected ("<id>: missing"); else it gets the defaults.
    bool settingsRequired = false;
};

/// Every view keeps its session block as JSON text in Session::viewSettings[id] (its
/// saveSettings/restoreSettings write and read it there with Session::setSettingsBlock /
/// settingsBlock): sets type.writeSettings and type.readSettings. validate(block) throws
/// std::runtime_error naming the field; a session without the block opens with the view's
/// defaults unless type.settingsRequired. Call after setting type.id.
void keepSettingsInSession(ViewType& type, std::function<void(const nlohmann::json&)> validate);

/// Every view, in tab order.
const std::vector<ViewType>& viewCatalog();
/// The type with this id, or null.
const ViewType* findViewType(const QString& id);
/// "utility, stability or data" (for messages).
QString viewIdList();

} // namespace elab::ui
