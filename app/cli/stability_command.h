#pragma once
// `epsilonlab-cli stability`: test error and marginal error against the fraction ρ of
// training data removed (random or adversarial), for unregularised, L2 (λ by CV), dropout
// and deterministic-dropout learners (issue 5; Jain et al. §5), as JSON or CSV.

#include "app/cli/experiment_data.h"
#include "app/cli/scale_options.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct StabilityCommand {
    ExperimentDataOptions data;
    std::string model = "logistic";
    std::string methods = "none,l2,dropout,deterministic-dropout";
    double dropoutRate = 0.5;
    std::string removal = "random";
    std::string rho = "0:0.9:10";
    int repeats = 20;
    std::string l2Grid = "1e-6,1e-5,1e-4,1e-3,1e-2,1e-1,1";
    int cvFolds = 5;
    bool cvPerFit = false;
    int epochs = 30;
    int batchSize = 1;
    double stepSize = 0.0;
    int hermiteNodes = 24;
    int stabilitySamples = 10;
    bool noIntercept = false;
    unsigned long long seed = 1;
    int threads = 0;
    ScaleOptions scale;
    std::string out;
    bool csv = false;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
