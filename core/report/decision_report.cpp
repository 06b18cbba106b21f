#include "core/report/decision_report.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/plain_language.h"
#include "core/util/format_number.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

std::string metricTitle(UtilityMetric m) {
    switch (m) {
    case UtilityMetric::TrainLoss: return "training loss (lower is better)";
    case UtilityMetric::TestLoss: return "test loss (lower is better)";
    case UtilityMetric::TrainAccuracy: return "training accuracy (higher is better)";
    case UtilityMetric::TestAccuracy: return "test accuracy (higher is better)";
    }
    return toString(m);
}

std::string fileText(const Provenance& p) {
    if (p.sha256.empty())
        return p.path + " (" + p.format + ", generated: no file)";
    return p.path + " (" + p.format + (p.gzipped ? ", gzip" : "") + ", " + std::to_string(p.bytes) + " bytes)";
}

// The detail of the first log step called name, or "".
std::string stepDetail(const Dataset& d, const std::string& name) {
    for (const ProcessingStep& s : d.log)
        if (s.name == name)
            return s.detail + (s.leaksPrivacy ? " [leaks]" : "");
    return "";
}

std::vector<ReportField> datasetFields(const DecisionInputs& in) {
    const Dataset& d = *in.train;
    std::vector<ReportField> f;
    f.push_back({"Name", d.name});
    f.push_back({"Training file", fileText(d.provenance)});
    f.push_back({"Training file SHA-256", d.provenance.sha256.empty() ? "none (generated)" : d.provenance.sha256});
    if (in.test && in.testFraction <= 0.0) {
        f.push_back({"Test file", fileText(in.test->provenance)});
        f.push_back({"Test file SHA-256", in.test->provenance.sha256});
    }
    f.push_back({"Training rows", std::to_string(d.rows())});
    if (in.test)
        f.push_back({"Test rows", std::to_string(in.test->rows()) + (in.testFraction > 0.0
                                                                         ? " (split from the training file, fraction " +
                                                                               formatNumber(in.testFraction) + ")"
                                                                         : " (the test file)")});
    f.push_back({"Columns", std::to_string(d.columns.size()) + " source column" + (d.columns.size() == 1 ? "" : "s") +
                                ", " + std::to_string(d.featureCount()) + " feature columns after encoding"});
    f.push_back({"Task", std::string(toString(d.targets.kind)) +
                             (d.targets.isClassification() ? ", " + std::to_string(d.targets.classCount()) + " classes"
                                                           : std::string())});
    const std::string schema = stepDetail(d, "schema");
    f.push_back({"Public schema (where from)", schema.empty() ? "no schema step logged" : schema});
    std::string bounds = stepDetail(d, "public bounds");
    if (bounds.empty())
        bounds = stepDetail(d, "private bounds");
    f.push_back(
        {"Bounds (where from)",
         bounds.empty() ? "none declared: every row is clipped to the norm bound the mechanisms assume" : bounds});
    return f;
}

std::vector<std::vector<std::string>> columnTable(const DecisionInputs& in) {
    std::vector<std::vector<std::string>> rows;
    for (const ColumnInfo& c : in.train->columns) {
        std::string levels;
        for (std::size_t k = 0; k < c.levels.size() && k < 12; ++k)
            levels += (k ? ", " : "") + c.levels[k];
        if (c.levels.size() > 12)
            levels += ", … (" + std::to_string(c.levels.size()) + " levels)";
        const ColumnBound* b = in.bounds.find(c.name);
        rows.push_back({c.name, toString(c.kind), levels,
                        b ? "[" + formatNumber(b->lo) + ", " + formatNumber(b->hi) + "]" : std::string()});
    }
    return rows;
}

ReportChart chartOf(const DecisionInputs& in) {
    ReportChart chart;
    chart.title = "Measured " + std::string(toString(in.metric)) + " against ε on " + in.train->name;
    chart.yLabel = metricTitle(in.metric);
    for (const ReportCurve& c : in.curves) {
        ChartCurve curve;
        curve.name = toString(c.spec.kind);
        for (const SweepPoint& p : c.points) {
            curve.x.push_back(p.eps);
            curve.mean.push_back(p.mean);
            curve.sd.push_back(p.sd);
        }
        chart.curves.push_back(std::move(curve));
    }
    chart.reference = in.curves.front().nonPrivate;
    chart.target = in.target;
    chart.chosenEps = in.chosenEps;
    return chart;
}

std::vector<std::string> choiceNotes(const DecisionInputs& in, const DecisionReport& r) {
    std::vector<std::string> out;
    std::size_t fits = 0;
    for (const ReportCurve& c : in.curves)
        fits += c.points.size() * static_cast<std::size_t>(std::max(in.repeats, 1));
    out.push_back("The curves come from " + std::to_string(fits) + " private fits (" + std::to_string(in.repeats) +
                  " per ε and mechanism) and a non-private reference, all trained on the private rows and measured "
                  "without noise. No privacy ledger charges them: the choice of ε depends on every row, and the "
                  "guarantee below is that of a model trained at a fixed ε = " +
                  formatNumber(in.chosenEps) + ", not of the choice.");
    out.push_back(std::string("The utility was measured on ") +
                  (usesTestSet(in.metric)
                       ? (in.testFraction > 0.0 ? "held-out rows split from the same private file"
                                                : "the rows of the test file, which are private data too")
                       : "the training rows themselves") +
                  ".");
    if (in.target) {
        const ReportCurve& c = in.curves.front();
        std::string t = "Target: " + std::string(toString(in.metric)) + " " + (isLossMetric(in.metric) ? "≤ " : "≥ ") +
                        formatNumber(*in.target) + ". ";
        t += c.verifiedTargetEps ? "The chosen mechanism meets it from ε = " + formatNumber(*c.verifiedTargetEps) +
                                       " (verified by measuring there)"
                                 : "The chosen mechanism's measured curve does not meet it in the grid's range";
        if (c.atChosen) {
            const bool meets =
                isLossMetric(in.metric) ? c.atChosen->mean <= *in.target : c.atChosen->mean >= *in.target;
            t += "; at the chosen ε its measured mean is " + formatNumber(c.atChosen->mean) +
                 (meets ? " (meets it)" : " (misses it)");
        }
        out.push_back(t + ".");
    }
    if (in.train->preparationEpsilon > 0.0)
        out.push_back("The preparation spent ε = " + formatNumber(in.train->preparationEpsilon) +
                      " on privately estimated bounds; the guarantee adds it.");
    bool leaks = false;
    for (const LedgerEntry& e : r.ledger)
        leaks = leaks || e.leaks;
    if (leaks)
        out.push_back("A pipeline step read the private rows outside a mechanism (marked in the ledger): no ε holds "
                      "for the released model until that step is replaced by public knowledge.");
    out.push_back(
        in.seedMode == SeedMode::Reproducible
            ? "Reproducible run: its seed is written in this report, so these runs' noise can be regenerated; "
              "the released model must be trained again with secret randomness."
            : "Private release: the seed came from the operating system's entropy and is written nowhere.");
    return out;
}

double number(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key) || !j[key].is_number())
        throw std::invalid_argument(where + ": \"" + key + "\": expected a number");
    return j[key].get<double>();
}

} // namespace

PrivacyGuarantee reportGuarantee(const MechanismSpec& spec, const Dataset& train, double eps, SeedMode mode) {
    const int classes = train.targets.kind == TaskKind::Multiclass ? train.targets.classCount() : 0;
    const PrivacyGuarantee g =
        withPipeline(mechanismInfo(spec.kind).guarantee(spec, train.rows(), classes, eps), pipelineFacts(train));
    return withSeedMode(withDataChosenEps(g), mode);
}

DecisionReport makeDecisionReport(DecisionInputs in) {
    if (!in.train)
        throw std::invalid_argument("decision report: no dataset (load one and sweep the utility first)");
    if (in.curves.empty())
        throw std::invalid_argument("decision report: no measured utility curve (sweep the utility first)");
    if (!(in.chosenEps > 0.0) || !std::isfinite(in.chosenEps))
        throw std::invalid_argument("decision report: the chosen ε must be a positive number, not " +
                                    formatNumber(in.chosenEps));
    DecisionReport r;
    r.classes = in.train->targets.kind == TaskKind::Multiclass ? in.train->targets.classCount() : 0;
    r.dataset = datasetFields(in);
    r.columns = columnTable(in);
    r.ledger = pipelineLedger(in.train->log);
    for (const ReportCurve& c : in.curves)
        r.guarantees.push_back(reportGuarantee(c.spec, *in.train, in.chosenEps, in.seedMode));
    r.plainWords = plainLanguage(r.guarantees.front(), in.train->rows());
    r.chart = chartOf(in);
    r.choice = choiceNotes(in, r);
    r.in = std::move(in);
    return r;
}

std::vector<AuditLine> auditLinesFromJson(const std::string& jsonText, const std::string& where) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(jsonText);
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(where + ": not JSON (" + e.what() + ")");
    }
    std::vector<nlohmann::json> items;
    if (j.is_object() && j.contains("audits") && j["audits"].is_array())
        items.assign(j["audits"].begin(), j["audits"].end());
    else if (j.is_object() && j.contains("audit") && j["audit"].is_object())
        items.push_back(j["audit"]);
    else
        throw std::invalid_argument(where + ": expected the output of 'epsilonlab-cli audit' (an \"audit\" object or "
                                            "an \"audits\" array)");
    std::vector<AuditLine> lines;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const nlohmann::json& a = items[k];
        const std::string at = where + ": audit " + std::to_string(k + 1);
        AuditLine line;
        line.mechanism = a.value("mechanism", std::string("?"));
        line.method = a.value("method", std::string("two-dataset"));
        line.eps = number(a, "eps", at);
        line.delta = a.contains("delta") && a["delta"].is_number() ? a["delta"].get<double>() : 0.0;
        line.epsLB = number(a, "eps_lb", at);
        line.maxCertifiable = number(a, "max_certifiable", at);
        if (!a.contains("violated") || !a["violated"].is_boolean())
            throw std::invalid_argument(at + ": \"violated\": expected true or false");
        line.violated = a["violated"].get<bool>();
        line.verdict = a.value("verdict", std::string());
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace elab::core
