#pragma once
// The mechanism options every command that trains a private model shares: --mechanism, --loss,
// --huber-width, --lambda, --delta (utility, choose-eps, regions, train), and the options of every
// mechanism's own parameters, built from its catalog entry's ParameterSchema (DP-SGD's --hidden,
// --epochs, --batch-size, …, --public-rows; docs/MATH.md §3.6), one option group per mechanism.

#include "core/learner/mechanism.h"
#include "core/learner/parameter_schema.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <list>
#include <string>
#include <vector>

namespace elab::app {

struct MechanismOptions {
    std::string mechanism = "objpert-gauss";
    std::string loss = "logistic"; ///< unless --loss is absent and the mechanism fixes its loss (gaussian-lm: huber)
    double huberWidth = 0.1;
    double lambda = 1e-2;
    double delta = 1e-5;
    /// One option of a mechanism's own parameters: the field and the value as given (its default
    /// when absent) in the member of its type.
    struct Parameter {
        const core::ParameterField* field = nullptr;
        long long integer = 0;
        double real = 0.0;
        std::string name;
    };
    std::list<Parameter> parameters; ///< every catalog schema's fields (a list: the options bind to them)
    CLI::Option* lossOption = nullptr;

    /// list: --mechanism takes a comma list of catalog names (utility's comparison); each is checked.
    void addTo(CLI::App& command, bool list = false);
    /// The mechanisms named by --mechanism, in order (one unless a list was allowed and given).
    std::vector<std::string> names() const;
    /// These options with --mechanism set to one name of the list (the other options as given).
    MechanismOptions with(const std::string& name) const;
    /// The spec as given (the mechanism catalog's required loss when --loss is absent).
    core::MechanismSpec spec() const;
    /// The chosen mechanism's own parameters for JSON outputs, with the values derived from them
    /// (null for a mechanism without parameters of its own).
    nlohmann::ordered_json parametersJson() const;
};

} // namespace elab::app
