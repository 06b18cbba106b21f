#include "core/report/report_html.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/sweeps/mechanism_comparison.h"
#include "core/util/format_number.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace elab::core {

namespace {

std::string e(const std::string& s) { return escapeXml(s); }

std::string exact(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string epsText(double v) { return std::isfinite(v) ? formatNumber(v) : "∞ (none)"; }

std::string deltaText(const PrivacyGuarantee& g) {
    return std::isnan(g.delta) ? "not established" : formatNumber(g.delta);
}

std::string list(const std::vector<std::string>& items, const char* cls) {
    if (items.empty())
        return "<p>none</p>\n";
    std::string s = std::string("<ul class=\"") + cls + "\">\n";
    for (const std::string& item : items)
        s += "<li>" + e(item) + "</li>\n";
    return s + "</ul>\n";
}

std::string row(const std::vector<std::string>& cells, const std::string& attributes = "", bool header = false) {
    std::string s = "<tr" + attributes + ">";
    for (const std::string& c : cells)
        s += (header ? "<th>" : "<td>") + e(c) + (header ? "</th>" : "</td>");
    return s + "</tr>\n";
}

std::string summary(const DecisionReport& r) {
    const PrivacyGuarantee& g = r.guarantees.front();
    const MechanismSpec& spec = r.in.curves.front().spec;
    std::ostringstream s;
    s << "<h1>" << e(decisionReportTitle(r)) << "</h1>\n";
    s << "<p class=\"chosen\" data-chosen-eps=\"" << exact(r.in.chosenEps) << "\" data-mechanism=\""
      << e(toString(spec.kind)) << "\">Chosen: <b>" << e(mechanismInfo(spec.kind).title) << "</b> ("
      << e(toString(spec.kind)) << ") at <b>ε = " << formatNumber(r.in.chosenEps) << "</b>.</p>\n";
    s << "<p>Guarantee for the released model: " << e(g.isPrivate ? g.notion : "none") << ", ε = " << epsText(g.epsilon)
      << ", δ = " << e(deltaText(g)) << " (" << e(toString(g.adjacency)) << ").</p>\n";
    s << "<p class=\"meta\">Produced by " << e(r.in.producedBy) << ", version " << e(r.in.version) << ".</p>\n";
    return s.str();
}

std::string dataset(const DecisionReport& r) {
    std::string s = "<h2>Dataset</h2>\n<table class=\"fields\">\n";
    for (const ReportField& f : r.dataset)
        s += "<tr><th>" + e(f.name) + "</th><td class=\"value\">" + e(f.value) + "</td></tr>\n";
    s += "</table>\n";
    if (!r.columns.empty()) {
        s += "<h3>Columns (the public schema and bounds)</h3>\n<table class=\"columns\">\n";
        s += row({"Column", "Kind", "Levels (categorical)", "Public bound"}, "", true);
        for (const auto& c : r.columns)
            s += row(c);
        s += "</table>\n";
    }
    return s;
}

std::string ledger(const DecisionReport& r) {
    const ReportCurve& chosen = r.in.curves.front();
    const PrivacyGuarantee mech =
        mechanismInfo(chosen.spec.kind).guarantee(chosen.spec, r.in.train->rows(), r.classes, r.in.chosenEps);
    const PrivacyGuarantee& g = r.guarantees.front();
    std::string s = "<h2>Pipeline and privacy ledger</h2>\n<p>Every step from the file to the released model, in "
                    "order, as the guarantee is built from it.</p>\n<table class=\"ledger\">\n";
    s += row({"#", "Step", "What it did", "ε spent", "Leaks", "Effect on the guarantee"}, "", true);
    for (std::size_t k = 0; k < r.ledger.size(); ++k) {
        const LedgerEntry& l = r.ledger[k];
        s += row({std::to_string(k + 1), l.step, l.detail, l.epsilon > 0.0 ? formatNumber(l.epsilon) : "0",
                  l.leaks ? "yes" : "no", l.effect()},
                 std::string(" class=\"ledger-step") + (l.leaks ? " leaks" : "") + "\" data-leaks=\"" +
                     (l.leaks ? "true" : "false") + "\"");
    }
    s += row({std::to_string(r.ledger.size() + 1), "train " + std::string(toString(chosen.spec.kind)),
              std::string(mechanismInfo(chosen.spec.kind).title) + " at the chosen ε", epsText(mech.epsilon), "no",
              "spends ε = " + epsText(mech.epsilon) + ", δ = " + deltaText(mech) + " (" + mech.source + ")"},
             " class=\"ledger-mechanism\"");
    s +=
        row({"", "released model", "the guarantee of the whole pipeline", epsText(g.epsilon), g.voided() ? "yes" : "no",
             g.isPrivate ? g.notion + ", δ = " + deltaText(g) + ", " + toString(g.adjacency) : "no guarantee"},
            " class=\"ledger-total\"");
    return s + "</table>\n";
}

std::string mechanisms(const DecisionReport& r) {
    std::string s = "<h2>Mechanisms compared</h2>\n<table class=\"mechanisms\">\n";
    s += row({"Mechanism", "Title", "Loss", "Λ", "δ", "Source"}, "", true);
    for (const ReportCurve& c : r.in.curves) {
        const MechanismInfo& info = mechanismInfo(c.spec.kind);
        s += row({toString(c.spec.kind), info.title, toString(c.spec.model.loss.kind()),
                  formatNumber(c.spec.model.lambda), c.spec.usesDelta() ? formatNumber(c.spec.privacy.delta) : "0",
                  std::string(info.summary) + (c.error.empty() ? "" : " — not swept: " + c.error)},
                 " class=\"mechanism\"");
    }
    return s + "</table>\n";
}

std::string ranking(const DecisionReport& r) {
    const DecisionInputs& in = r.in;
    std::vector<double> means;
    std::vector<std::string> text;
    for (const ReportCurve& c : in.curves) {
        if (c.atChosen) {
            means.push_back(c.atChosen->mean);
            text.push_back(formatNumber(c.atChosen->mean) + " ± " + formatNumber(c.atChosen->sd) + " (" +
                           std::to_string(in.repeats) + " repetitions at ε)");
            continue;
        }
        const SweepPoint* nearest = nullptr;
        for (const SweepPoint& p : c.points)
            if (!nearest || std::abs(std::log(p.eps / in.chosenEps)) < std::abs(std::log(nearest->eps / in.chosenEps)))
                nearest = &p;
        means.push_back(nearest ? nearest->mean : NAN);
        text.push_back(nearest ? formatNumber(nearest->mean) + " ± " + formatNumber(nearest->sd) +
                                     " (not measured at ε: the nearest grid ε = " + formatNumber(nearest->eps) + ")"
                               : "not measured");
    }
    std::string s = "<h3>At the chosen ε = " + formatNumber(in.chosenEps) + "</h3>\n<table class=\"ranking\">\n";
    s += row({"Rank", "Mechanism", std::string(toString(in.metric)) + " (mean ± sd)", "ε needed for the target"}, "",
             true);
    int rank = 0;
    for (std::size_t i : rankByUtility(means, in.metric)) {
        const ReportCurve& c = in.curves[i];
        s += row({std::to_string(++rank), toString(c.spec.kind), text[i],
                  !in.target            ? "no target"
                  : c.verifiedTargetEps ? formatNumber(*c.verifiedTargetEps) + " (verified)"
                                        : "not met in the grid's range"});
    }
    return s + "</table>\n";
}

std::string guarantee(const DecisionReport& r) {
    const PrivacyGuarantee& g = r.guarantees.front();
    std::string s = "<h2>Guarantee at the chosen ε</h2>\n<table class=\"guarantees\">\n";
    s += row({"Mechanism", "Notion", "ε", "δ", "Neighbours", "Private"}, "", true);
    for (std::size_t k = 0; k < r.guarantees.size(); ++k) {
        const PrivacyGuarantee& h = r.guarantees[k];
        s += row({toString(r.in.curves[k].spec.kind), h.notion, epsText(h.epsilon), deltaText(h), toString(h.adjacency),
                  h.isPrivate ? "yes" : "no"},
                 k == 0 ? " class=\"chosen-guarantee\"" : "");
    }
    s += "</table>\n<h3>In plain words</h3>\n" + list(r.plainWords, "plain-words");
    s += "<h3>Source</h3>\n<p>" + e(g.source) + "</p>\n<h3>Assumptions</h3>\n" + list(g.assumptions, "assumptions");
    if (!g.assumptionsNotMet.empty())
        s += "<h3>Assumptions not met</h3>\n" + list(g.assumptionsNotMet, "not-met");
    std::vector<std::string> constants;
    for (const MechanismParameter& p : g.parameters)
        constants.push_back(p.symbol + " = " + formatNumber(p.value));
    std::vector<std::string> conditions = g.conditions;
    conditions.insert(conditions.end(), g.notes.begin(), g.notes.end());
    s += "<h3>Conditions and notes</h3>\n" + list(conditions, "conditions");
    s += "<h3>Constants</h3>\n" + list(constants, "constants");
    return s;
}

std::string audit(const DecisionReport& r) {
    std::string s = "<h2>Privacy audit</h2>\n";
    if (r.in.audit.empty())
        return s + "<p class=\"audit-none\">No audit: " + e(r.in.auditNote) + "</p>\n";
    s += "<table class=\"audit\">\n";
    s += row({"Mechanism", "Method", "Claimed ε", "ε lower bound", "Largest certifiable", "Verdict"}, "", true);
    for (const AuditLine& a : r.in.audit)
        s += row({a.mechanism, a.method, formatNumber(a.eps), formatNumber(a.epsLB), formatNumber(a.maxCertifiable),
                  (a.violated ? "VIOLATED: " : "") + a.verdict},
                 std::string(" class=\"audit-line\" data-violated=\"") + (a.violated ? "true" : "false") + "\"");
    s += "</table>\n";
    return r.in.auditNote.empty() ? s : s + "<p>" + e(r.in.auditNote) + "</p>\n";
}

std::string reproduce(const DecisionReport& r) {
    const DecisionInputs& in = r.in;
    std::string s = "<h2>How to reproduce</h2>\n<table class=\"fields\">\n";
    s += row({"Version", in.version});
    s += row({"Produced by", in.producedBy});
    s += row({"Seed mode", toString(in.seedMode)});
    s += row({"Seed", in.seed ? std::to_string(*in.seed) : "secret (not written)"});
    s += "</table>\n";
    if (!in.commandLine.empty())
        s += "<h3>Command line</h3>\n<pre class=\"command\">" + e(in.commandLine) + "</pre>\n";
    if (!in.settingsJson.empty())
        s += "<h3>" + e(in.settingsTitle) + "</h3>\n<pre class=\"settings\">" + e(in.settingsJson) + "</pre>\n";
    return s;
}

const char* kStyle = "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;"
                     "color:#111;line-height:1.4}h1{font-size:1.6em}h2{border-bottom:1px solid #999;margin-top:1.6em}"
                     "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #bbb;padding:.25em .5em;"
                     "text-align:left;vertical-align:top;font-size:.92em}tr.leaks td{background:#fde2e2}"
                     "tr.ledger-total td{font-weight:bold}td.value{font-family:monospace;word-break:break-all}"
                     "pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap;word-break:break-all;font-size:.8em}"
                     ".meta{color:#555}svg{max-width:100%;height:auto}"
                     "@media print{body{margin:0}section{break-inside:auto}h2{break-after:avoid}}";

} // namespace

std::string decisionReportTitle(const DecisionReport& report) { return "ε decision report — " + report.in.train->name; }

std::vector<ReportBlock> decisionReportBlocks(const DecisionReport& r) {
    std::vector<ReportBlock> blocks;
    blocks.push_back({"summary", false, summary(r)});
    blocks.push_back({"dataset", false, dataset(r)});
    blocks.push_back({"ledger", false, ledger(r)});
    blocks.push_back({"mechanisms", false, mechanisms(r)});
    blocks.push_back({"utility", false, "<h2>Utility against ε</h2>\n"});
    blocks.push_back({"utility", true, chartSvg(r.chart)});
    blocks.push_back({"utility", false, ranking(r)});
    blocks.push_back({"guarantee", false, guarantee(r)});
    blocks.push_back(
        {"choice", false, "<h2>What choosing ε on this data spent or assumed</h2>\n" + list(r.choice, "choice")});
    blocks.push_back({"audit", false, audit(r)});
    blocks.push_back({"reproduce", false, reproduce(r)});
    return blocks;
}

std::string decisionReportHtml(const DecisionReport& r) {
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    e(decisionReportTitle(r)) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    std::string open;
    for (const ReportBlock& b : decisionReportBlocks(r)) {
        if (b.section != open) {
            if (!open.empty())
                s += "</section>\n";
            s += "<section id=\"" + b.section + "\">\n";
            open = b.section;
        }
        s += b.svg ? "<figure>\n" + b.text + "</figure>\n" : b.text;
    }
    return s + "</section>\n</body>\n</html>\n";
}

} // namespace elab::core
