#include "app/cli/merge_command.h"

#include "app/cli/scale_options.h"
#include "core/scale/checkpoint_file.h"

#include <iostream>

namespace elab::app {

void MergeCommand::addTo(CLI::App& command) {
    command.add_option("files", files, "Checkpoints written by 'COMMAND … --shard i/N --checkpoint FILE'")
        ->required()
        ->check(CLI::ExistingFile);
    command.add_option("--out", out, "Write the report to this file instead of stdout");
    command.add_option("--threads", threads, "Worker threads for what is computed here (0: all cores)")
        ->check(CLI::NonNegativeNumber);
}

std::vector<std::string> MergeCommand::prepare(const std::string& combined) const {
    std::vector<core::CheckpointContents> parts;
    for (const std::string& file : files) {
        parts.push_back(core::CheckpointFile::read(file));
        if (parts.back().fingerprint == parts.front().fingerprint)
            continue;
        std::string message = file + " was written with other settings than " + files.front() + ":";
        for (const std::string& d :
             parts.back().settings.differences(parts.front().settings, "in " + file, "in " + files.front()))
            message += "\n  " + d;
        throw core::CheckpointMismatch(message);
    }
    core::CheckpointFile joined(combined, parts.front().settings);
    std::size_t cells = 0;
    for (const core::CheckpointContents& part : parts)
        for (const auto& [key, payload] : part.cells) {
            joined.append(key.first, key.second, payload);
            ++cells;
        }
    std::cerr << "merge: " << cells << " cells from " << files.size() << " files\n";
    std::vector<std::string> args = commandLine(parts.front().settings);
    args.insert(args.end(), {"--checkpoint", combined, "--threads", std::to_string(threads)});
    if (!out.empty())
        args.insert(args.end(), {"--out", out});
    return args;
}

} // namespace elab::app
