#include "core/scale/cell_stage.h"

#include <algorithm>
#include <numeric>

namespace elab::core {

std::vector<std::optional<std::string>> runCellStage(CellExecutor* executor, const CellStage& stage,
                                                     ParallelGrid& grid) {
    if (executor)
        return executor->run(stage, grid);
    std::vector<std::optional<std::string>> results(stage.count);
    grid.run(stage.count, [&](std::size_t i) { results[i] = stage.compute(i); });
    return results;
}

std::vector<std::size_t> cellsOfRank(const std::vector<std::size_t>& pending, const std::vector<double>& cost, int rank,
                                     int ranks) {
    std::vector<std::size_t> order = pending;
    auto costOf = [&](std::size_t i) { return i < cost.size() ? cost[i] : 1.0; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costOf(a) > costOf(b); });
    std::vector<double> load(static_cast<std::size_t>(std::max(ranks, 1)), 0.0);
    std::vector<std::size_t> mine;
    for (std::size_t i : order) {
        const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        load[least] += costOf(i);
        if (static_cast<int>(least) == rank)
            mine.push_back(i);
    }
    std::sort(mine.begin(), mine.end());
    return mine;
}

} // namespace elab::core
