#include "app/cli/scale_options.h"

#include "app/cli/cell_distributor.h"
#include "app/cli/cluster_session.h"
#include "core/util/sha256.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace elab::app {

namespace {

const std::set<std::string> kOutputOnly{"--threads", "--out", "--checkpoint", "--shard", "--help"};
const std::set<std::string> kDataFiles{"--data", "--test", "--bounds", "--schema"};
constexpr const char* kLeftOut = "(default)";

std::string longName(const CLI::Option& option) {
    return option.get_lnames().empty() ? option.get_name() : "--" + option.get_lnames().front();
}

std::string fileSha256(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    return core::sha256Hex(bytes.str());
}

} // namespace

void ScaleOptions::addTo(CLI::App& command) {
    m_command = &command;
    command.add_option("--checkpoint", checkpoint,
                       "Resumable run: append each finished cell to FILE; a re-run with the same settings skips them "
                       "(a file of other settings is refused)");
    command.add_option("--shard", shard,
                       "Compute only the cells i, i+N, i+2N, … (0 ≤ i < N) into --checkpoint, then stop; join the "
                       "shards with 'epsilonlab-cli merge'");
}

core::RunSettings runSettings(const CLI::App& command) {
    core::RunSettings settings;
    settings.add("command", command.get_name());
    settings.add("version", EPSILONLAB_VERSION);
    for (const CLI::Option* option : command.get_options()) {
        const std::string name = longName(*option);
        if (kOutputOnly.count(name) || name.rfind("--", 0) != 0)
            continue;
        // Left out: "(default)". Given the default explicitly is told apart from left out (CLI11 keeps no
        // default for flags, and some defaults do not pass their option's check): refusing an equal
        // setting is the safe mistake, and the stored settings replay exactly (commandLine).
        std::string value = kLeftOut;
        for (const std::string& part : option->results())
            value = (value == kLeftOut ? "" : value + ",") + part;
        settings.add(name, value);
        std::error_code ec;
        if (kDataFiles.count(name) && value != kLeftOut && std::filesystem::is_regular_file(value, ec))
            settings.add("sha256(" + name + ")", fileSha256(value));
    }
    return settings;
}

std::vector<std::string> commandLine(const core::RunSettings& settings) {
    std::vector<std::string> args;
    for (const auto& [name, value] : settings.entries) {
        if (name == "command")
            args.insert(args.begin(), value);
        if (name.rfind("--", 0) != 0 || value == kLeftOut)
            continue;
        if (value == "true" || value == "false") // a flag: --intercept=false is --no-intercept
            args.push_back(name + "=" + value);
        else
            args.insert(args.end(), {name, value});
    }
    return args;
}

std::unique_ptr<CellDistributor> ScaleOptions::executor() const {
    ClusterSession& session = ClusterSession::instance();
    if (checkpoint.empty() && shard.empty() && !session.distributed() && !std::getenv("EPSILONLAB_FAIL_CELL"))
        return nullptr;
    ShardSpec shardSpec;
    if (!shard.empty()) {
        const auto slash = shard.find('/');
        try {
            if (slash == std::string::npos)
                throw std::invalid_argument(shard);
            shardSpec.index = std::stoi(shard.substr(0, slash));
            shardSpec.count = std::stoi(shard.substr(slash + 1));
        } catch (const std::exception&) {
            throw std::invalid_argument("--shard must read i/N with 0 ≤ i < N, e.g. 0/4; got '" + shard + "'");
        }
        if (shardSpec.count < 1 || shardSpec.index < 0 || shardSpec.index >= shardSpec.count)
            throw std::invalid_argument("--shard must read i/N with 0 ≤ i < N, e.g. 0/4; got '" + shard + "'");
        if (checkpoint.empty())
            throw std::invalid_argument("--shard needs --checkpoint FILE (where the shard's cells go)");
        if (session.distributed())
            throw std::invalid_argument("--shard splits a run without MPI; under mpirun the ranks split it already");
    }
    return std::make_unique<CellDistributor>(session, checkpoint, shardSpec, runSettings(*m_command));
}

} // namespace elab::app
