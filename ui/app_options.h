#pragma once
// Command line of the GUI: epsilonlab [--data SPEC] [--label COL] [--missing POLICY]
// [--screenshot FILE.png] [--size WxH]. GUI thread, before the window exists.

#include "core/data/csv_loader.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace elab::ui {

struct AppOptions {
    QString data;       ///< spec: file path or "builtin:NAME"
    QString label;      ///< CSV label column (empty: the loader's default)
    core::MissingPolicy missing = core::MissingPolicy::DropRows;
    QString screenshot; ///< render the window to this PNG once loaded, then exit
    QSize size{1400, 900};

    bool screenshotMode() const { return !screenshot.isEmpty(); }
};

/// Parses arguments (arguments[0] is the program). Returns the options, or nullopt after
/// printing help/version (exitCode 0) or an error (exitCode 2).
std::optional<AppOptions> parseAppOptions(const QStringList& arguments, int* exitCode);

/// True if the arguments ask only for --help or --version, which must work without a
/// display (no QApplication is created for them).
bool isInfoRequest(int argc, const char* const* argv);

/// "drop" | "mean" | "most-frequent" → policy; anything else → nullopt.
std::optional<core::MissingPolicy> parseMissingPolicy(const QString& text);

/// "1400x900" → size; invalid → nullopt. Accepts 'x' or '×'.
std::optional<QSize> parseSize(const QString& text);

} // namespace elab::ui
