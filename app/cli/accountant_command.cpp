#include "app/cli/accountant_command.h"

#include "app/cli/write_output.h"

#include "core/privacy/accountant.h"
#include "core/report/result_json.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace elab::app {

void AccountantCommand::addTo(CLI::App& command) {
    sigmaOption = command.add_option("--sigma", sigma, "Noise multiplier σ (noise sd / sensitivity): report ε")
                      ->check(CLI::NonNegativeNumber);
    targetOption = command.add_option("--target-eps", targetEps, "Target ε: report the smallest σ whose ε is ≤ it")
                       ->check(CLI::PositiveNumber)
                       ->excludes(sigmaOption);
    command.add_option("--q", q, "Sampling rate q = S/N")->check(CLI::Range(1e-12, 1.0))->required();
    command.add_option("--steps", steps, "Steps T")->check(CLI::NonNegativeNumber)->required();
    command.add_option("--delta", delta, "δ")->check(CLI::Range(1e-300, 0.999999))->required();
    std::vector<std::string> names = core::optionNameList(core::accountantKindNames());
    names.push_back("all");
    command.add_option("--accountant", accountant, "rdp, ac, zcdp-published, pld, or all (side by side)")
        ->check(CLI::IsMember(names));
    command
        .add_option("--adjacency", adjacency,
                    "add-remove (default: q and T as given, i.e. N public) or replace-one: the guarantee at a fixed, "
                    "private N, as DP-SGD states it without --public-rows (σ for ε by the add/remove accountant at "
                    "(ε/2, δ/(1 + e^{ε/2})); ε for σ: the least ε with 2ε_a(δ/(1 + e^{ε/2})) ≤ ε; pld: the PLD of "
                    "the replace pair directly)")
        ->check(CLI::IsMember({"add-remove", "replace-one"}));
    command.add_flag("--csv", csv,
                     "CSV instead of JSON: accountant,sigma,epsilon,delta,proven,eps_replace_one,delta_replace_one");
    command.add_option("--out", out, "Write to this file instead of stdout");
}

int AccountantCommand::run() const {
    const bool calibrate = targetOption && targetOption->count() > 0;
    const bool replaceOne = adjacency == "replace-one";
    if (!calibrate && (!sigmaOption || sigmaOption->count() == 0))
        throw std::invalid_argument("accountant: give --sigma S (ε for σ) or --target-eps E (σ for ε)");
    std::vector<core::AccountantKind> kinds;
    if (accountant == "all")
        for (const auto& entry : core::accountantKindNames())
            kinds.push_back(entry.first);
    else
        kinds.push_back(core::accountantKindFromString(accountant));
    core::SgdPrivacyParams params{sigma, q, steps, delta};
    if (std::string e = params.validate(); !e.empty())
        throw std::invalid_argument("accountant: " + e);

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::ostringstream text;
    text.precision(10);
    text << (replaceOne ? "accountant,sigma,epsilon,delta,proven,eps_add_remove,delta_add_remove\n"
                        : "accountant,sigma,epsilon,delta,proven,eps_replace_one,delta_replace_one\n");
    for (core::AccountantKind kind : kinds) {
        double s = sigma;
        core::AccountantResult r;
        bool reached = true;
        if (calibrate) {
            const std::optional<core::Calibration> c =
                replaceOne ? core::calibrateSigmaReplaceOneWithinLimit(kind, targetEps, params)
                           : core::calibrateSigmaWithinLimit(kind, targetEps, params);
            if (!c)
                throw std::runtime_error("calibration: no noise multiplier up to 1e6 reaches " +
                                         std::string(replaceOne ? "replace-one " : "") +
                                         "ε = " + std::to_string(targetEps));
            s = c->sigma;
            r = c->result;
            reached = c->reachedTarget;
        } else {
            r = replaceOne ? core::replaceOneEpsilon(kind, params) : core::accountEpsilon(kind, params);
        }
        // Add/remove: its replace-one equivalent; replace-one: the add/remove figures it comes from.
        const core::EpsDelta replace =
            replaceOne ? core::EpsDelta{r.parameter("eps_add_remove"), r.parameter("delta_add_remove")}
                       : core::replaceOneEquivalent(r.epsilon, r.delta);
        nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
        for (const core::MechanismParameter& p : r.parameters)
            parameters[p.name] = p.value;
        nlohmann::ordered_json row{
            {"accountant", core::toString(kind)},
            {"title", core::accountantTitle(kind)},
            {"sigma", s},
            {"epsilon", core::numberOrNull(r.epsilon)},
            {"delta", r.delta},
            {"proven", r.proven},
            {"adjacency", replaceOne ? "replace one row (fixed N)" : "add/remove one row"},
            {replaceOne ? "add_remove" : "replace_one",
             {{"epsilon", core::numberOrNull(replace.epsilon)}, {"delta", core::numberOrNull(replace.delta)}}},
            {"parameters", parameters},
            {"notes", r.notes}};
        if (calibrate)
            row["reached_target"] = reached;
        rows.push_back(row);
        text << core::toString(kind) << ',' << s << ',' << r.epsilon << ',' << r.delta << ','
             << (r.proven ? "true" : "false") << ',' << replace.epsilon << ',' << replace.delta << "\n";
    }
    if (csv) {
        writeOutput(out, text.str());
        return 0;
    }
    nlohmann::ordered_json j;
    j["command"] = "accountant";
    j["version"] = EPSILONLAB_VERSION;
    j["mode"] = calibrate ? "calibrate" : "epsilon";
    if (calibrate)
        j["target_eps"] = targetEps;
    else
        j["sigma"] = sigma;
    j["q"] = q;
    j["steps"] = steps;
    j["delta"] = delta;
    j["adjacency"] = adjacency;
    j["accountants"] = rows;
    writeOutput(out, j.dump(1) + "\n");
    return 0;
}

} // namespace elab::app
