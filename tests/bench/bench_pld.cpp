// Benchmark: the PLD accountant at q = 0.01, T = 20,000, δ = 1e-5 (targets: ε ≤ 20 ms, σ for ε
// ≤ 100 ms), at the σ that dp_accounting's PLD needs for ε = 10, 1 and 0.5. Best of 5 each, after
// one warm-up call (the FFT plan is kept per thread). Prints the figures and appends them to
// build/bench-results.jsonl.

#include "core/privacy/accountant.h"
#include "core/privacy/pld.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

int main() {
    using Clock = std::chrono::steady_clock;
    using namespace elab::core;
    struct Case {
        double sigma, targetEps;
    };
    const Case cases[] = {{0.9625, 10.0}, {5.3357, 1.0}, {9.9893, 0.5}};
    SgdPrivacyParams p;
    p.q = 0.01;
    p.steps = 20000;
    p.delta = 1e-5;
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    for (const Case& c : cases) {
        p.sigma = c.sigma;
        double bestEps = 1e300, bestCal = 1e300, eps = 0.0, sigma = 0.0;
        (void)accountEpsilon(AccountantKind::Pld, p);
        for (int r = 0; r < 5; ++r) {
            const auto t0 = Clock::now();
            eps = accountEpsilon(AccountantKind::Pld, p).epsilon;
            const auto t1 = Clock::now();
            sigma = calibrateSigma(AccountantKind::Pld, c.targetEps, p).sigma;
            const auto t2 = Clock::now();
            bestEps = std::min(bestEps, std::chrono::duration<double, std::milli>(t1 - t0).count());
            bestCal = std::min(bestCal, std::chrono::duration<double, std::milli>(t2 - t1).count());
        }
        std::printf("bench_pld q=0.01 T=20000 delta=1e-5  sigma=%.4f: eps=%.6f in %.1f ms (target <= 20)  |  "
                    "sigma for eps=%g: %.6f in %.1f ms (target <= 100)\n",
                    c.sigma, eps, bestEps, c.targetEps, sigma, bestCal);
        out << "{\"bench\":\"pld\",\"sigma\":" << c.sigma << ",\"epsilon\":" << eps << ",\"epsilon_ms\":" << bestEps
            << ",\"target_eps\":" << c.targetEps << ",\"calibrated_sigma\":" << sigma
            << ",\"calibration_ms\":" << bestCal << "}\n";
    }
    return 0;
}
