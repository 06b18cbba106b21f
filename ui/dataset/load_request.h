#pragma once
// What to load: a spec ("builtin:NAME" or a file path) and the loader options. A plain
// value, copied into the worker thread so the GUI can change its own copy freely.

#include "core/data/dataset_loader.h"

#include <QMetaType>
#include <QString>

namespace elab::ui {

struct LoadRequest {
    QString spec;
    core::LoadOptions options;

    /// The CSV label column asked for; empty means the loader's default.
    QString labelColumn() const { return QString::fromStdString(options.csv.labelColumn); }
    bool isBuiltin() const { return spec.startsWith(QLatin1String("builtin:")); }
};

} // namespace elab::ui

Q_DECLARE_METATYPE(elab::ui::LoadRequest)
