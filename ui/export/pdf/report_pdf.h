#pragma once
// The decision report as PDF (core/report/report_html.h's blocks): the HTML fragments laid out by
// QTextDocument (its subset of HTML and CSS) and the charts drawn as vectors by QSvgRenderer from
// the same SVG the HTML file holds, paginated on A4. Qt Gui and Qt Svg only (no Widgets), so the
// GUI and the CLI (when built with EPSILONLAB_CLI_PDF) share it; without a Qt application it starts
// a QGuiApplication on the offscreen platform. Thread: the GUI thread (or the CLI's main thread).

#include "core/report/report_html.h"

#include <string>
#include <vector>

namespace elab::ui {

/// Writes blocks to path as PDF; "" on success, else what went wrong.
std::string writeReportPdf(const std::vector<core::ReportBlock>& blocks, const std::string& title,
                           const std::string& path);

} // namespace elab::ui
