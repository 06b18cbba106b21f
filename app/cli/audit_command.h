#pragma once
// `epsilonlab-cli audit`: the empirical privacy audit (issue 14; docs/MATH.md §5) of one
// mechanism at ε, or of every private mechanism at ε (--all): T runs on D and on its neighbour
// with a canary, the lower bound ε_LB at confidence 1 − α against the claimed ε, and the verdict,
// as JSON (with every run's score) or a CSV table. With --neighbour input-label|input-level|
// input-add, the audit of the whole pipeline instead (core/audit/pipeline_audit.h): D and D′
// differ in one row of the file, and every run loads, splits, preprocesses and fits. With
// --method one-run, the audit from one training run with m canaries (core/audit/one_run_audit.h).
// With --method whitebox (DP-SGD only), the white-box audit with gradient canaries in the trainer's
// steps (core/audit/whitebox_dpsgd_audit.h).

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
    std::string neighbour = "canary";   ///< or input-label, input-level, input-add (core/audit/input_neighbour.h)
    long long row = -1;                 ///< the file's data row the input neighbours change (-1: chosen)
    std::string method = "two-dataset"; ///< or one-run, whitebox
    int canaries = 1000;                ///< m of the one-run audit (capped at the feature columns)
    std::string view = "iterates";      ///< of the white-box audit: iterates or residual
    CLI::Option* runsOption = nullptr;
    CLI::Option* canariesOption = nullptr;
    CLI::Option* splitOption = nullptr;
    bool all = false;
    bool gaussianFit = false; ///< the two-dataset audit's parametric bound beside its own
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;

private:
    int runPipeline() const;
    int runOneRun() const;
    int runWhitebox() const;
};

} // namespace elab::app
