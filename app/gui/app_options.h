#pragma once
// Command line of the GUI: epsilonlab [--data SPEC] [--test FILE] [--label COL] [--missing POLICY]
// [--bounds FILE|builtin] [--private-bounds EPS] [--mechanism M] [--session FILE] [--view ID] [--eps E] [--target U]
// [--screenshot FILE.png] [--export FILE.svg|.pdf|.png|.gif|FILE-%03d.png ...] [--dpi N] [--size WxH]
// [--eps-range A:B] [--frame-ms N] [--frame-size WxH] [--lesson FILE|builtin:NAME [--step K]] [--presentation].
// With --screenshot or --export the view's computation runs to completion, the files are
// written and the program exits (batch mode); a .gif or a numbered .png export plays the view
// over the grid ε of --eps-range first. GUI thread, before the window exists.

#include "core/data/csv_loader.h"
#include "core/data/feature_bounds.h"
#include "ui/export/animation_export.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace elab::ui {

struct AppOptions {
    QString data;  ///< spec: file path or "builtin:NAME"
    QString test;  ///< test file spec (empty: none)
    QString label; ///< CSV label column (empty: the loader's default)
    core::MissingPolicy missing = core::MissingPolicy::DropRows;
    QString screenshot; ///< render the window to this PNG once loaded, then exit
    QSize size{1400, 900};
    QString mechanism;                        ///< "" = the default mechanism; else a core mechanism name
    QString session;                          ///< session file to open (its dataset replaces --data)
    QString view = QStringLiteral("utility"); ///< tab shown: a registered view id (ui/views/view_catalog.h)
    QStringList exports;                      ///< figures to export (suffix: .png, .svg, .pdf), with CSV + JSON beside
    /// Films (--export FILE.gif or FILE-%03d.png): the view over --eps-range, CSV + JSON beside.
    std::vector<AnimationRequest> animations;
    int dpi = 150;                       ///< PNG export resolution
    std::optional<double> eps;           ///< slider ε (+∞ allowed: "inf")
    std::optional<double> target;        ///< target utility
    QStringList compare;                 ///< --compare a,b: the Utility view's compared mechanisms
    core::PublicBounds bounds;           ///< --bounds FILE|builtin: public ranges applied on loading
    std::optional<double> privateBounds; ///< --private-bounds EPS: estimate the other numeric columns' ranges
    QString lesson;                      ///< --lesson FILE|builtin:NAME: open it (its step replaces --data)
    int step = 1;                        ///< --step K: the lesson's step shown first (from 1)
    bool presentation = false;           ///< --presentation: start in presentation mode

    bool screenshotMode() const { return !screenshot.isEmpty(); }
    /// Run to completion, write files, exit.
    bool batchMode() const { return !screenshot.isEmpty() || !exports.isEmpty() || !animations.empty(); }
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
