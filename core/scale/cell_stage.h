#pragma once
// A sweep's grid of independent cells, as the scale-out layer sees it (issue 15;
// docs/scale-out.md): each cell computes its result from (seed, cell) alone and returns it as
// exact text (core/scale/cell_text.h), so it can be computed on another rank, or read back
// from a checkpoint, and the sweep assembles the same bits either way. A CellExecutor decides
// which cells run here; without one every cell runs here, in the sweep's ParallelGrid.

#include "core/util/parallel_grid.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

struct CellStage {
    std::string name; ///< unique within the run, no spaces: "utility", "stability.removal", "audit.dpsgd"
    std::size_t count = 0;
    /// Relative expected cost of a cell, for balancing ranks (empty: all equal).
    std::function<double(std::size_t)> cost;
    /// The cell in words, for error messages: "repetition 3". Empty: "cell 3".
    std::function<std::string(std::size_t)> describe;
    /// Computes cell i and returns its result text; std::nullopt when stopped. Thread: a worker
    /// of the grid (cells run in parallel, each writing only its own slots).
    std::function<std::optional<std::string>(std::size_t)> compute;

    std::string cellName(std::size_t i) const { return describe ? describe(i) : "cell " + std::to_string(i); }
};

/// Runs a sweep's stages somewhere else in part: other MPI ranks, a checkpoint (app/cli).
class CellExecutor {
public:
    virtual ~CellExecutor() = default;
    /// Every cell's result in index order; std::nullopt for a cell not computed (stopped). The
    /// cells computed in this process run in grid. Thread: the sweep's (caller's) thread.
    virtual std::vector<std::optional<std::string>> run(const CellStage& stage, ParallelGrid& grid) = 0;
};

/// executor->run(stage, grid), or without an executor every cell here, in grid.
std::vector<std::optional<std::string>> runCellStage(CellExecutor* executor, const CellStage& stage,
                                                     ParallelGrid& grid);

/// The cells rank `rank` of `ranks` computes out of `pending` (ascending indices): longest
/// expected cost first, each to the least-loaded rank so far (ties: the lowest rank), so the
/// ranks' totals differ by at most one cell's cost. Returned in ascending order.
std::vector<std::size_t> cellsOfRank(const std::vector<std::size_t>& pending, const std::vector<double>& cost, int rank,
                                     int ranks);

} // namespace elab::core
