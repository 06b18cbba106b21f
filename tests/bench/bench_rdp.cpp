// Benchmark: the RDP accountant's ε for one (σ, q, T, δ) (target ≤ 1 ms at every row of
// ../shared/docs/dp-accounting-vectors.csv; without it, the DIGITS and MNIST settings), on one
// thread and on all, against the exhaustive search over every order in the same run (the same
// numbers, bit for bit: test_accounting checks it). Best of 7 calls per row after a warm-up;
// prints the worst row of each and appends them to build/bench-results.jsonl.

#include "core/privacy/rdp.h"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Row {
    double sigma, q;
    long long steps;
    double delta;
};

std::vector<Row> rows() {
    std::vector<Row> out;
    std::ifstream file(EPSILONLAB_SHARED_DIR "/docs/dp-accounting-vectors.csv");
    std::string line;
    if (file && std::getline(file, line)) {
        while (std::getline(file, line)) {
            std::replace(line.begin(), line.end(), ',', ' ');
            std::istringstream in(line);
            Row r{};
            if (in >> r.sigma >> r.q >> r.steps >> r.delta)
                out.push_back(r);
        }
    }
    if (out.empty()) // DIGITS (q = 0.07, T = 1,500) and MNIST (q = 0.01, T = 20,000) at σ = 1.1
        out = {{1.1, 0.07, 1500, 1e-5}, {1.1, 0.01, 20000, 1e-5}, {0.6, 0.1, 10000, 1e-5}};
    return out;
}

template <class F>
double bestMs(F&& f) {
    using Clock = std::chrono::steady_clock;
    f();
    double best = 1e300;
    for (int r = 0; r < 7; ++r) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return best;
}

} // namespace

int main() {
    using namespace elab::core;
    const std::vector<Row> all = rows();
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    const int cores = tbb::info::default_concurrency();
    const double n = static_cast<double>(all.size());
    for (int threads : {1, cores}) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
        double worstFast = 0.0, worstFull = 0.0, sumFast = 0.0, sumFull = 0.0;
        Row worstRow{};
        for (const Row& r : all) {
            const double fast = bestMs([&] { (void)rdpEpsilons(r.sigma, r.q, {r.steps}, r.delta); });
            const double full = bestMs([&] { (void)rdpEpsilonsExhaustive(r.sigma, r.q, {r.steps}, r.delta); });
            if (fast > worstFast) {
                worstFast = fast;
                worstRow = r;
            }
            worstFull = std::max(worstFull, full);
            sumFast += fast;
            sumFull += full;
        }
        std::printf("bench_rdp %zu rows, %d thread(s): worst %.3f ms (sigma %g, q %g, T %lld; target <= 1 ms), "
                    "mean %.3f ms  |  every order summed: worst %.3f ms, mean %.3f ms\n",
                    all.size(), threads, worstFast, worstRow.sigma, worstRow.q, worstRow.steps, sumFast / n, worstFull,
                    sumFull / n);
        out << "{\"bench\":\"rdp\",\"rows\":" << all.size() << ",\"threads\":" << threads
            << ",\"worst_ms\":" << worstFast << ",\"mean_ms\":" << sumFast / n
            << ",\"exhaustive_worst_ms\":" << worstFull << ",\"exhaustive_mean_ms\":" << sumFull / n << "}\n";
    }
    return 0;
}
