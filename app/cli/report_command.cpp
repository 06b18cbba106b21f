#include "app/cli/report_command.h"

#include "app/cli/write_output.h"

#include "core/report/decision_report.h"
#include "core/report/report_html.h"

#ifdef EPSILONLAB_HAVE_REPORT_PDF
#include "ui/export/pdf/report_pdf.h"
#endif

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace elab::app {

namespace {

// The options as given (or their defaults), keyed by their long names: the report's reproduction block.
nlohmann::ordered_json optionsJson(const CLI::App& command) {
    nlohmann::ordered_json j;
    j["command"] = command.get_name();
    for (const CLI::Option* option : command.get_options()) {
        const std::string name = option->get_name(false, true);
        if (name.empty() || name == "--help")
            continue;
        if (option->count() == 0) {
            j[name] = option->get_default_str().empty() ? nlohmann::ordered_json()
                                                        : nlohmann::ordered_json(option->get_default_str());
            continue;
        }
        std::string value;
        for (const std::string& part : option->results())
            value += (value.empty() ? "" : ",") + part;
        j[name] = option->get_type_size() == 0 ? nlohmann::ordered_json(true) : nlohmann::ordered_json(value);
    }
    return j;
}

std::string readFile(const std::string& path, const std::string& option) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument(option + ": cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

std::string shellCommandLine(int argc, char** argv) {
    std::string line;
    for (int k = 0; k < argc; ++k) {
        const std::string word = argv[k];
        const bool plain =
            !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                    "0123456789-_./:=,+@%") == std::string::npos;
        std::string quoted = "'";
        for (char c : word)
            quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += (k ? " " : "") + (plain ? word : quoted + "'");
    }
    return line;
}

void ReportCommand::addTo(CLI::App& command) {
    m_command = &command;
    utility.addTo(command, true);
    // The utility command's grid is --grid here; --eps is the chosen ε. Its outputs and the options of
    // a distributed single sweep do not apply.
    for (const char* name : {"--eps", "--out", "--csv", "--checkpoint", "--shard", "--no-reference", "--rank-at"})
        if (CLI::Option* option = command.get_option_no_throw(name))
            command.remove_option(option);
    command.add_option("--grid", utility.eps, "ε grid of the sweep: A:B:K (K log-spaced from A to B) or a list a,b,c");
    command
        .add_option("--eps", chosenEps,
                    "The chosen ε: the guarantee, the chart's marker and the measured utility at it")
        ->required()
        ->check(CLI::PositiveNumber);
    command.add_option("-o,--out", html, "The report as one self-contained HTML file (charts inline as SVG)")
        ->required();
    command.add_option(
        "--pdf", pdf, "The same report as PDF (needs a build with Qt Gui: the no-GUI build refuses it with a message)");
    command.add_option("--audit", auditFile,
                       "The JSON of 'epsilonlab-cli audit' on this data: its verdicts in the report (without it the "
                       "report says that no audit was run)");
}

int ReportCommand::run() const {
#ifndef EPSILONLAB_HAVE_REPORT_PDF
    if (!pdf.empty())
        throw std::invalid_argument(
            "--pdf: this epsilonlab-cli was built without Qt Gui (EPSILONLAB_CLI_PDF off, as in "
            "the no-GUI build): write the HTML with -o and print it from a browser, or use a "
            "build with the GUI");
#endif
    const std::vector<core::AuditLine> audit =
        auditFile.empty() ? std::vector<core::AuditLine>{}
                          : core::auditLinesFromJson(readFile(auditFile, "--audit"), auditFile);
    const ExperimentData prepared = utility.data.prepare(utility.seed.value());
    const std::vector<MechanismRun> runs = utility.sweepMechanisms(prepared);

    core::DecisionInputs in;
    in.train = &prepared.train;
    in.test = prepared.test ? &*prepared.test : nullptr;
    in.testFraction = utility.data.testSpec.empty() ? utility.data.split : 0.0;
    in.bounds = utility.data.preparation().preprocess.bounds;
    in.metric = core::utilityMetricFromString(utility.metric);
    in.repeats = utility.repeats;
    for (const MechanismRun& run : runs) {
        core::ReportCurve curve;
        curve.spec = run.spec.mechanism;
        curve.points = run.result.points;
        if (std::isfinite(run.result.nonPrivate))
            curve.nonPrivate = run.result.nonPrivate;
        curve.atChosen = measuredAt(run, chosenEps);
        if (utility.target)
            curve.verifiedTargetEps = utility.targetEps(run).verified;
        in.curves.push_back(std::move(curve));
    }
    in.chosenEps = chosenEps;
    in.target = utility.target;
    in.seedMode = utility.seed.mode();
    if (!utility.seed.secret)
        in.seed = utility.seed.value();
    in.audit = audit;
    if (auditFile.empty())
        in.auditNote =
            "none was given (pass --audit FILE.json with the output of 'epsilonlab-cli audit' on this data and "
            "mechanism at the chosen ε)";
    in.version = EPSILONLAB_VERSION;
    in.producedBy = "epsilonlab-cli report";
    in.commandLine = commandLine;
    in.settingsTitle = "Options (JSON)";
    in.settingsJson = optionsJson(*m_command).dump(2);
    const core::DecisionReport report = core::makeDecisionReport(std::move(in));
    writeOutput(html, core::decisionReportHtml(report));
#ifdef EPSILONLAB_HAVE_REPORT_PDF
    if (!pdf.empty())
        if (const std::string error =
                ui::writeReportPdf(core::decisionReportBlocks(report), core::decisionReportTitle(report), pdf);
            !error.empty())
            throw std::runtime_error("--pdf " + pdf + ": " + error);
#endif
    return 0;
}

} // namespace elab::app
