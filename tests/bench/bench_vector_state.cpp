// What a dirty upper vector state costs (core/util/vector_state.h): the logistic loss pass of
// one evaluation (Loss::derivatives over 1 M margins: glibc's AVX exp and log1p inside this
// build's SSE loop), best of 5, with the state clean, dirtied the way a foreign library leaves
// it, and cleared again by clearUpperVectorState.

#include "core/model/loss.h"
#include "core/util/random.h"
#include "core/util/vector_state.h"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

using namespace elab::core;
using Clock = std::chrono::steady_clock;

namespace {

double bestPassNs(const Loss& loss, const Eigen::VectorXd& p, const Eigen::VectorXd& y, bool dirty) {
    Eigen::VectorXd d1, d2;
    double best = 1e300, sink = 0.0;
    for (int k = 0; k < 5; ++k) {
        if (dirty)
            dirtyUpperVectorState();
        const auto start = Clock::now();
        sink += loss.derivatives(p, y, d1, d2);
        best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count());
    }
    if (!(sink > 0.0))
        std::printf("(unexpected loss sum %g)\n", sink);
    return best / static_cast<double>(p.size());
}

} // namespace

int main() {
    const Eigen::Index n = 1'000'000;
    Rng rng(deriveSeed(7, 0));
    Eigen::VectorXd p(n), y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        p[i] = 8.0 * uniform01(rng) - 4.0;
        y[i] = uniform01(rng) < 0.5 ? -1.0 : 1.0;
    }
    const Loss loss(LossKind::Logistic);
    const auto readable = upperVectorStateInUse();
    if (!dirtyUpperVectorState()) {
        std::printf("bench_vector_state: no AVX on this CPU; nothing to measure\n");
        return 0;
    }
    clearUpperVectorState();
    const double clean = bestPassNs(loss, p, y, false);
    const double dirty = bestPassNs(loss, p, y, true);
    clearUpperVectorState();
    const double cleared = bestPassNs(loss, p, y, false);
    std::printf("bench_vector_state logistic pass over 1 M margins, best of 5: clean %.2f ns/row, "
                "upper state dirty %.2f ns/row (%.1fx), cleared again %.2f ns/row; XINUSE readable: %s\n",
                clean, dirty, dirty / clean, cleared, readable ? "yes" : "no");
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    out << "{\"bench\":\"vector_state\",\"clean_ns\":" << clean << ",\"dirty_ns\":" << dirty
        << ",\"cleared_ns\":" << cleared << "}\n";
    return 0;
}
