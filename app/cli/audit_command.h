#pragma once
// `epsilonlab-cli audit`: the empirical privacy audit (issue 14; docs/MATH.md §5) of one
// mechanism at ε, or of every private mechanism at ε (--all): T runs on D and on its neighbour
// with a canary, the lower bound ε_LB at confidence 1 − α against the claimed ε, and the verdict,
// as JSON (with every run's score) or a CSV table.

#include "app/cli/experiment_data.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/scale_options.h"


#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct AuditCommand {
    ExperimentDataOptions data = ExperimentDataOptions::withIntercept();
    MechanismOptions mech;
    double eps = 1.0;
    int runs = 200;
    double alpha = 0.05;
    unsigned long long seed = 1;
    int threads = 0;
    ScaleOptions scale;
    long long canaryRow = -1;
    bool all = false;
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
