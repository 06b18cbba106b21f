#pragma once
// `epsilonlab-cli utility`: the measured utility curve over an ε grid and the Taylor
// estimates from measuring points (issue 3), as JSON (stable field names) or CSV; with a comma
// list of mechanisms, their sweeps on the same grid and seeds in one report (`mechanisms[]`,
// the ranking at --rank-at, the ε each needs for --target and which needs the least).

#include "app/cli/experiment_data.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/scale_options.h"
#include "app/cli/seed_option.h"
#include "core/learner/mechanism.h"
#include "core/sweeps/mechanism_comparison.h"
#include "core/sweeps/monotonicity.h"
#include "core/sweeps/utility_sweep.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elab::app {

/// One mechanism's sweep: its options, spec, result and self-check (and, comparing, its problem).
struct MechanismRun {
    MechanismOptions mech;
    core::UtilitySweepSpec spec;
    core::UtilitySweepResult result;
    core::MonotonicityCheck monotonicity;
    std::shared_ptr<const core::PreparedProblem> problem; ///< comparing only: for the target and ranking
};

struct UtilityCommand {
    ExperimentDataOptions data = ExperimentDataOptions::withIntercept();
    MechanismOptions mech;
    std::string eps = "0.05:10:20";
    int repeats = 10;
    std::string measureAt;
    std::string estimators =
        "inverse-eps,first-order"; ///< the recommended one (docs/li-reproduction.md) and the paper's
    std::string metric = "train-loss";
    SeedOption seed; ///< --seed / --secret-seed
    int threads = 0;
    int maxIterations = 100;
    std::string out;
    bool csv = false;
    bool noReference = false;
    ScaleOptions scale;           ///< --checkpoint, --shard (utility only)
    std::optional<double> target; ///< --target: report the proposed ε (the GUI's rule)
    /// --rank-at: with several mechanisms, rank them by the utility measured at this ε.
    std::optional<double> rankAt;

    /// utilityOnly: offer --no-reference and --target (choose-eps has its own --target and
    /// always needs the reference).
    void addTo(CLI::App& command, bool utilityOnly = true);
    int run() const;
    /// Several mechanisms (--mechanism a,b,c): one sweep each on the same grid and seeds, one report.
    int runComparison(const std::vector<std::string>& names) const;
    /// The sweep spec and prepared data shared with choose-eps.
    core::MechanismSpec mechanismSpec() const;
    /// Each mechanism named (--mechanism a,b,c) swept on prepared, one after another on the same grid
    /// and seeds, each with its problem (as runComparison does; the decision report reuses it).
    std::vector<MechanismRun> sweepMechanisms(const ExperimentData& prepared) const;
    /// The ε run needs for --target, measured on its curve and verified (core::verifyTargetEps).
    core::TargetEps targetEps(const MechanismRun& run) const;
};

/// The measured mean and sd of run at eps with every repetition (a grid point's when eps is on the
/// grid; else measured there on run.problem with the sweep's seeds).
core::SweepPoint measuredAt(const MechanismRun& run, double eps);

/// `epsilonlab-cli choose-eps --target U ...same options as utility...`
struct ChooseEpsCommand {
    UtilityCommand common;
    double target = 0.0;
    double tolerance = 0.005;
    std::string estimator = "inverse-eps";
    int maxSteps = 12;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
