#pragma once
// DP-SGD exactly as docs/MATH.md §3.6, per step t: a Poisson sample of the rows at rate q; each
// example's gradient clipped (total or per layer, norms from ‖δ_i‖·‖a_i‖ without per-example
// matrices: core/learners/dpsgd/network.h); G = Σ clipped + N(0, σ²C²I) with C the sensitivity;
// θ ← θ − η_e (G/S + λθ), η_e = η₀/e^γ for epoch e (1-based). Non-private SGD (the ε = ∞
// reference): the same samples, no clipping, no noise.
//
// Deterministic: the initial network from (seed, repetition); step t's sample, dropout masks
// and noise from (seed, repetition, t) — the standard normals are the same at every σ, so a
// sweep over ε moves one run continuously. Noise is drawn in fixed chunks of its own streams,
// so the result is bit-identical for any thread count. Cancellable between steps.
//
// The hidden layer's two large products run in single precision when SgdSpec::singlePrecision
// says so (core/learners/dpsgd/network_single.h): the rows are then held once more as floats
// (half the size of the matrix) and a step allocates nothing once the largest batch has been seen.

#include "core/learner/sgd_spec.h"
#include "core/learners/dpsgd/network.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <vector>

namespace elab::core {

struct SgdRun {
    double sigma = 0.0;    ///< noise multiplier: noise sd = σ·sensitivity
    bool isPrivate = true; ///< false: no clipping, no noise
    std::uint64_t seed = 0;
    int repetition = 0;
};

/// What one epoch ended with (the network as it stands, no dropout).
struct EpochReport {
    int epoch = 0;       ///< 1-based
    long long steps = 0; ///< steps so far
    double learningRate = 0.0;
    ClassificationMetrics train; ///< on an evenly spaced subset of at most SgdMonitor::trainRows rows
    ClassificationMetrics test;  ///< NaN without a test set
};

/// Optional per-epoch reporting (costs one forward pass over the evaluated rows per epoch).
struct SgdMonitor {
    const FeatureMatrix* testX = nullptr;
    const Eigen::VectorXi* testClasses = nullptr;
    Index trainRows = 5000;
    std::function<void(const EpochReport&)> onEpoch;
};

struct SgdResult {
    Network net;
    std::vector<EpochReport> epochs; ///< with a monitor only
    long long steps = 0;
    double meanBatch = 0.0; ///< the mean sampled batch size (≈ S)
    bool stopped = false;   ///< cancelled: net is partial and must not be released
};

/// The white-box audit's view of a private run (core/audit/whitebox_dpsgd_audit.h); nullptr in
/// every product run, and a hook with no canaries and no observer changes nothing.
struct SgdAuditHook {
    /// An extra example whose gradient is `gradient` at one parameter, W(row, col) of layer
    /// `layer`, and 0 elsewhere: clipped by the run's rule (Total: to norm C; PerLayer: to C_l,
    /// its layer's threshold) and, like every row, in each step's batch with probability q —
    /// from a stream of its own (seed, repetition, step), one uniform per canary in order, so
    /// the rows' samples, masks and noise are those of the run without the hook.
    struct GradientCanary {
        int layer = 0;
        Index row = 0;
        Index col = 0;
        double gradient = 0.0;
    };
    std::vector<GradientCanary> canaries;
    /// Called at every step (on the training thread) with the clipped sum of the sampled rows
    /// alone and the step's noisy clipped sum G — rows, canaries and N(0, σ²C²) — just before
    /// θ ← θ − η(G/S + λθ): every iterate follows from θ₀ and the G's.
    std::function<void(long long step, const Network& rowsSum, const Network& noisySum)> onStep;
};

/// Trains on X (rows clipped as everywhere) with class indices y ∈ 0..classes−1. hook: the
/// white-box audit's canaries and view (nullptr: none). Throws std::invalid_argument for an
/// invalid spec, mismatched inputs or a canary outside the network.
SgdResult trainSgd(const FeatureMatrix& X, const Eigen::VectorXi& y, int classes, const SgdSpec& spec,
                   const SgdRun& run, std::stop_token stop = {}, const SgdMonitor* monitor = nullptr,
                   const SgdAuditHook* hook = nullptr);

/// The Poisson sample of step `step`: each of n rows independently with probability q, from
/// the stream (seed, repetition, step). Exposed for tests.
std::vector<Index> poissonSample(Index n, double q, std::uint64_t seed, int repetition, long long step);
/// The same into rows (cleared first; its capacity reused).
void poissonSampleInto(std::vector<Index>& rows, Index n, double q, std::uint64_t seed, int repetition, long long step);

/// count standard normals of step `step`'s noise, in fixed chunks of their own streams
/// (identical for any thread count). Exposed for tests.
void stepNoise(Eigen::VectorXd& out, Index count, std::uint64_t seed, int repetition, long long step, int threads);

} // namespace elab::core
