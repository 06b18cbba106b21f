#pragma once
// `epsilonlab-cli accountant`: ε for a noise multiplier σ, or σ for a target ε, at sampling rate
// q, T steps and δ, by one accountant or all three side by side (issue 12;
// core/privacy/accountant.h), as JSON or CSV; add/remove, or replace-one at a fixed N (DP-SGD's
// guarantee without --public-rows).

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct AccountantCommand {
    double sigma = 0.0;
    double targetEps = 0.0;
    double q = 0.01;
    long long steps = 1000;
    double delta = 1e-5;
    std::string accountant = "all";
    std::string adjacency = "add-remove"; ///< or "replace-one" (a fixed, private N)
    bool csv = false;
    std::string out;
    CLI::Option* sigmaOption = nullptr;
    CLI::Option* targetOption = nullptr;

    void addTo(CLI::App& command);
    int run() const;
};

} // namespace elab::app
