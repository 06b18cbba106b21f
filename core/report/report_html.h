#pragma once
// The decision report (decision_report.h) as HTML: a list of blocks — HTML fragments and SVG
// charts, each tagged with its section — that the HTML page joins and the GUI's PDF writer
// (ui/export/pdf/report_pdf.h) lays out page by page, charts as vectors, so that both hold the same
// content. The page is self-contained: its style inline, its charts inline SVG, no script and
// no reference to any other resource. Sections (their ids): summary, dataset, ledger, mechanisms,
// utility, guarantee, choice, audit, reproduce.

#include "core/report/decision_report.h"

#include <string>
#include <vector>

namespace elab::core {

struct ReportBlock {
    std::string section; ///< the id of the section it belongs to
    bool svg = false;    ///< an <svg> chart (else an HTML fragment)
    std::string text;
};

/// The report's blocks, in order. Every text from the data is escaped.
std::vector<ReportBlock> decisionReportBlocks(const DecisionReport& report);

/// The whole page: <!DOCTYPE html>, an inline style sheet, one <section id=…> per section.
std::string decisionReportHtml(const DecisionReport& report);

/// The title of the report ("ε decision report — NAME").
std::string decisionReportTitle(const DecisionReport& report);

} // namespace elab::core
