#include "core/experiment/utility_sweep.h"

#include "core/experiment/one_vs_rest.h"
#include "core/util/grid_text.h"

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
    if (std::string e = solverOptions.validate(); !e.empty())
        return e;
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
    const bool anchored = estimator == Estimator::Anchored;
    if (fit.points.empty() || (anchored && fit.anchors.size() != fit.points.size()))
        return NAN;
    if (fit.models > 1) {
        if (fit.modelPoints.size() != fit.points.size() || (anchored && fit.modelAnchors.size() != fit.points.size()))
            return NAN;
        double sum = 0.0;
        for (std::size_t r = 0; r < fit.points.size(); ++r)
            for (std::size_t k = 0; k < fit.modelPoints[r].size(); ++k)
                sum += estimateUtility(fit.modelPoints[r][k], estimator, eps / fit.models,
                                       anchored ? &fit.modelAnchors[r][k] : nullptr);
        return sum / static_cast<double>(fit.points.size() * static_cast<std::size_t>(fit.models));
    }
    double sum = 0.0;
    for (std::size_t r = 0; r < fit.points.size(); ++r)
        sum += estimateUtility(fit.points[r], estimator, eps,
                               estimator == Estimator::Anchored ? &fit.anchors[r] : nullptr);
    return sum / static_cast<double>(fit.points.size());
}

std::vector<double> parseEpsGrid(const std::string& text) {
    return parseGridText(text, GridSpacing::Logarithmic, "ε");
}

UtilitySweepResult runUtilitySweep(const SweepData& data, const UtilitySweepSpec& spec, RunContext* ctx,
                                   const SweepPointSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    const OneVsRest problem(data, spec.mechanism, spec.metric);
    const auto G = static_cast<std::size_t>(spec.grid.size());
    const auto R = static_cast<std::size_t>(spec.repeats);
    const auto K = static_cast<std::size_t>(problem.models());
    const std::stop_token stop = ctx ? ctx->stopToken() : std::stop_token();

    UtilitySweepResult result;
    result.grid = spec.grid;
    result.classes = problem.classes();
    result.models = problem.models();
    std::vector<std::vector<NoiseDraw>> noise;
    for (std::size_t r = 0; r < R; ++r)
        noise.push_back(problem.drawNoise(spec.seed, static_cast<int>(r)));

    for (double eps : spec.grid)
        result.guarantees.push_back(problem.guarantee(eps));

    // Non-private reference (and the anchor's θ), only when asked for or needed.
    OneVsRest::Models reference;
    if (spec.reference || !spec.measureAt.empty()) {
        reference = problem.fitNonPrivate(stop, spec.solverOptions);
        result.nonPrivate = problem.utility(reference);
        problem.record(result.measuringSolver, reference, INFINITY, 0);
    }
    const std::vector<Eigen::VectorXd> referenceMinimisers = OneVsRest::minimisers(reference);

    // Measured grid: values[g][r]; the solver's outcome of every fit, slot (g, r).
    std::vector<std::vector<double>> values(G, std::vector<double>(R, NAN));
    std::vector<SolverSummary> solverSlots(G * R);
    std::vector<std::atomic<int>> done(G);
    std::atomic<int> finishedFits{0};
    std::mutex sinkMutex, progressMutex;
    const auto start = Clock::now();
    tbb::task_arena arena(spec.threads > 0 ? spec.threads : tbb::task_arena::automatic);
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), R, [&](std::size_t r) {
            std::vector<Eigen::VectorXd> warm;
            for (std::size_t g = 0; g < G; ++g) {
                if (stop.stop_requested())
                    return;
                const OneVsRest::Models fits =
                    problem.fit(spec.grid[g], noise[r], warm.empty() ? nullptr : &warm, stop, spec.solverOptions);
                if (OneVsRest::stopped(fits))
                    return;
                warm = OneVsRest::minimisers(fits);
                problem.record(solverSlots[g * R + r], fits, spec.grid[g], static_cast<int>(r));
                values[g][r] = problem.utility(fits);
                if (++done[g] == static_cast<int>(R) && sink) {
                    SweepPoint point{static_cast<Eigen::Index>(g), spec.grid[g], 0.0, 0.0, values[g]};
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
    result.cancelled = stop.stop_requested();
    for (const SolverSummary& slot : solverSlots)
        result.solver.merge(slot);
    result.fits = result.solver.fits;
    for (std::size_t g = 0; g < G; ++g) {
        if (done[g] != static_cast<int>(R))
            continue;
        SweepPoint point{static_cast<Eigen::Index>(g), spec.grid[g], 0.0, 0.0, values[g]};
        meanAndSd(point.values, point.mean, point.sd);
        result.points.push_back(std::move(point));
    }
    result.guaranteeAtMax = result.guarantees.back();
    if (result.cancelled || spec.measureAt.empty())
        return result;

    // Taylor estimates: one measuring fit per (ε̄, repetition), warm from the non-private models.
    const auto estimatesStart = Clock::now();
    const bool needSecond = std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::SecondOrder) != spec.estimators.end();
    const bool needAnchor = std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::Anchored) != spec.estimators.end();
    const bool oneVsRest = K > 1;
    const auto M = spec.measureAt.size();
    std::vector<MeasuringFit> measuring(M);
    for (std::size_t m = 0; m < M; ++m) {
        measuring[m].measureAt = spec.measureAt[m];
        measuring[m].models = static_cast<int>(K);
        measuring[m].points.resize(R);
        if (oneVsRest)
            measuring[m].modelPoints.resize(R);
    }
    std::vector<TaylorAnchor> anchors(R);
    std::vector<std::vector<TaylorAnchor>> modelAnchors(needAnchor && oneVsRest ? R : 0);
    std::vector<SolverSummary> measuringSlots(M * R);
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), M * R, [&](std::size_t k) {
            if (stop.stop_requested())
                return;
            const std::size_t m = k / R, r = k % R;
            const OneVsRest::Models fits =
                problem.fit(spec.measureAt[m], noise[r], &referenceMinimisers, stop, spec.solverOptions);
            problem.record(measuringSlots[k], fits, spec.measureAt[m], static_cast<int>(r));
            measuring[m].points[r] = problem.taylorPoint(spec.measureAt[m], noise[r], fits, needSecond,
                                                         oneVsRest ? &measuring[m].modelPoints[r] : nullptr);
            if (needAnchor && m == 0) // one anchor per repetition, shared by every measuring point
                anchors[r] = problem.taylorAnchor(noise[r], reference, oneVsRest ? &modelAnchors[r] : nullptr);
        });
    });
    for (const SolverSummary& slot : measuringSlots)
        result.measuringSolver.merge(slot);
    result.cancelled = stop.stop_requested();
    if (result.cancelled)
        return result;
    for (MeasuringFit& fit : measuring) {
        if (needAnchor) {
            fit.anchors = anchors;
            fit.modelAnchors = modelAnchors;
        }
        for (Estimator estimator : spec.estimators) {
            EstimateCurve curve;
            curve.measureAt = fit.measureAt;
            curve.estimator = estimator;
            for (const TaylorPoint& t : fit.points) {
                curve.measuredValue += t.value / static_cast<double>(R);
                curve.derivative += t.d1 / static_cast<double>(R);
            }
            double errorSum = 0.0;
            for (std::size_t g = 0; g < G; ++g) {
                curve.values.push_back(meanEstimate(fit, estimator, spec.grid[g]));
                errorSum += std::abs(curve.values.back() - result.points[g].mean);
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
