#pragma once
// The data options every CLI command shares (--data, --label, --format, --missing, ...),
// registered on a CLI11 subcommand and turned into the core's LoadOptions.

#include "core/data/dataset_loader.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct DataOptions {
    std::string spec;
    std::string label;
    std::string format = "auto";
    std::string missing = "drop";
    std::string task;
    std::vector<std::string> categorical;
    std::vector<std::string> ignore;
    long long featureCount = 0;
    std::string schema; ///< --schema FILE|none

    void addTo(CLI::App& command);
    core::LoadOptions toLoadOptions() const;
};

} // namespace elab::app
