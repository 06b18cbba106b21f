#pragma once
// Runs the GUI once the command line is parsed: style, window, first load, and either the
// event loop or the --screenshot flow. GUI thread; call once from main().

#include "app/gui/app_options.h"

namespace elab::ui {

/// Returns the process exit code.
int runApplication(const AppOptions& options);

/// Application name and version; callable before any application object exists.
void setApplicationInfo();
/// Name, version and style; call right after constructing QApplication.
void initialiseApplication();

} // namespace elab::ui
