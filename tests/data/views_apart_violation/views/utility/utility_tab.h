// Fixture of the ui_views_apart_detects_violation test: includes of its own folder are fine.
#include "ui/views/utility/utility_state.h"
