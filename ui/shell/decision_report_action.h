#pragma once
// File ▸ Decision report…: the ε decision report (core/report/decision_report.h) of what the
// window shows — every view adds its part (View::addToReport: the Utility view its data, curves,
// slider ε and target; the Privacy audit view its verdicts) and the session is embedded — written
// as NAME.html (self-contained) and NAME.pdf beside it (ui/export/pdf/report_pdf.h). GUI thread only.

#include <QString>
#include <QStringList>

namespace elab::ui {

class MainWindow;

/// Writes the report to htmlPath and the PDF beside it (same name, .pdf); the files written, or
/// none with error set (no dataset or no measured curve yet, the slider at the non-private stop,
/// a file that cannot be written).
QStringList writeDecisionReport(const MainWindow& window, const QString& htmlPath, QString* error);

/// Asks for the HTML file's name, writes both files and says where (or why not).
void writeDecisionReportInteractively(MainWindow& window);

} // namespace elab::ui
