// Fixture of the ui_views_apart_detects_violation test: a shared widget naming a view.
#include "ui/views/regions/regions_settings.h"
