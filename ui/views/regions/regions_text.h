#pragma once
// Words for the Decision regions view: the fill modes, the guarantee of what was computed and
// the readout at the picture's ε (accuracy mean ± sd over the draws, the non-private accuracy,
// the points most draws misclassify, the grid). The view, the chart's footnote and the export
// share them. Pure functions of their arguments: any thread.

#include "ui/views/regions/regions_settings.h"
#include "ui/views/regions/regions_state.h"
#include "ui/widgets/settings_text.h"

#include <QString>
#include <QStringList>

namespace elab::ui {

QString regionsFillTitle(RegionsFill fill);

/// "ε = 0.5" or "ε = ∞ (non-private)".
QString regionsEpsText(double eps);

/// The guarantee of the regions shown (ε, δ, source, assumptions, branch and constants), with
/// what the plane and the preparation leak; "" before any result.
GuaranteeText regionsGuarantee(const RegionsSettings& settings, const RegionsState& state);

/// The readout's lines for the regions shown (none before a result): ε, draws and grid,
/// accuracies, misclassified points. The guarantee is apart (regionsGuarantee).
QStringList regionsReadoutLines(const RegionsSettings& settings, const RegionsState& state);

} // namespace elab::ui
