#include "core/experiment/utility_sweep.h"

#include "core/model/linear_objective.h"
#include "core/privacy/private_fit.h"
#include "core/util/random.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>

namespace elab::core {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

void meanAndSd(const std::vector<double>& v, double& mean, double& sd) {
    double sum = 0.0;
    for (double x : v)
        sum += x;
    mean = sum / static_cast<double>(v.size());
    double ss = 0.0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
}

const FeatureMatrix& metricX(const SweepData& d, UtilityMetric m) { return usesTestSet(m) ? *d.testX : d.trainX; }
const Eigen::VectorXd& metricY(const SweepData& d, UtilityMetric m) { return usesTestSet(m) ? *d.testY : d.trainY; }

} // namespace

std::string UtilitySweepSpec::validate() const {
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (grid.empty())
        return "the ε grid is empty";
    for (std::size_t k = 0; k < grid.size(); ++k) {
        if (!(grid[k] > 0.0) || !std::isfinite(grid[k]))
            return "every grid ε must be a finite number > 0";
        if (k > 0 && !(grid[k] > grid[k - 1]))
            return "the ε grid must be strictly ascending";
    }
    if (repeats < 1)
        return "repeats must be ≥ 1";
    if (threads < 0)
        return "threads must be ≥ 0";
    if (!measureAt.empty()) {
        if (mechanism.kind != MechanismKind::ObjPertGauss)
            return "Taylor estimates (measuring points) are derived for objpert-gauss only";
        if (!isLossMetric(metric))
            return "Taylor estimates need a differentiable metric (train-loss or test-loss); accuracies are measured only";
        for (double e : measureAt)
            if (!(e > 0.0) || !std::isfinite(e))
                return "measuring points must be finite numbers > 0";
    }
    return {};
}

double meanEstimate(const MeasuringFit& fit, Estimator estimator, double eps) {
    if (fit.points.empty() || (estimator == Estimator::Anchored && fit.anchors.size() != fit.points.size()))
        return NAN;
    double sum = 0.0;
    for (std::size_t r = 0; r < fit.points.size(); ++r)
        sum += estimateUtility(fit.points[r], estimator, eps,
                               estimator == Estimator::Anchored ? &fit.anchors[r] : nullptr);
    return sum / static_cast<double>(fit.points.size());
}

std::vector<double> parseEpsGrid(const std::string& text) {
    auto toDouble = [&](const std::string& s) {
        std::size_t used = 0;
        double v = 0.0;
        try {
            v = std::stod(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != s.size() || s.empty())
            throw std::invalid_argument("not a number: '" + s + "' in ε grid '" + text + "'");
        return v;
    };
    std::vector<double> grid;
    if (const auto c1 = text.find(':'); c1 != std::string::npos) {
        const auto c2 = text.find(':', c1 + 1);
        if (c2 == std::string::npos)
            throw std::invalid_argument("expected A:B:K in ε grid '" + text + "'");
        const double a = toDouble(text.substr(0, c1)), b = toDouble(text.substr(c1 + 1, c2 - c1 - 1));
        const double kd = toDouble(text.substr(c2 + 1));
        const int k = static_cast<int>(kd);
        if (k < 1 || kd != k || !(a > 0) || !(b >= a))
            throw std::invalid_argument("ε grid A:B:K needs 0 < A ≤ B and an integer K ≥ 1: '" + text + "'");
        for (int i = 0; i < k; ++i)
            grid.push_back(k == 1 ? a : a * std::pow(b / a, static_cast<double>(i) / (k - 1)));
    } else {
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            grid.push_back(toDouble(text.substr(pos, comma - pos)));
            pos = comma + 1;
        }
        std::sort(grid.begin(), grid.end());
    }
    return grid;
}

UtilitySweepResult runUtilitySweep(const SweepData& data, const UtilitySweepSpec& spec, RunContext* ctx,
                                   const SweepPointSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    if (usesTestSet(spec.metric) && (!data.testX || !data.testY))
        throw std::invalid_argument(std::string("metric ") + toString(spec.metric) + " needs a test set");
    const auto G = static_cast<Eigen::Index>(spec.grid.size());
    const int R = spec.repeats;
    const Eigen::Index p = data.trainX.cols();
    const std::stop_token stop = ctx ? ctx->stopToken() : std::stop_token();
    const Loss& loss = spec.mechanism.loss;

    UtilitySweepResult result;
    result.grid = spec.grid;
    std::vector<NoiseDraw> noise(static_cast<std::size_t>(R));
    for (int r = 0; r < R; ++r) {
        Rng rng(deriveSeed(spec.seed, static_cast<std::uint64_t>(r)));
        noise[static_cast<std::size_t>(r)] = drawNoise(p, rng);
    }

    // The preconditioner's Gram matrix, once for every fit on this data (empty if p is large).
    const Eigen::MatrixXd gram = gramMatrix(data.trainX);

    // Non-private reference (and the anchor's θ).
    MechanismSpec nonPrivate = spec.mechanism;
    nonPrivate.kind = MechanismKind::NonPrivate;
    const PrivateFit reference = fitPrivate(data.trainX, data.trainY, nonPrivate, 1.0, noise[0], nullptr, stop, {}, &gram);
    result.nonPrivate = evaluateUtility(spec.metric, loss, metricX(data, spec.metric), metricY(data, spec.metric),
                                        reference.theta);

    // Measured grid: values[g][r].
    std::vector<std::vector<double>> values(static_cast<std::size_t>(G), std::vector<double>(static_cast<std::size_t>(R), NAN));
    std::vector<std::atomic<int>> done(static_cast<std::size_t>(G));
    std::atomic<int> fits{0}, finishedFits{0};
    std::mutex sinkMutex, progressMutex;
    const auto start = Clock::now();
    tbb::task_arena arena(spec.threads > 0 ? spec.threads : tbb::task_arena::automatic);
    arena.execute([&] {
        tbb::parallel_for(0, R, [&](int r) {
            Eigen::VectorXd warm;
            for (Eigen::Index g = 0; g < G; ++g) {
                if (stop.stop_requested())
                    return;
                const PrivateFit fit = fitPrivate(data.trainX, data.trainY, spec.mechanism, spec.grid[static_cast<std::size_t>(g)],
                                                  noise[static_cast<std::size_t>(r)], warm.size() ? &warm : nullptr, stop,
                                                  {}, &gram);
                if (fit.solver.status == NewtonCgStatus::Stopped)
                    return;
                warm = fit.minimiser;
                ++fits;
                values[static_cast<std::size_t>(g)][static_cast<std::size_t>(r)] =
                    evaluateUtility(spec.metric, loss, metricX(data, spec.metric), metricY(data, spec.metric), fit.theta);
                if (++done[static_cast<std::size_t>(g)] == R && sink) {
                    SweepPoint point{g, spec.grid[static_cast<std::size_t>(g)], 0.0, 0.0, values[static_cast<std::size_t>(g)]};
                    meanAndSd(point.values, point.mean, point.sd);
                    const std::lock_guard lock(sinkMutex);
                    sink(point);
                }
                if (ctx) {
                    const double fraction = static_cast<double>(++finishedFits) / static_cast<double>(G * R);
                    const std::lock_guard lock(progressMutex);
                    ctx->progress(fraction, "sweep");
                }
            }
        });
    });
    result.secondsMeasured = seconds(start);
    result.fits = fits;
    result.cancelled = stop.stop_requested();
    for (Eigen::Index g = 0; g < G; ++g) {
        if (done[static_cast<std::size_t>(g)] != R)
            continue;
        SweepPoint point{g, spec.grid[static_cast<std::size_t>(g)], 0.0, 0.0, values[static_cast<std::size_t>(g)]};
        meanAndSd(point.values, point.mean, point.sd);
        result.points.push_back(std::move(point));
    }
    result.guaranteeAtMax = perturbedProblem(spec.mechanism, data.trainX.rows(), spec.grid.back(), noise[0]).guarantee;
    if (result.cancelled || spec.measureAt.empty())
        return result;

    // Taylor estimates: one measuring fit per (ε̄, repetition).
    const auto estimatesStart = Clock::now();
    const bool needSecond = std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::SecondOrder) != spec.estimators.end();
    const bool needAnchor = std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::Anchored) != spec.estimators.end();
    const UtilityData utility{metricX(data, spec.metric), metricY(data, spec.metric)};
    std::vector<TaylorAnchor> anchors(static_cast<std::size_t>(R));
    const auto M = spec.measureAt.size();
    std::vector<std::vector<TaylorPoint>> taylor(M, std::vector<TaylorPoint>(static_cast<std::size_t>(R)));
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), M * static_cast<std::size_t>(R), [&](std::size_t k) {
            if (stop.stop_requested())
                return;
            const std::size_t m = k / static_cast<std::size_t>(R), r = k % static_cast<std::size_t>(R);
            const PrivateFit fit = fitPrivate(data.trainX, data.trainY, spec.mechanism, spec.measureAt[m], noise[r],
                                              &reference.minimiser, stop, {}, &gram);
            taylor[m][r] = taylorPoint(data.trainX, data.trainY, spec.mechanism, spec.measureAt[m], noise[r].z,
                                       fit.minimiser, utility, needSecond, &gram);
            if (needAnchor && m == 0) // one anchor per repetition, shared by every measuring point
                anchors[r] = taylorAnchor(data.trainX, data.trainY, spec.mechanism, reference.minimiser, noise[r].z,
                                          utility, &gram);
        });
    });
    result.cancelled = stop.stop_requested();
    if (result.cancelled)
        return result;
    for (std::size_t m = 0; m < M; ++m) {
        MeasuringFit fit{spec.measureAt[m], std::move(taylor[m]), needAnchor ? anchors : std::vector<TaylorAnchor>{}};
        for (Estimator estimator : spec.estimators) {
            EstimateCurve curve;
            curve.measureAt = spec.measureAt[m];
            curve.estimator = estimator;
            for (const TaylorPoint& t : fit.points) {
                curve.measuredValue += t.value / R;
                curve.derivative += t.d1 / R;
            }
            double errorSum = 0.0;
            for (Eigen::Index g = 0; g < G; ++g) {
                curve.values.push_back(meanEstimate(fit, estimator, spec.grid[static_cast<std::size_t>(g)]));
                errorSum += std::abs(curve.values.back() - result.points[static_cast<std::size_t>(g)].mean);
            }
            curve.meanAbsError = errorSum / static_cast<double>(G);
            result.estimates.push_back(std::move(curve));
        }
        result.measuring.push_back(std::move(fit));
    }
    result.secondsEstimates = seconds(estimatesStart);
    return result;
}

} // namespace elab::core
