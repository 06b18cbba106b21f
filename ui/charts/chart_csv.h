#pragma once
// The data behind a chart as CSV, so that every figure can be saved with its numbers
// (docs/STYLE.md §7). Long format, one row per point:
//   key,name,kind,x,y,y_upper
// kind is line, band, points, horizontal_line or vertical_line; y_upper is set for bands
// only; a horizontal line is one row with y = its value and x empty, a vertical line one row
// with x = its value and y empty. Numbers are printed with %.17g (they read back exactly;
// "nan" and "inf" as printf writes them), text fields are quoted as RFC 4180 says, and
// lines end with "\n". Any thread.

#include "ui/charts/chart_data.h"

#include <QString>

namespace elab::ui::charts {

/// A number as the CSV writers print it: %.17g (reads back exactly).
QString csvNumber(double value);
/// A text field, quoted as RFC 4180 says when it holds a comma, quote or line break.
QString csvField(const QString& text);

/// "line", "band", "points", "horizontal_line", "vertical_line".
QString csvKindName(SeriesKind kind);

/// The CSV text of every series in data, in order, after the header.
QString chartCsv(const ChartData& data);

/// Writes chartCsv(data) to path (UTF-8, atomically). False with a message for the user in
/// *error (may be null) when the file cannot be written.
bool writeChartCsv(const ChartData& data, const QString& path, QString* error);

} // namespace elab::ui::charts
