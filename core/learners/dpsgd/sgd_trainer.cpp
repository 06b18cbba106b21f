#include "core/learners/dpsgd/sgd_trainer.h"

#include "core/learners/dpsgd/network_single.h"

#include "core/util/normal_sampler.h"
#include "core/util/random.h"
#include "core/util/worker_observer.h"
#include "core/util/ziggurat_normal.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace elab::core {

namespace {

// Stream ids under (seed, repetition).
constexpr std::uint64_t kInitStream = 1;
constexpr std::uint64_t kStepStream = 2;
// Sub-streams of one step.
constexpr std::uint64_t kSampleStream = 0;
constexpr std::uint64_t kDropoutStream = 1;
constexpr std::uint64_t kNoiseStream = 2;
constexpr std::uint64_t kCanaryStream = 3; // the audit hook's canaries only
constexpr Index kNoiseChunk = 1 << 13;

std::uint64_t stepSeed(std::uint64_t seed, int repetition, long long step, std::uint64_t stream) {
    return deriveSeed(deriveSeed(seed, static_cast<std::uint64_t>(repetition), kStepStream),
                      static_cast<std::uint64_t>(step), stream);
}

/// The dropout multipliers of a b × H batch: Bernoulli (kept with 1 − p, scaled by 1/(1 − p))
/// or Gaussian N(1, p/(1 − p)); mean 1 either way. growOnly: mask keeps its size when it has at
/// least b rows (its first b rows are the batch's), else it is made b × H exactly.
void dropoutMask(Eigen::MatrixXd& mask, Index rows, Index hidden, DropoutKind kind, double p, std::uint64_t streamSeed,
                 bool growOnly) {
    if (!growOnly || mask.rows() < rows || mask.cols() != hidden)
        mask.resize(rows, hidden);
    Rng rng(streamSeed);
    if (kind == DropoutKind::Bernoulli) {
        const double keep = 1.0 - p;
        for (Index j = 0; j < hidden; ++j)
            for (Index i = 0; i < rows; ++i)
                mask(i, j) = uniform01(rng) < keep ? 1.0 / keep : 0.0;
    } else {
        NormalSampler normal(rng);
        const double sd = std::sqrt(p / (1.0 - p));
        for (Index j = 0; j < hidden; ++j)
            for (Index i = 0; i < rows; ++i)
                mask(i, j) = 1.0 + sd * normal();
    }
}

/// Adds scale·noise to every parameter, layer by layer (W column-major, then b).
void addNoise(Network& net, const Eigen::VectorXd& noise, double scale) {
    Index at = 0;
    for (DenseLayer& l : net.layers) {
        l.W.reshaped() += scale * noise.segment(at, l.W.size());
        at += l.W.size();
        l.b += scale * noise.segment(at, l.b.size());
        at += l.b.size();
    }
}

/// Evenly spaced rows 0, n/m, 2n/m, … (m = min(n, cap)).
std::vector<Index> evenlySpaced(Index n, Index cap) {
    const Index m = std::min(n, std::max<Index>(1, cap));
    std::vector<Index> rows(static_cast<std::size_t>(m));
    for (Index k = 0; k < m; ++k)
        rows[static_cast<std::size_t>(k)] = k * n / m;
    return rows;
}

Eigen::VectorXi selectClasses(const Eigen::VectorXi& y, const std::vector<Index>& rows) {
    Eigen::VectorXi out(static_cast<Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k)
        out(static_cast<Index>(k)) = y(rows[k]);
    return out;
}

/// A gradient canary's one coordinate after the run's clipping (a one-coordinate vector's norm
/// is its absolute value; PerLayer clips it to its own layer's threshold).
double clippedCanary(double gradient, const ClipRule& rule) {
    if (!rule.clip || std::abs(gradient) <= rule.threshold)
        return gradient;
    return std::copysign(rule.threshold, gradient);
}

void checkCanaries(const SgdAuditHook& hook, const Network& net) {
    for (const SgdAuditHook::GradientCanary& c : hook.canaries) {
        if (c.layer < 0 || c.layer >= static_cast<int>(net.layers.size()))
            throw std::invalid_argument("DP-SGD audit hook: a canary names layer " + std::to_string(c.layer) +
                                        " of a network with " + std::to_string(net.layers.size()));
        const Eigen::MatrixXd& W = net.layers[static_cast<std::size_t>(c.layer)].W;
        if (c.row < 0 || c.row >= W.rows() || c.col < 0 || c.col >= W.cols())
            throw std::invalid_argument("DP-SGD audit hook: a canary names W(" + std::to_string(c.row) + ", " +
                                        std::to_string(c.col) + ") of a " + std::to_string(W.rows()) + " × " +
                                        std::to_string(W.cols()) + " layer");
        if (!std::isfinite(c.gradient))
            throw std::invalid_argument("DP-SGD audit hook: a canary's gradient must be finite");
    }
}

} // namespace

void poissonSampleInto(std::vector<Index>& rows, Index n, double q, std::uint64_t seed, int repetition,
                       long long step) {
    rows.clear();
    rows.reserve(static_cast<std::size_t>(std::ceil(q * static_cast<double>(n) * 1.2)) + 8);
    Rng rng(stepSeed(seed, repetition, step, kSampleStream));
    for (Index i = 0; i < n; ++i)
        if (uniform01(rng) < q)
            rows.push_back(i);
}

std::vector<Index> poissonSample(Index n, double q, std::uint64_t seed, int repetition, long long step) {
    std::vector<Index> rows;
    poissonSampleInto(rows, n, q, seed, repetition, step);
    return rows;
}

void stepNoise(Eigen::VectorXd& out, Index count, std::uint64_t seed, int repetition, long long step, int threads) {
    out.resize(count);
    const std::uint64_t base = stepSeed(seed, repetition, step, kNoiseStream);
    const Index chunks = (count + kNoiseChunk - 1) / kNoiseChunk;
    const auto fill = [&](Index c) {
        Xoshiro256pp rng(deriveSeed(base, static_cast<std::uint64_t>(c)));
        ZigguratNormal<Xoshiro256pp> normal(rng);
        const Index end = std::min(count, (c + 1) * kNoiseChunk);
        for (Index i = c * kNoiseChunk; i < end; ++i)
            out(i) = normal();
    };
    if (threads == 1 || chunks <= 1) {
        for (Index c = 0; c < chunks; ++c)
            fill(c);
        return;
    }
    tbb::parallel_for(tbb::blocked_range<Index>(0, chunks), [&](const tbb::blocked_range<Index>& r) {
        for (Index c = r.begin(); c < r.end(); ++c)
            fill(c);
    });
}

SgdResult trainSgd(const FeatureMatrix& X, const Eigen::VectorXi& y, int classes, const SgdSpec& spec,
                   const SgdRun& run, std::stop_token stop, const SgdMonitor* monitor, const SgdAuditHook* hook) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument("DP-SGD: " + e);
    if (y.size() != X.rows())
        throw std::invalid_argument("DP-SGD: one class per training row is needed");
    if (classes < 2)
        throw std::invalid_argument("DP-SGD: at least two classes are needed");
    if (X.rows() == 0)
        throw std::invalid_argument("DP-SGD: no training rows");
    if (y.minCoeff() < 0 || y.maxCoeff() >= classes)
        throw std::invalid_argument("DP-SGD: class indices must lie in 0 … K−1");
    if (run.isPrivate && !(run.sigma >= 0.0 && std::isfinite(run.sigma)))
        throw std::invalid_argument("DP-SGD: the noise multiplier σ must be a finite number ≥ 0");

    const Index n = X.rows();
    const double q = spec.samplingRate(n);
    const long long perEpoch = spec.stepsPerEpoch(n);
    const double noiseSd = run.isPrivate ? run.sigma * spec.sensitivity() : 0.0;
    // Single precision: the hidden layer's products in float, with the clip margin that keeps every
    // example's contribution within C despite their rounding (docs/MATH.md §3.6).
    const bool single = spec.singlePrecision(X.cols(), X.isSparse());
    const ClipRule rule{run.isPrivate, spec.clipMode, spec.clip, single ? kSingleClipMargin : 0.0};
    const int threads = spec.threads;

    SgdResult result;
    result.net = initialNetwork(X.cols(), spec.hidden, classes,
                                deriveSeed(run.seed, static_cast<std::uint64_t>(run.repetition), kInitStream));
    Network grad = result.net;
    Network rowsSum; // the audit hook's view only
    BatchWork work;
    Eigen::MatrixXd mask;
    Eigen::VectorXd noise;
    const Index parameters = result.net.parameterCount();
    if (hook)
        checkCanaries(*hook, result.net);

    std::vector<Index> evalRows;
    FeatureMatrix evalX;
    Eigen::VectorXi evalY;
    if (monitor && monitor->onEpoch) {
        evalRows = evenlySpaced(n, monitor->trainRows);
        if (!single) // single precision: the rows are taken from its float copy of X below
            evalX = X.selectRows(evalRows);
        evalY = selectClasses(y, evalRows);
    }

    tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
    WorkerObserver workers(arena); // each worker joining runs the process's hook (core/util/worker_threads.h)
    SingleRows singleX, singleEval, singleTest;
    SingleWork singleWork;
    const bool singleTestSet = single && monitor && monitor->onEpoch && monitor->testX && monitor->testClasses &&
                               !monitor->testX->isSparse() && monitor->testX->cols() == X.cols();
    std::vector<Index> rows;
    arena.execute([&] {
        if (single) {
            singleX = singleRows(X);
            if (monitor && monitor->onEpoch) {
                singleEval.columns.resize(singleX.cols(), static_cast<Index>(evalRows.size()));
                for (std::size_t k = 0; k < evalRows.size(); ++k)
                    singleEval.columns.col(static_cast<Index>(k)) = singleX.columns.col(evalRows[k]);
            }
            if (singleTestSet)
                singleTest = singleRows(*monitor->testX);
        }
        const auto logits = [&](const FeatureMatrix& rowsX, const SingleRows& rowsSingle, bool useSingle) {
            return useSingle ? networkLogitsSingle(result.net, rowsSingle) : networkLogits(result.net, rowsX);
        };
        long long step = 0;
        double batchTotal = 0.0;
        for (int epoch = 1; epoch <= spec.epochs; ++epoch) {
            const double eta = spec.learningRate / std::pow(static_cast<double>(epoch), spec.gamma);
            for (long long s = 0; s < perEpoch; ++s, ++step) {
                if (stop.stop_requested()) {
                    result.stopped = true;
                    result.steps = step;
                    return;
                }
                poissonSampleInto(rows, n, q, run.seed, run.repetition, step);
                batchTotal += static_cast<double>(rows.size());
                const Eigen::MatrixXd* maskPtr = nullptr;
                if (spec.dropout != DropoutKind::None) {
                    dropoutMask(mask, static_cast<Index>(rows.size()), spec.hidden, spec.dropout, spec.dropoutRate,
                                stepSeed(run.seed, run.repetition, step, kDropoutStream), single);
                    maskPtr = &mask;
                }
                if (single) {
                    clippedGradientSumSingle(result.net, singleX, rows, y, maskPtr, rule, singleWork, grad);
                } else {
                    const FeatureMatrix batch = X.selectRows(rows);
                    const Eigen::VectorXi batchY = selectClasses(y, rows);
                    clippedGradientSum(result.net, batch, batchY, maskPtr, rule, work, grad);
                }
                if (hook && hook->onStep)
                    rowsSum = grad;
                if (hook && !hook->canaries.empty()) {
                    Rng canaryRng(stepSeed(run.seed, run.repetition, step, kCanaryStream));
                    for (const SgdAuditHook::GradientCanary& c : hook->canaries)
                        if (uniform01(canaryRng) < q)
                            grad.layers[static_cast<std::size_t>(c.layer)].W(c.row, c.col) +=
                                clippedCanary(c.gradient, rule);
                }
                if (noiseSd > 0.0) {
                    stepNoise(noise, parameters, run.seed, run.repetition, step, threads);
                    addNoise(grad, noise, noiseSd);
                }
                if (hook && hook->onStep)
                    hook->onStep(step, rowsSum, grad);
                // θ ← θ − η (G/S + λθ)
                if (spec.weightDecay > 0.0)
                    for (DenseLayer& l : result.net.layers) {
                        l.W *= 1.0 - eta * spec.weightDecay;
                        l.b *= 1.0 - eta * spec.weightDecay;
                    }
                result.net.addScaled(grad, -eta / spec.batchSize);
            }
            if (monitor && monitor->onEpoch) {
                EpochReport report;
                report.epoch = epoch;
                report.steps = step;
                report.learningRate = eta;
                report.train = classificationMetrics(logits(evalX, singleEval, single), evalY);
                if (monitor->testX && monitor->testClasses)
                    report.test = classificationMetrics(logits(*monitor->testX, singleTest, singleTestSet),
                                                        *monitor->testClasses);
                else
                    report.test = {std::nan(""), std::nan("")};
                result.epochs.push_back(report);
                monitor->onEpoch(report);
            }
        }
        result.steps = step;
        result.meanBatch = step > 0 ? batchTotal / static_cast<double>(step) : 0.0;
    });
    return result;
}

} // namespace elab::core
