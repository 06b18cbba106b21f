#include "app/cli/cell_distributor.h"

#include "app/cli/scale_options.h"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>

namespace elab::app {

namespace {

std::string cellLines(const std::map<core::CellKey, std::string>& cells) {
    std::string text;
    for (const auto& [key, payload] : cells)
        text += core::CheckpointFile::cellLine(key.first, key.second, payload);
    return text;
}

void readCellLines(const std::string& text, std::map<core::CellKey, std::string>& into) {
    std::istringstream lines(text);
    std::string line;
    core::CellKey key;
    std::string payload;
    while (std::getline(lines, line))
        if (core::CheckpointFile::parseCellLine(line, key, payload))
            into.emplace(key, payload);
}

std::string rankFile(const std::string& checkpoint, int rank) { return checkpoint + ".rank" + std::to_string(rank); }

} // namespace

CellDistributor::CellDistributor(const ClusterSession& session, const std::string& checkpoint, ShardSpec shard,
                                 const core::RunSettings& settings)
    : m_session(session), m_shard(shard) {
    if (const char* fail = std::getenv("EPSILONLAB_FAIL_CELL"))
        m_failCell = fail;
    if (checkpoint.empty())
        return;
    std::string known, problem;
    if (session.rank() == 0) {
        try {
            m_file = std::make_unique<core::CheckpointFile>(checkpoint, settings);
            m_known = m_file->contents().cells;
            loadRankFiles(settings); // also after an MPI job, when resumed in one process
            known = cellLines(m_known);
        } catch (const core::CheckpointMismatch& e) {
            problem = e.what();
        }
    }
    if (!session.distributed()) {
        if (!problem.empty())
            throw core::CheckpointMismatch(problem);
        return;
    }
    problem = session.broadcast(problem);
    if (!problem.empty())
        throw CollectiveError(problem, 2);
    known = session.broadcast(known);
    if (session.rank() != 0) {
        readCellLines(known, m_known);
        m_file = std::make_unique<core::CheckpointFile>(rankFile(checkpoint, session.rank()), settings);
    }
}

void CellDistributor::loadRankFiles(const core::RunSettings& settings) {
    namespace fs = std::filesystem;
    const fs::path main(m_file->path());
    const fs::path dir = main.has_parent_path() ? main.parent_path() : fs::path(".");
    const std::string prefix = main.filename().string() + ".rank";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || name.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
            continue;
        const core::CheckpointContents contents = core::CheckpointFile::read(entry.path().string());
        if (contents.fingerprint != settings.fingerprint())
            throw core::CheckpointMismatch(
                "checkpoint " + entry.path().string() +
                " (a rank's part) was written with other settings; remove it or give another "
                "--checkpoint file");
        for (const auto& [key, payload] : contents.cells)
            if (m_known.emplace(key, payload).second)
                m_file->append(key.first, key.second, payload);
    }
}

std::vector<std::optional<std::string>> CellDistributor::run(const core::CellStage& stage, core::ParallelGrid& grid) {
    std::vector<std::optional<std::string>> results(stage.count);
    std::vector<std::size_t> pending;
    for (std::size_t i = 0; i < stage.count; ++i) {
        const auto it = m_known.find({stage.name, i});
        if (it != m_known.end())
            results[i] = it->second;
        else
            pending.push_back(i);
    }
    std::vector<std::size_t> mine;
    if (m_shard.count > 0) {
        for (std::size_t i : pending)
            if (i % static_cast<std::size_t>(m_shard.count) == static_cast<std::size_t>(m_shard.index))
                mine.push_back(i);
    } else {
        std::vector<double> cost(stage.count, 1.0);
        if (stage.cost)
            for (std::size_t i = 0; i < stage.count; ++i)
                cost[i] = stage.cost(i);
        mine = core::cellsOfRank(pending, cost, m_session.rank(), m_session.size());
    }

    std::mutex failureMutex;
    std::exception_ptr failure;
    std::string failedCell;
    grid.run(mine.size(), [&](std::size_t k) {
        const std::size_t i = mine[k];
        try {
            if (!m_failCell.empty() && m_failCell == stage.name + ":" + std::to_string(i))
                throw std::runtime_error("failure injected by EPSILONLAB_FAIL_CELL");
            std::optional<std::string> payload = stage.compute(i);
            if (payload && m_file)
                m_file->append(stage.name, i, *payload);
            results[i] = std::move(payload);
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure) {
                failure = std::current_exception();
                failedCell = stage.name + " " + stage.cellName(i);
            }
        }
    });
    if (failure) {
        if (!m_session.distributed())
            std::rethrow_exception(failure);
        std::string what = "unknown error";
        try {
            std::rethrow_exception(failure);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        m_session.abort("error: rank " + std::to_string(m_session.rank()) + " of " + std::to_string(m_session.size()) +
                            " failed on cell " + failedCell + ": " + what,
                        1);
    }
    if (m_shard.count > 0)
        throw ShardComplete("shard " + std::to_string(m_shard.index) + "/" + std::to_string(m_shard.count) + ": " +
                            std::to_string(mine.size()) + " cells of stage " + stage.name + " computed, " +
                            std::to_string(stage.count - pending.size()) + " were in " + m_file->path() +
                            "; join the shards with 'epsilonlab-cli merge'");
    if (m_session.distributed()) {
        std::map<core::CellKey, std::string> computed;
        for (std::size_t i : mine)
            if (results[i])
                computed.emplace(core::CellKey{stage.name, i}, *results[i]);
        std::string gatheredText;
        const std::vector<std::string> parts = m_session.gather(cellLines(computed));
        if (m_session.rank() == 0) {
            std::map<core::CellKey, std::string> gathered;
            for (const std::string& part : parts)
                readCellLines(part, gathered);
            if (m_file)
                for (const auto& [key, payload] : gathered)
                    if (!computed.count(key))
                        m_file->append(key.first, key.second, payload);
            gatheredText = cellLines(gathered);
        }
        std::map<core::CellKey, std::string> all;
        readCellLines(m_session.broadcast(gatheredText), all);
        for (const auto& [key, payload] : all)
            results[key.second] = payload;
    }
    if (m_file && m_session.rank() == 0)
        std::cerr << "checkpoint " << m_file->path() << ": stage " << stage.name << ": " << stage.count - pending.size()
                  << " of " << stage.count << " cells read back\n";
    return results;
}

} // namespace elab::app
