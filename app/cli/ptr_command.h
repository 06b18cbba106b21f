#pragma once
// `epsilonlab-cli ptr`: private dropout over the simplex by propose-test-release (Jain et al.
// Alg. 2; docs/MATH.md §3.5) on a dataset's features binarised at a threshold: the statistic Λ,
// and per ε the test's threshold, the pass probability (Laplace formula), the pass fraction and
// most released feature over R runs, and the (2ε, δ) guarantee — JSON or CSV.

#include "app/cli/data_options.h"
#include "app/cli/seed_option.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct PtrCommand {
    DataOptions data;
    std::string eps = "0.01:10:13";
    double delta = 1e-5;
    double binariseAt = 0.0;
    int runs = 1000;
    SeedOption seed; ///< --seed / --secret-seed
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
