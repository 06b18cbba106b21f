#pragma once
// `epsilonlab-cli regions`: the decision regions of a private classifier in a 2-D plane at one ε
// (issue 11; core/regions/decision_regions.h, docs/MATH.md §6), as JSON or CSV.

#include "app/cli/experiment_data.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/seed_option.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct RegionsCommand {
    ExperimentDataOptions data = ExperimentDataOptions::withIntercept();
    MechanismOptions mech;
    std::string features = "0,1";
    bool pca = false;
    std::string expand = "none";
    std::string eps = "1";
    int draws = 10;
    int grid = 256;
    double margin = 0.1;
    SeedOption seed; ///< --seed / --secret-seed
    int threads = 0;
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
