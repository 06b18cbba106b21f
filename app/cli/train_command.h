#pragma once
// `epsilonlab-cli train --mechanism dpsgd`: one DP-SGD run at ε (σ calibrated by the chosen
// accountant), its train/test loss and accuracy per epoch with the ε spent so far, the
// non-private run's curve for reference (--reference), and the final guarantee (issue 12), as
// JSON or CSV.

#include "app/cli/experiment_data.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/seed_option.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct TrainCommand {
    ExperimentDataOptions data = ExperimentDataOptions::withIntercept();
    MechanismOptions mech;
    std::string eps = "1";
    SeedOption seed; ///< --seed / --secret-seed
    int repetition = 0;
    bool reference = false;
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
