#pragma once
// The mechanism options every command that trains a private model shares: --mechanism, --loss,
// --huber-width, --lambda, --delta (utility, choose-eps, regions, train), and DP-SGD's settings
// (--hidden, --epochs, --batch-size, --clip, --clip-mode, --learning-rate, --lr-decay, --dropout,
// --dropout-rate, --weight-decay, --accountant, --public-rows; docs/MATH.md §3.6).

#include "core/learner/mechanism.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace elab::app {

struct MechanismOptions {
    std::string mechanism = "objpert-gauss";
    std::string loss = "logistic"; ///< unless --loss is absent and the mechanism fixes its loss (gaussian-lm: huber)
    double huberWidth = 0.1;
    double lambda = 1e-2;
    double delta = 1e-5;
    core::SgdSpec sgd;
    std::string clipMode = "total";
    std::string dropout = "none";
    std::string accountant = core::toString(core::SgdSpec{}.accountant); ///< pld
    CLI::Option* lossOption = nullptr;

    void addTo(CLI::App& command);
    /// The spec as given (the mechanism catalog's required loss when --loss is absent).
    core::MechanismSpec spec() const;
    /// DP-SGD's settings for JSON outputs (null for the other mechanisms).
    nlohmann::ordered_json sgdJson() const;
};

} // namespace elab::app
