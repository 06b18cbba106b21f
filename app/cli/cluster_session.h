#pragma once
// The MPI side of the CLI (issue 15; docs/scale-out.md), the only code that includes <mpi.h>:
// started once in main, it knows this process's rank and the number of ranks, moves cell
// results between them (broadcast from rank 0, gather at rank 0) and stops the whole job.
// Built without MPI (EPSILONLAB_WITH_MPI off or Open MPI missing) it is one rank of one, and
// a launch by mpirun with several ranks is refused with how to get MPI support. MPI starts
// only when a launcher (mpirun, srun) started this process: a plain run never touches it.

#include <stdexcept>
#include <string>
#include <vector>

namespace elab::app {

/// An error every rank meets at the same point (decided by rank 0 and broadcast): each rank ends
/// with this status and MPI finishes normally; only rank 0 prints it.
class CollectiveError : public std::runtime_error {
public:
    CollectiveError(const std::string& message, int status) : std::runtime_error(message), m_status(status) {}
    int status() const { return m_status; }

private:
    int m_status;
};

class ClusterSession {
public:
    /// The process's session. Thread: the main thread only (as every call below).
    static ClusterSession& instance();

    /// Starts MPI when launched by mpirun/srun with MPI built in. Returns "" or, when launched
    /// with several ranks but built without MPI, the message saying how to get it.
    std::string start(int& argc, char**& argv);
    /// Ends MPI after a successful run (collective: every rank calls it).
    void finish();

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    bool distributed() const { return m_size > 1; }
    /// Only rank 0 writes the report.
    bool writesOutput() const { return m_rank == 0; }

    /// Rank 0's text on every rank (collective).
    std::string broadcast(const std::string& text) const;
    /// Every rank's text at rank 0, in rank order; the other ranks get an empty list (collective).
    std::vector<std::string> gather(const std::string& text) const;
    /// Prints message on stderr and stops every rank of the job with this exit status.
    [[noreturn]] void abort(const std::string& message, int status) const;

    /// Whether MPI support was built in.
    static bool built();

private:
    int m_rank = 0;
    int m_size = 1;
    bool m_started = false;
};

} // namespace elab::app
