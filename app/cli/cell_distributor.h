#pragma once
// The CLI's cell executor (core/scale/cell_stage.h; docs/scale-out.md): a stage's cells are
// read back from the checkpoint, split over the MPI ranks by expected cost (or taken i mod N by
// a --shard run), computed with TBB inside each rank, appended to the checkpoint as each
// finishes, and gathered so that every rank assembles the same results.
// Checkpoint files: rank 0 appends to FILE, rank k > 0 to FILE.rank<k> (its own cells as they
// finish); rank 0 reads them all at the start and appends the gathered cells of every stage to
// FILE; any run that opens FILE reads them too (a killed MPI job resumes with any number of
// ranks, or none). A rank whose cell throws stops the job, naming the rank and the cell.
// Test hook: EPSILONLAB_FAIL_CELL=<stage>:<index> makes that cell throw where it is computed
// (tests/cli/scale_out.py checks the message and the stopped job).

#include "app/cli/cluster_session.h"
#include "core/scale/cell_stage.h"
#include "core/scale/checkpoint_file.h"

#include <map>
#include <memory>
#include <string>

namespace elab::app {

struct ShardSpec {
    int index = 0;
    int count = 0; ///< 0: no shard
};

class CellDistributor : public core::CellExecutor {
public:
    /// Opens or creates the checkpoint (empty path: none) and shares its cells with every rank.
    /// Throws core::CheckpointMismatch when rank 0 finds one of other settings (under MPI a
    /// CollectiveError with status 2 on every rank).
    CellDistributor(const ClusterSession& session, const std::string& checkpoint, ShardSpec shard,
                    const core::RunSettings& settings);

    std::vector<std::optional<std::string>> run(const core::CellStage& stage, core::ParallelGrid& grid) override;

private:
    void loadRankFiles(const core::RunSettings& settings);

    const ClusterSession& m_session;
    ShardSpec m_shard;
    std::unique_ptr<core::CheckpointFile> m_file;
    std::map<core::CellKey, std::string> m_known; ///< cells read back, the same on every rank
    std::string m_failCell;                       ///< EPSILONLAB_FAIL_CELL
};

} // namespace elab::app
