// epsilonlab-cli: the headless face of the engine. Same core calls as the GUI.

#include "app/cli/accountant_command.h"
#include "app/cli/audit_command.h"
#include "app/cli/cluster_session.h"
#include "app/cli/data_options.h"
#include "app/cli/info_report.h"
#include "app/cli/merge_command.h"
#include "app/cli/ptr_command.h"
#include "app/cli/regions_command.h"
#include "app/cli/report_command.h"
#include "app/cli/stability_command.h"
#include "app/cli/train_command.h"
#include "app/cli/utility_command.h"
#include "core/data/builtin_catalog.h"
#include "core/data/dataset_loader.h"
#include "core/data/dataset_summary.h"
#include "core/data/load_error.h"
#include "core/data/public_schema.h"
#include "resources/builtin_resources.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

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
        std::cout << "builtin:" << info.name << "\n    " << info.description << " [" << info.licence << "]\n";
    std::cout << "Generated sets take options: builtin:moons?rows=500&noise=0.2&seed=3\n";
    return 0;
}

// info --write-schema: the levels, classes and width this load used, as a schema file to review.
void writeSchema(const core::Dataset& dataset, const std::string& spec, const std::string& path) {
    if (spec.rfind("builtin:", 0) == 0)
        throw std::invalid_argument("--write-schema: built-in datasets have documented schemas already");
    const core::PublicSchema schema = core::schemaOfDataset(dataset);
    std::ofstream out(path, std::ios::binary);
    if (!(out << core::schemaFileText(schema)) || !out.flush())
        throw std::runtime_error("cannot write the schema file " + path);
    std::cerr << "wrote " << path << ": " << schema.categorical.size() << " categorical column"
              << (schema.categorical.size() == 1 ? "" : "s") << ", " << schema.classes.size() << " classes"
              << (schema.width > 0 ? ", width " + std::to_string(schema.width) : std::string())
              << ". They were read from this data: keep only what is public knowledge (a codebook, the "
                 "documentation), then load with --schema "
              << path << (path == core::siblingSchemaPath(spec) ? " (or as it is: it sits beside the data)" : "")
              << "\n";
}

int runInfo(const app::DataOptions& data, bool json, const std::string& schemaPath) {
    const core::Dataset dataset = core::loadDataset(data.spec, data.toLoadOptions(), resources::builtinBytesProvider());
    if (!schemaPath.empty())
        writeSchema(dataset, data.spec, schemaPath);
    const core::DatasetSummary summary = core::summarize(dataset);
    if (json)
        std::cout << app::infoJson(dataset, summary).dump(2) << "\n";
    else
        std::cout << app::infoText(dataset, summary);
    return 0;
}

// An error's exit status; under MPI every rank is stopped (one failing alone would leave the
// others waiting).
int fail(const std::string& message, int status) {
    const app::ClusterSession& session = app::ClusterSession::instance();
    if (session.distributed())
        session.abort("error (rank " + std::to_string(session.rank()) + "): " + message, status);
    std::cerr << "error: " << message << "\n";
    return status;
}

int runCli(int argc, char** argv);

// merge: the joined shards' cells in a temporary checkpoint, the stored command run on it.
int runMerge(const app::MergeCommand& merge) {
    const std::string combined =
        (std::filesystem::temp_directory_path() / ("epsilonlab-merge-" + std::to_string(::getpid()) + ".checkpoint"))
            .string();
    std::filesystem::remove(combined);
    int status = 0;
    try {
        std::vector<std::string> args = merge.prepare(combined);
        args.insert(args.begin(), "epsilonlab-cli");
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        status = runCli(static_cast<int>(argv.size()), argv.data());
    } catch (...) {
        std::filesystem::remove(combined);
        throw;
    }
    std::filesystem::remove(combined);
    return status;
}

// datasets: the built-in datasets, as text or JSON.
struct DatasetsCommand {
    bool json = false;

    void addTo(CLI::App& command) { command.add_flag("--json", json, "Print JSON"); }
    int run() const { return runDatasets(json); }
};

// info: one dataset's summary; --write-schema writes what the load used as a schema file.
struct InfoCommand {
    app::DataOptions data;
    bool json = false;
    std::string writeSchemaPath;

    void addTo(CLI::App& command) {
        data.addTo(command);
        command.add_flag("--json", json, "Print JSON");
        command.add_option("--write-schema", writeSchemaPath,
                           "Write the levels, classes and LIBSVM width of this load as a public schema file to "
                           "review: keep what is public knowledge, then load with --schema FILE (FILE.schema beside "
                           "the data is found without it)");
    }
    int run() const { return runInfo(data, json, writeSchemaPath); }
};

// One subcommand: its name and description (the top-level --help lists them in table order),
// the example that ends its --help (it runs on a bare installation), how its options are added
// and what runs it once parsed.
struct Subcommand {
    const char* name;
    const char* description;
    const char* example;
    std::function<void(CLI::App&)> addOptions;
    std::function<int()> run;
};

// The entry of a command object with addTo(CLI::App&) and run().
template <class Command>
Subcommand subcommand(const char* name, const char* description, const char* example, Command& command) {
    return {name, description, example, [&command](CLI::App& app) { command.addTo(app); },
            [&command] { return command.run(); }};
}

int runCli(int argc, char** argv) {
    CLI::App cli{"EpsilonLab: see what the privacy parameter epsilon does to a model", "epsilonlab-cli"};
    cli.set_version_flag("--version", std::string("epsilonlab-cli ") + EPSILONLAB_VERSION);
    cli.require_subcommand(1);
    cli.option_defaults()->always_capture_default(); // every --help shows the defaults (subcommands inherit this)

    DatasetsCommand datasets;
    InfoCommand info;
    app::UtilityCommand utility;
    app::ChooseEpsCommand chooseEps;
    app::StabilityCommand stability;
    app::RegionsCommand regions;
    app::AccountantCommand accountant;
    app::TrainCommand train;
    app::AuditCommand audit;
    app::MergeCommand merge;
    app::PtrCommand ptr;
    app::ReportCommand report;
    report.commandLine = app::shellCommandLine(argc, argv);
    const Subcommand subcommands[] = {
        subcommand("datasets", "List the built-in datasets", "epsilonlab-cli datasets --json", datasets),
        subcommand("info", "Rows, features, task, class balance, missing values and norms",
                   "epsilonlab-cli info --data builtin:penguins\n  epsilonlab-cli info --data adult_train.csv "
                   "--label income --json",
                   info),
        subcommand("utility", "Measured utility over an ε grid and Taylor estimates from measuring points",
                   "epsilonlab-cli utility --data builtin:breast_cancer --mechanism objpert-gauss --eps 0.05:10:20 "
                   "--repeats 10 --measure-at 0.1,1 --seed 1\n"
                   "  epsilonlab-cli utility --data adult_train.csv --label income --test adult_test.csv "
                   "--bounds adult-bounds.csv --ignore fnlwgt --metric test-acc",
                   utility),
        subcommand("report",
                   "The ε decision report: one self-contained HTML file (and PDF) with the dataset and its SHA-256, "
                   "the pipeline's privacy ledger, the mechanisms compared, the utility chart with the target and the "
                   "chosen ε, the guarantee in numbers and words, what the choice assumed, the audit's verdict and "
                   "how to reproduce it",
                   "epsilonlab-cli report --data builtin:breast_cancer --bounds builtin --mechanism "
                   "objpert-gauss,outpert-gauss --grid 0.1:10:8 --eps 1 --target 0.9 --metric test-acc --split 0.3 "
                   "-o report.html --pdf report.pdf",
                   report),
        subcommand("choose-eps", "Smallest ε whose measured utility meets a target",
                   "epsilonlab-cli choose-eps --data builtin:breast_cancer --target 0.3", chooseEps),
        subcommand("stability",
                   "Test and marginal error vs the fraction of training data removed: none, L2, dropout, "
                   "deterministic dropout (Jain et al.)",
                   "epsilonlab-cli stability --data builtin:breast_cancer --split 0.3 --removal random "
                   "--rho 0:0.8:9 --repeats 5 --csv",
                   stability),
        subcommand("regions",
                   "Decision regions of a private classifier in a 2-D plane at one ε: R noise draws, their "
                   "agreement, boundaries and accuracies",
                   "epsilonlab-cli regions --data builtin:moons --mechanism objpert-gauss --eps 1 --draws 10", regions),
        subcommand("accountant",
                   "DP-SGD privacy accounting: ε for a noise multiplier σ, or σ for a target ε, at sampling rate q, "
                   "T steps and δ; RDP, advanced composition and the paper's zCDP procedure side by side",
                   "epsilonlab-cli accountant --sigma 1.1 --q 0.01 --steps 20000 --delta 1e-5\n"
                   "  epsilonlab-cli accountant --target-eps 1 --q 0.01 --steps 20000 --delta 1e-5 --accountant all",
                   accountant),
        subcommand("train", "One DP-SGD run at ε: train/test loss and accuracy per epoch, ε spent, the final guarantee",
                   "epsilonlab-cli train --data builtin:digits --split 0.2 --epochs 20 --eps 1 --delta 1e-4 "
                   "--reference",
                   train),
        subcommand(
            "audit",
            "Empirical privacy audit: T runs on a dataset and on its neighbour with a canary, a lower bound "
            "on ε at 95 % confidence against the claimed ε (exit status 3 when a claim is violated)",
            "epsilonlab-cli audit --data builtin:moons?rows=200 --mechanism objpert-gauss --eps 1 --runs 400\n"
            "  epsilonlab-cli audit --data builtin:breast_cancer --all --eps 2 --runs 200 --csv\n"
            "  epsilonlab-cli audit --data builtin:digits --mechanism dpsgd --eps 2 --method whitebox --runs 400",
            audit),
        // merge runs the stored command on the joined checkpoints (runMerge).
        {"merge", "Join the checkpoints of 'COMMAND … --shard i/N --checkpoint FILE' runs into the report of one run",
         "epsilonlab-cli utility --data builtin:breast_cancer --repeats 20 --shard 0/2 --checkpoint part0\n"
         "  epsilonlab-cli utility --data builtin:breast_cancer --repeats 20 --shard 1/2 --checkpoint part1\n"
         "  epsilonlab-cli merge part0 part1 --out utility.json",
         [&merge](CLI::App& app) { merge.addTo(app); }, [&merge] { return runMerge(merge); }},
        subcommand("ptr",
                   "Private dropout over the simplex by propose-test-release (Jain et al. Alg. 2): the statistic, "
                   "the test's pass probability against ε, the released feature, the (2ε, δ) guarantee",
                   "epsilonlab-cli ptr --data a9a_train.libsvm --eps 0.001:1:13 --runs 1000 --csv", ptr),
    };
    std::vector<const CLI::App*> commands; // in table order
    for (const Subcommand& entry : subcommands) {
        CLI::App* command = cli.add_subcommand(entry.name, entry.description);
        entry.addOptions(*command);
        command->footer(std::string("\nExample:\n  ") + entry.example + "\n");
        commands.push_back(command);
    }
    cli.footer("\nExit status: 0 on success, 2 on invalid arguments or input (named in the message), 3 when an "
               "audit finds a claim violated, 1 on any other failure.\nRun 'epsilonlab-cli COMMAND --help' for a "
               "command's options and an example.\n");

    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; every invalid argument exits 2, like a bad input file.
        return cli.exit(e) == 0 ? 0 : 2;
    }
    try {
        for (std::size_t k = 0; k < commands.size(); ++k)
            if (commands[k]->parsed())
                return subcommands[k].run();
    } catch (const app::CollectiveError& e) {
        if (app::ClusterSession::instance().writesOutput())
            std::cerr << "error: " << e.what() << "\n";
        return e.status();
    } catch (const app::ShardComplete& e) {
        std::cerr << e.what() << "\n";
        return 0;
    } catch (const core::LoadError& e) {
        return fail(e.what(), 2);
    } catch (const std::invalid_argument& e) { // arguments that parse but do not fit together or the data
        return fail(e.what(), 2);
    } catch (const std::exception& e) {
        return fail(e.what(), 1);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    app::ClusterSession& session = app::ClusterSession::instance();
    if (const std::string problem = session.start(argc, argv); !problem.empty()) {
        std::cerr << "error: " << problem << "\n";
        return 2;
    }
    const int status = runCli(argc, argv);
    session.finish();
    return status;
}
