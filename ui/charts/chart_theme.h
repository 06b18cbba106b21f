#pragma once
// The look every chart is drawn with: normal, or for a projector (presentation mode: lines and
// markers thicker, texts, axes and grid black or dark instead of greys). One value for the whole
// process, read when a chart is built or its series' look is set; ChartView::restyle() rebuilds
// a live chart after a change. Exports made while it is on look the same (figures for slides).
// GUI thread only.

#include <QColor>

namespace elab::ui::charts {

struct ChartTheme {
    double lineScale = 1.0;    ///< pen widths are multiplied by it
    double markerScale = 1.0;  ///< marker sizes are multiplied by it
    bool highContrast = false; ///< black texts and axes, darker grid lines
};

const ChartTheme& chartTheme();
void setChartTheme(const ChartTheme& theme);

/// The projector theme of presentation mode.
ChartTheme presentationTheme();

/// Chart texts (titles, ticks, legend), axis lines and grid lines in the theme.
QColor themeTextColor();
QColor themeAxisColor();
QColor themeGridColor(bool minor);

} // namespace elab::ui::charts
