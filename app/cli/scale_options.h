#pragma once
// --checkpoint FILE and --shard i/N of the sweeps (issue 15; docs/scale-out.md), and the
// settings that identify a run: the command, every option's effective value except those
// that do not change the results (--threads, --out, --checkpoint, --shard), the version and
// the SHA-256 of the data files. The same settings re-run the command (merge).

#include "core/scale/run_settings.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace elab::app {

class CellDistributor;

/// Thrown when a --shard run has computed its cells: not an error (exit 0), nothing to report.
class ShardComplete : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ScaleOptions {
    std::string checkpoint;
    std::string shard; ///< "i/N"

    void addTo(CLI::App& command);
    /// The cell executor of this run: the checkpoint, the shard and the MPI ranks; nullptr when
    /// none applies (the sweep then runs every cell here, as before). Throws
    /// core::CheckpointMismatch (exit status 2) for a checkpoint of other settings,
    /// std::invalid_argument for a bad --shard.
    std::unique_ptr<CellDistributor> executor() const;

private:
    const CLI::App* m_command = nullptr;
};

/// The settings of a parsed subcommand (see the file comment). Reads the data files.
core::RunSettings runSettings(const CLI::App& command);
/// The arguments that run these settings again: the command, then every option with a value
/// (flags as --name=true|false).
std::vector<std::string> commandLine(const core::RunSettings& settings);

} // namespace elab::app
