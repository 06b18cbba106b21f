#pragma once
// `epsilonlab-cli merge FILE... [--out OUT]`: joins the checkpoints of --shard runs (a job
// array without MPI) into the report one run would have written (docs/scale-out.md). The
// files must share their settings (the differences are named otherwise); their cells go into
// one temporary checkpoint and the command stored in the settings is run on it, so only what
// no shard splits (the reference fit, measuring fits, baselines, and any missing cell) is
// computed here.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace elab::app {

struct MergeCommand {
    std::vector<std::string> files;
    std::string out;
    int threads = 0;

    void addTo(CLI::App& command);
    /// Checks the files and writes their cells into the checkpoint at combined; returns the
    /// arguments (without the program name) of the run that writes the report. Throws
    /// core::CheckpointMismatch naming a file whose settings differ from the first's.
    std::vector<std::string> prepare(const std::string& combined) const;
};

} // namespace elab::app
