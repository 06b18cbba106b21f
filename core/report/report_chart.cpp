#include "core/report/report_chart.h"

#include "core/util/format_number.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace elab::core {

namespace {

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", v);
    return buffer;
}

struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    bool empty() const { return !(lo <= hi); }
};

// A step of 1, 2 or 5 × 10^k giving about `count` ticks over [lo, hi].
double niceStep(double lo, double hi, int count) {
    const double raw = (hi - lo) / count;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * p >= raw)
            return m * p;
    return 10.0 * p;
}

// Tick labels: 4 significant digits, and no "-0".
std::string tickText(double v) { return formatNumber(std::abs(v) < 1e-12 ? 0.0 : v); }

} // namespace

std::string escapeXml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

const char* chartColour(std::size_t k) {
    static const char* colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
    return colours[k % (sizeof colours / sizeof *colours)];
}

const char* chartDash(std::size_t k) {
    static const char* dashes[] = {"none", "9 4", "2 3", "12 3 2 3", "5 5", "1 6"};
    return dashes[k % (sizeof dashes / sizeof *dashes)];
}

std::string chartSvg(const ReportChart& chart, int width, int height) {
    Range xs, ys;
    for (const ChartCurve& c : chart.curves)
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            if (c.x[i] > 0.0)
                xs.add(std::log10(c.x[i]));
            const double sd = i < c.sd.size() && std::isfinite(c.sd[i]) ? c.sd[i] : 0.0;
            ys.add(c.mean[i] - sd);
            ys.add(c.mean[i] + sd);
        }
    if (chart.chosenEps && *chart.chosenEps > 0.0 && std::isfinite(*chart.chosenEps))
        xs.add(std::log10(*chart.chosenEps));
    for (const std::optional<double>& level : {chart.reference, chart.target})
        if (level)
            ys.add(*level);
    if (xs.empty())
        xs = {-1.0, 1.0};
    if (ys.empty())
        ys = {0.0, 1.0};
    const double x0 = std::floor(xs.lo), x1 = std::max(std::ceil(xs.hi), x0 + 1.0);
    double pad = (ys.hi - ys.lo) * 0.05;
    if (pad <= 0.0)
        pad = std::max(std::abs(ys.hi) * 0.1, 0.1);
    const double yStep = niceStep(ys.lo - pad, ys.hi + pad, 6);
    const double y0 = std::floor((ys.lo - pad) / yStep) * yStep, y1 = std::ceil((ys.hi + pad) / yStep) * yStep;

    const double left = 70, right = width - 20.0, top = 40,
                 legendHeight = 11.0 * static_cast<double>(chart.curves.size() + 3);
    const double bottom = height - 50.0 - legendHeight;
    auto px = [&](double eps) { return left + (std::log10(eps) - x0) / (x1 - x0) * (right - left); };
    auto py = [&](double v) { return bottom - (v - y0) / (y1 - y0) * (bottom - top); };

    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << ' ' << height
      << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\" class=\"utility-chart\">\n";
    s << "<title>" << escapeXml(chart.title) << "</title>\n";
    s << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << height << "\" fill=\"#ffffff\"/>\n";
    s << "<text x=\"" << width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
      << escapeXml(chart.title) << "</text>\n";
    // Grid and ticks: decades on x, a 1-2-5 step on y.
    for (double d = x0; d <= x1 + 1e-9; d += 1.0) {
        const double x = left + (d - x0) / (x1 - x0) * (right - left);
        s << "<line x1=\"" << num(x) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x) << "\" y2=\"" << num(bottom)
          << "\" stroke=\"#dddddd\" stroke-width=\"1\"/>\n";
        s << "<text x=\"" << num(x) << "\" y=\"" << num(bottom + 16) << "\" text-anchor=\"middle\">"
          << tickText(std::pow(10.0, d)) << "</text>\n";
    }
    for (double v = y0; v <= y1 + yStep * 1e-6; v += yStep) {
        s << "<line x1=\"" << num(left) << "\" y1=\"" << num(py(v)) << "\" x2=\"" << num(right) << "\" y2=\""
          << num(py(v)) << "\" stroke=\"#dddddd\" stroke-width=\"1\"/>\n";
        s << "<text x=\"" << num(left - 6) << "\" y=\"" << num(py(v) + 4) << "\" text-anchor=\"end\">" << tickText(v)
          << "</text>\n";
    }
    s << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(right - left) << "\" height=\""
      << num(bottom - top) << "\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1\"/>\n";
    s << "<text x=\"" << num((left + right) / 2) << "\" y=\"" << num(bottom + 36) << "\" text-anchor=\"middle\">"
      << escapeXml(chart.xLabel) << "</text>\n";
    s << "<text x=\"16\" y=\"" << num((top + bottom) / 2) << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      << num((top + bottom) / 2) << ")\">" << escapeXml(chart.yLabel) << "</text>\n";
    // Bands first, then lines, so that no band hides a line.
    for (std::size_t k = 0; k < chart.curves.size(); ++k) {
        const ChartCurve& c = chart.curves[k];
        std::ostringstream upper, lower;
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            const double sd = i < c.sd.size() && std::isfinite(c.sd[i]) ? c.sd[i] : 0.0;
            upper << num(px(c.x[i])) << ',' << num(py(c.mean[i] + sd)) << ' ';
        }
        for (std::size_t i = c.x.size(); i-- > 0;) {
            const double sd = i < c.sd.size() && std::isfinite(c.sd[i]) ? c.sd[i] : 0.0;
            lower << num(px(c.x[i])) << ',' << num(py(c.mean[i] - sd)) << ' ';
        }
        if (!c.x.empty())
            s << "<polygon class=\"band\" points=\"" << upper.str() << lower.str() << "\" fill=\"" << chartColour(k)
              << "\" fill-opacity=\"0.15\" stroke=\"none\"/>\n";
    }
    for (std::size_t k = 0; k < chart.curves.size(); ++k) {
        const ChartCurve& c = chart.curves[k];
        s << "<polyline class=\"curve\" fill=\"none\" stroke=\"" << chartColour(k) << "\" stroke-width=\"2.2\"";
        if (std::string(chartDash(k)) != "none")
            s << " stroke-dasharray=\"" << chartDash(k) << "\"";
        s << " points=\"";
        for (std::size_t i = 0; i < c.x.size(); ++i)
            s << num(px(c.x[i])) << ',' << num(py(c.mean[i])) << ' ';
        s << "\"/>\n";
    }
    if (chart.reference)
        s << "<line class=\"reference\" x1=\"" << num(left) << "\" y1=\"" << num(py(*chart.reference)) << "\" x2=\""
          << num(right) << "\" y2=\"" << num(py(*chart.reference))
          << "\" stroke=\"#777777\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>\n";
    if (chart.target)
        s << "<line class=\"target\" x1=\"" << num(left) << "\" y1=\"" << num(py(*chart.target)) << "\" x2=\""
          << num(right) << "\" y2=\"" << num(py(*chart.target)) << "\" stroke=\"#B00020\" stroke-width=\"1.5\"/>\n";
    if (chart.chosenEps && *chart.chosenEps > 0.0 && std::isfinite(*chart.chosenEps)) {
        const double x = px(*chart.chosenEps);
        s << "<line class=\"chosen-eps\" x1=\"" << num(x) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x)
          << "\" y2=\"" << num(bottom) << "\" stroke=\"#000000\" stroke-width=\"2\"/>\n";
        s << "<text x=\"" << num(x + 4) << "\" y=\"" << num(top + 14)
          << "\" font-weight=\"bold\">chosen ε = " << formatNumber(*chart.chosenEps) << "</text>\n";
    }
    // Legend: two columns under the plot.
    std::vector<std::pair<std::string, std::string>> entries; // text, line attributes
    for (std::size_t k = 0; k < chart.curves.size(); ++k)
        entries.emplace_back(chart.curves[k].name + " (mean ± sd)",
                             std::string("stroke=\"") + chartColour(k) + "\" stroke-width=\"2.2\"" +
                                 (std::string(chartDash(k)) != "none"
                                      ? std::string(" stroke-dasharray=\"") + chartDash(k) + "\""
                                      : std::string()));
    if (chart.reference)
        entries.emplace_back("non-private level " + formatNumber(*chart.reference),
                             "stroke=\"#777777\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"");
    if (chart.target)
        entries.emplace_back("target " + formatNumber(*chart.target), "stroke=\"#B00020\" stroke-width=\"1.5\"");
    const double legendTop = bottom + 50;
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const double x = left + static_cast<double>(e % 2) * (right - left) / 2,
                     y = legendTop + 20.0 * static_cast<double>(e / 2);
        s << "<line x1=\"" << num(x) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x + 36) << "\" y2=\"" << num(y)
          << "\" " << entries[e].second << "/>\n";
        s << "<text class=\"legend\" x=\"" << num(x + 44) << "\" y=\"" << num(y + 4) << "\">"
          << escapeXml(entries[e].first) << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

} // namespace elab::core
