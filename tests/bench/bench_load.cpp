// Benchmark: loading the large benchmark files (PRODUCT.md target: KDD Cup 99 10 % CSV in
// ≤ 2 s with peak memory ≤ 2× the matrix). One dataset per process so that the peak RSS
// belongs to that load. Usage: bench_load [kdd|a9a|all] (default all: re-executes itself).

#include "core/data/dataset_loader.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

struct Case {
    const char* key;
    const char* path;
    const char* target;
};

const Case kCases[] = {
    {"kdd", EPSILONLAB_SHARED_DIR "/datasets/kddcup99/kddcup99_10percent.csv.gz", "<= 2 s, peak <= 2x matrix"},
    {"a9a", EPSILONLAB_SHARED_DIR "/datasets/adult/a9a_train.libsvm", "(part of the <= 20 ms fit budget)"},
};

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

int runCase(const Case& c, int repeats) {
    using Clock = std::chrono::steady_clock;
    double best = 1e300;
    elab::core::Dataset data;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        data = elab::core::loadDataset(c.path, {}, {});
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
    }
    const double matrixMiB = static_cast<double>(data.features.memoryBytes()) / (1024.0 * 1024.0);
    const double peak = peakRssMiB();
    std::printf("bench_load %-4s rows=%lld features=%lld %s  best of %d: %.3f s  peak RSS %.0f MiB"
                "  matrix %.0f MiB  ratio %.2f  target %s\n",
                c.key, static_cast<long long>(data.rows()), static_cast<long long>(data.featureCount()),
                data.features.isSparse() ? "sparse" : "dense", repeats, best, peak, matrixMiB, peak / matrixMiB,
                c.target);
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    out << "{\"bench\":\"load\",\"case\":\"" << c.key << "\",\"seconds\":" << best << ",\"peak_rss_mib\":" << peak
        << ",\"matrix_mib\":" << matrixMiB << "}\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    if (which == "all") {
        int status = 0;
        for (const Case& c : kCases) {
            const pid_t pid = fork();
            if (pid == 0) {
                execl(argv[0], argv[0], c.key, static_cast<char*>(nullptr));
                _exit(127);
            }
            int childStatus = 0;
            waitpid(pid, &childStatus, 0);
            if (!WIFEXITED(childStatus) || WEXITSTATUS(childStatus) != 0)
                status = 1;
        }
        return status;
    }
    for (const Case& c : kCases)
        if (which == c.key) {
            try {
                // KDD once (peak memory is what matters, and it is the slow one); a9a best of 5.
                return runCase(c, std::strcmp(c.key, "kdd") == 0 ? 1 : 5);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "bench_load %s: %s\n", c.key, e.what());
                return 1;
            }
        }
    std::fprintf(stderr, "usage: bench_load [kdd|a9a|all]\n");
    return 2;
}
