// Fixture of the ui_views_apart_detects_violation test: one view reaching into another's folder.
#include "ui/views/accounting/accounting_tab.h"
#include "ui/views/utility/utility_tab.h"
