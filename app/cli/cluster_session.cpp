#include "app/cli/cluster_session.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#ifdef EPSILONLAB_HAVE_MPI
#include <mpi.h>
#endif

namespace elab::app {

namespace {

// The number of ranks a launcher announced (Open MPI, PMI/MPICH/Slurm, PMIx), 0 if none.
int launcherSize() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
        if (const char* value = std::getenv(name))
            return std::atoi(value);
    return std::getenv("PMIX_RANK") ? 1 : 0;
}

} // namespace

ClusterSession& ClusterSession::instance() {
    static ClusterSession session;
    return session;
}

#ifdef EPSILONLAB_HAVE_MPI

bool ClusterSession::built() { return true; }

std::string ClusterSession::start(int& argc, char**& argv) {
    if (launcherSize() == 0)
        return {};
    int provided = 0;
    // Only the main thread calls MPI; the TBB workers never do.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    m_started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    return {};
}

void ClusterSession::finish() {
    if (m_started)
        MPI_Finalize();
    m_started = false;
}

std::string ClusterSession::broadcast(const std::string& text) const {
    if (!distributed())
        return text;
    unsigned long long length = text.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    std::string out = m_rank == 0 ? text : std::string(length, '\0');
    for (unsigned long long at = 0; at < length;) { // in chunks below INT_MAX
        const auto chunk = static_cast<int>(std::min<unsigned long long>(length - at, 1ULL << 30));
        MPI_Bcast(out.data() + at, chunk, MPI_CHAR, 0, MPI_COMM_WORLD);
        at += static_cast<unsigned long long>(chunk);
    }
    return out;
}

std::vector<std::string> ClusterSession::gather(const std::string& text) const {
    if (!distributed())
        return {text};
    if (text.size() > (1ULL << 31) - 1)
        abort("error: rank " + std::to_string(m_rank) + " has more than 2 GB of cell results to send", 1);
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(m_rank == 0 ? static_cast<std::size_t>(m_size) : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    long long total = 0;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
        offsets[k] = static_cast<int>(total);
        total += lengths[k];
    }
    if (total > (1LL << 31) - 1)
        abort("error: the gathered cell results exceed 2 GB", 1);
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (std::size_t k = 0; k < lengths.size(); ++k)
        out.push_back(all.substr(static_cast<std::size_t>(offsets[k]), static_cast<std::size_t>(lengths[k])));
    return out;
}

void ClusterSession::abort(const std::string& message, int status) const {
    std::cerr << message << std::endl;
    if (m_started)
        MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
}

#else

bool ClusterSession::built() { return false; }

std::string ClusterSession::start(int&, char**&) {
    if (launcherSize() > 1)
        return "this epsilonlab-cli was built without MPI, so " + std::to_string(launcherSize()) +
               " copies would each run the whole sweep. Install Open MPI (Debian: apt-get install libopenmpi-dev "
               "openmpi-bin) and rebuild (cmake -DEPSILONLAB_WITH_MPI=ON, the default when MPI is found), or run "
               "without mpirun.";
    return {};
}

void ClusterSession::finish() {}

std::string ClusterSession::broadcast(const std::string& text) const { return text; }

std::vector<std::string> ClusterSession::gather(const std::string& text) const { return {text}; }

void ClusterSession::abort(const std::string& message, int status) const {
    std::cerr << message << std::endl;
    std::exit(status);
}

#endif

} // namespace elab::app
