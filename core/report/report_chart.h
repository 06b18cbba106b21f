#pragma once
// The decision report's utility chart as a plain value and its SVG: measured curves (mean line
// and a mean ± sd band) on a log ε axis, each in its own colour and dash pattern (told apart in
// greyscale too), the non-private level, the target as a horizontal line and the chosen ε as a
// vertical marker, with a legend. Hand-written SVG with presentation attributes only (no CSS, no
// script, no external reference), so that a browser and Qt's SVG renderer (SVG Tiny) draw it alike.

#include <optional>
#include <string>
#include <vector>

namespace elab::core {

struct ChartCurve {
    std::string name;         ///< legend text
    std::vector<double> x;    ///< ε, ascending, > 0
    std::vector<double> mean; ///< the measured mean at each x
    std::vector<double> sd;   ///< the sample sd at each x (the band is mean ± sd)
};

struct ReportChart {
    std::string title;
    std::string xLabel = "ε (log scale)";
    std::string yLabel;
    std::vector<ChartCurve> curves;
    std::optional<double> reference; ///< the non-private level (drawn once)
    std::optional<double> target;    ///< the target utility
    std::optional<double> chosenEps; ///< the chosen ε (vertical marker)
};

/// The colour and dash pattern of curve k (cycling): a colour-blind-safe palette (Okabe & Ito)
/// and dash arrays that differ in greyscale.
const char* chartColour(std::size_t k);
const char* chartDash(std::size_t k);

/// The chart as a standalone <svg> element of width × height user units. Text is escaped.
std::string chartSvg(const ReportChart& chart, int width = 760, int height = 420);

/// text with &, <, >, " and ' replaced by their entities (HTML and SVG).
std::string escapeXml(const std::string& text);

} // namespace elab::core
