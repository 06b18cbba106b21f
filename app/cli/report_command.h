#pragma once
// `epsilonlab-cli report`: the ε decision report (core/report/decision_report.h) as one
// self-contained HTML file and, in builds with Qt Gui (EPSILONLAB_CLI_PDF), the same as PDF. It
// takes the utility command's options and sweeps (--mechanism a,b,c compares several), with the
// grid as --grid, the chosen ε as --eps, an optional --target and an optional audit (the JSON of
// `epsilonlab-cli audit`); the report ends with this command line and its options as JSON.

#include "app/cli/utility_command.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct ReportCommand {
    UtilityCommand utility;
    double chosenEps = 0.0;
    std::string html;
    std::string pdf;
    std::string auditFile;
    std::string commandLine; ///< set by main before parsing: the exact command line, quoted for a shell

    void addTo(CLI::App& command);
    int run() const;

private:
    const CLI::App* m_command = nullptr;
};

/// argv as one line a POSIX shell reads back to the same words.
std::string shellCommandLine(int argc, char** argv);

} // namespace elab::app
