#pragma once
// The mechanism options every command that trains a private model shares: --mechanism, --loss,
// --huber-width, --lambda, --delta (utility, choose-eps, regions).

#include "core/privacy/mechanism.h"

#include <CLI/CLI.hpp>

#include <string>

namespace elab::app {

struct MechanismOptions {
    std::string mechanism = "objpert-gauss";
    std::string loss = "logistic"; ///< unless --loss is absent and the mechanism fixes its loss (gaussian-lm: huber)
    double huberWidth = 0.1;
    double lambda = 1e-2;
    double delta = 1e-5;
    CLI::Option* lossOption = nullptr;

    void addTo(CLI::App& command);
    /// The spec as given (the mechanism catalog's required loss when --loss is absent).
    core::MechanismSpec spec() const;
};

} // namespace elab::app
