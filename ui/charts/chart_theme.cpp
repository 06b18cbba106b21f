#include "ui/charts/chart_theme.h"

namespace elab::ui::charts {

namespace {
ChartTheme& current() {
    static ChartTheme theme;
    return theme;
}
} // namespace

const ChartTheme& chartTheme() { return current(); }
void setChartTheme(const ChartTheme& theme) { current() = theme; }

ChartTheme presentationTheme() { return ChartTheme{2.0, 1.3, true}; }

QColor themeTextColor() { return current().highContrast ? QColor(Qt::black) : QColor(0x20, 0x20, 0x20); }
QColor themeAxisColor() { return current().highContrast ? QColor(Qt::black) : QColor(0x80, 0x80, 0x80); }
QColor themeGridColor(bool minor) {
    if (current().highContrast)
        return minor ? QColor(0xd0, 0xd0, 0xd0) : QColor(0xa0, 0xa0, 0xa0);
    return minor ? QColor(0xef, 0xef, 0xef) : QColor(0xd9, 0xd9, 0xd9);
}

} // namespace elab::ui::charts
