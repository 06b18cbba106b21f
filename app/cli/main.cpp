// epsilonlab-cli: the headless face of the engine. Same core calls as the GUI.

#include "app/cli/accountant_command.h"
#include "app/cli/data_options.h"
#include "app/cli/info_report.h"
#include "app/cli/regions_command.h"
#include "app/cli/stability_command.h"
#include "app/cli/train_command.h"
#include "app/cli/utility_command.h"
#include "core/data/builtin_catalog.h"
#include "core/data/dataset_loader.h"
#include "core/data/dataset_summary.h"
#include "core/data/load_error.h"
#include "resources/builtin_resources.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>

namespace {

using namespace elab;

int runDatasets(bool json) {
    if (json) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& info : core::builtinCatalog())
            list.push_back({{"name", info.name},
                            {"spec", "builtin:" + info.name},
                            {"task", core::toString(info.task)},
                            {"generated", info.fileName.empty()},
                            {"description", info.description},
                            {"licence", info.licence}});
        std::cout << list.dump(2) << "\n";
        return 0;
    }
    for (const auto& info : core::builtinCatalog())
        std::cout << "builtin:" << info.name << "\n    " << info.description << " [" << info.licence
                  << "]\n";
    std::cout << "Generated sets take options: builtin:moons?rows=500&noise=0.2&seed=3\n";
    return 0;
}

int runInfo(const app::DataOptions& data, bool json) {
    const core::Dataset dataset =
        core::loadDataset(data.spec, data.toLoadOptions(), resources::builtinBytesProvider());
    const core::DatasetSummary summary = core::summarize(dataset);
    if (json)
        std::cout << app::infoJson(dataset, summary).dump(2) << "\n";
    else
        std::cout << app::infoText(dataset, summary);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App cli{"EpsilonLab: see what the privacy parameter epsilon does to a model",
                 "epsilonlab-cli"};
    cli.set_version_flag("--version", std::string("epsilonlab-cli ") + EPSILONLAB_VERSION);
    cli.require_subcommand(1);
    cli.option_defaults()->always_capture_default(); // every --help shows the defaults (subcommands inherit this)

    bool datasetsJson = false;
    auto* datasets = cli.add_subcommand("datasets", "List the built-in datasets");
    datasets->add_flag("--json", datasetsJson, "Print JSON");

    app::DataOptions infoData;
    bool infoAsJson = false;
    auto* info = cli.add_subcommand("info", "Rows, features, task, class balance, missing values and norms");
    infoData.addTo(*info);
    info->add_flag("--json", infoAsJson, "Print JSON");

    app::UtilityCommand utility;
    utility.addTo(*cli.add_subcommand(
        "utility", "Measured utility over an ε grid and Taylor estimates from measuring points"));
    auto* utilityCommand = cli.get_subcommand("utility");

    app::ChooseEpsCommand chooseEps;
    chooseEps.addTo(*cli.add_subcommand("choose-eps", "Smallest ε whose measured utility meets a target"));
    auto* chooseEpsCommand = cli.get_subcommand("choose-eps");

    app::StabilityCommand stability;
    auto* stabilityCommand = cli.add_subcommand(
        "stability", "Test and marginal error vs the fraction of training data removed: none, L2, dropout, "
                     "deterministic dropout (Jain et al.)");
    stability.addTo(*stabilityCommand);

    app::RegionsCommand regions;
    auto* regionsCommand = cli.add_subcommand(
        "regions", "Decision regions of a private classifier in a 2-D plane at one ε: R noise draws, their agreement, "
                   "boundaries and accuracies");
    regions.addTo(*regionsCommand);

    app::AccountantCommand accountant;
    auto* accountantCommand = cli.add_subcommand(
        "accountant", "DP-SGD privacy accounting: ε for a noise multiplier σ, or σ for a target ε, at sampling rate q, "
                      "T steps and δ; RDP, advanced composition and the paper's zCDP procedure side by side");
    accountant.addTo(*accountantCommand);

    app::TrainCommand train;
    auto* trainCommand = cli.add_subcommand(
        "train", "One DP-SGD run at ε: train/test loss and accuracy per epoch, ε spent, the final guarantee");
    train.addTo(*trainCommand);

    CLI11_PARSE(cli, argc, argv);
    try {
        if (datasets->parsed())
            return runDatasets(datasetsJson);
        if (info->parsed())
            return runInfo(infoData, infoAsJson);
        if (utilityCommand->parsed())
            return utility.run();
        if (chooseEpsCommand->parsed())
            return chooseEps.run();
        if (stabilityCommand->parsed())
            return stability.run();
        if (regionsCommand->parsed())
            return regions.run();
        if (accountantCommand->parsed())
            return accountant.run();
        if (trainCommand->parsed())
            return train.run();
    } catch (const core::LoadError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
