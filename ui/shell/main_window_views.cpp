// Shortcuts to the parts of the first three views (tests and the composition root use
// them). The shell itself goes through View and the catalog; a new view needs nothing here
// (MainWindow::view<T>() finds any view by its tab class).

#include "ui/shell/main_window.h"

#include "ui/views/data/data_tab.h"
#include "ui/views/stability/stability_tab.h"
#include "ui/views/utility/utility_tab.h"

namespace elab::ui {

DataView* MainWindow::dataView() const { return view<DataTab>()->view(); }
MechanismPanel* MainWindow::mechanismPanel() const { return view<UtilityTab>()->mechanismPanel(); }
UtilityView* MainWindow::utilityView() const { return view<UtilityTab>()->view(); }
UtilityController* MainWindow::utilityController() const { return view<UtilityTab>()->utilityController(); }
StabilityView* MainWindow::stabilityView() const { return view<StabilityTab>()->view(); }
StabilityController* MainWindow::stabilityController() const { return view<StabilityTab>()->stabilityController(); }

} // namespace elab::ui
