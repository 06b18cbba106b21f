#pragma once
// What to load: a spec ("builtin:NAME" or a file path) and the loader options. A plain
// value, copied into the worker thread so the GUI can change its own copy freely.

#include "core/data/dataset_loader.h"
#include "core/data/private_bounds.h"

#include <QMetaType>
#include <QString>

namespace elab::ui {

struct LoadRequest {
    QString spec;
    /// Optional test file (CSV or LIBSVM): read with the training file's options (a LIBSVM
    /// file at its own width) and encoded with the training file's schema when the views
    /// prepare the data, as the CLI's --test does. Empty: none.
    QString testSpec;
    core::LoadOptions options;
    /// Public ranges of numeric columns (the Data tab's column table, a bounds file, a
    /// session), applied right after loading so that every view prepares the same values.
    core::PublicBounds bounds;
    /// Set: the numeric columns without a public bound get private estimates (their ε is
    /// added to every view's guarantee through Dataset::preparationEpsilon).
    std::optional<core::PrivateBoundsOptions> privateBounds;

    /// The CSV label column asked for; empty means the loader's default.
    QString labelColumn() const { return QString::fromStdString(options.csv.labelColumn); }
    bool isBuiltin() const { return spec.startsWith(QLatin1String("builtin:")); }
};

} // namespace elab::ui

Q_DECLARE_METATYPE(elab::ui::LoadRequest)
