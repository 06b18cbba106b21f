#pragma once
// The short texts that describe a loaded dataset in the status bar and the Data tab.
// Pure functions; any thread (they only read the arguments).

#include "core/data/dataset.h"
#include "core/data/dataset_summary.h"

#include <QString>

QT_BEGIN_NAMESPACE
class QFontMetrics;
QT_END_NAMESPACE

namespace elab::ui {

/// "1,234 KiB", "5.2 MiB".
QString humanBytes(std::uintmax_t bytes);
/// "569 rows × 30 features · dense · binary · … · loaded in 0.05 s".
QString shapeText(const core::Dataset& data, const core::DatasetSummary& summary, double seconds);
/// Rich text: path (elided to maxWidth pixels), format, gzip, size, full sha256.
QString provenanceHtml(const core::Provenance& provenance, const QFontMetrics& metrics, int maxWidth);
/// Status bar: "breast_cancer · 569 × 30 · dense · sha256 1a2b3c4d…".
QString statusText(const core::Dataset& data);

} // namespace elab::ui
