#pragma once
// Saving a chart: PNG at a chosen resolution, SVG, PDF and the clipboard all go through one
// paint routine that builds a fresh chart off-screen at the export size, never the live
// widget (docs/STYLE.md §7). Text is DejaVu Sans at fixed pixel sizes, so that a figure
// looks the same on every machine. GUI thread only (Qt Charts, fonts, clipboard).

#include "ui/charts/chart_data.h"

#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace elab::ui::charts {

enum class ExportFormat { Unknown, Png, Svg, Pdf };

struct ExportOptions {
    /// Figure size in logical pixels of 1/96 inch; text and lines are laid out at this size.
    QSize size{1200, 800};
    /// PNG and clipboard resolution: the image has size × dpi / 96 pixels. SVG and PDF are
    /// vector formats of the same logical size.
    int dpi = 150;
    /// PDF creator and part of the SVG description; empty: defaultCreator().
    QString creator;
};

/// "EpsilonLab <version>".
QString defaultCreator();

/// Draws data into target (painter units), the footnote in small grey text under the chart.
/// The one routine behind every export device.
void paintChart(const ChartData& data, QPainter& painter, const QRectF& target);

/// The chart as an image of options.size × dpi / 96 pixels, its resolution set to dpi.
QImage renderChartImage(const ChartData& data, const ExportOptions& options = {});

/// By suffix, case-insensitive: .png, .svg, .pdf; anything else Unknown.
ExportFormat formatFromPath(const QString& path);

/// Writes the chart to path in the format of its suffix (atomically: a failed export leaves
/// an existing file untouched). False with a message for the user in *error (may be null)
/// when the suffix is unknown or the file cannot be written.
bool exportChart(const ChartData& data, const QString& path, const ExportOptions& options, QString* error);

/// Puts renderChartImage(data, options) on the clipboard.
void copyChartToClipboard(const ChartData& data, const ExportOptions& options = {});

} // namespace elab::ui::charts
