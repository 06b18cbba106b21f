#include "core/sweeps/utility_sweep.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/scale/cell_stage.h"
#include "core/scale/cell_text.h"

#include "core/util/elapsed.h"
#include "core/util/grid_text.h"
#include "core/util/noise.h"
#include "core/util/parallel_grid.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

using Clock = std::chrono::steady_clock;

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

SweepPoint sweepPoint(std::size_t g, double eps, const std::vector<double>& values) {
    SweepPoint point{static_cast<Eigen::Index>(g), eps, 0.0, 0.0, values};
    meanAndSd(point.values, point.mean, point.sd);
    return point;
}

// A solver summary as exact text (a repetition's cell, core/scale/cell_text.h).
void writeSolver(CellWriter& out, const SolverSummary& s) {
    out.integer(s.fits).integer(s.converged).integer(s.maxIterations).real(s.worstGradientNorm);
    out.integer(static_cast<std::int64_t>(s.notConverged.size()));
    for (const SolverRecord& r : s.notConverged)
        out.real(r.eps)
            .integer(r.repetition)
            .integer(r.model)
            .integer(static_cast<int>(r.status))
            .integer(r.iterations)
            .real(r.gradientNorm);
}

SolverSummary readSolver(CellReader& in) {
    SolverSummary s;
    s.fits = static_cast<int>(in.integer());
    s.converged = static_cast<int>(in.integer());
    s.maxIterations = static_cast<int>(in.integer());
    s.worstGradientNorm = in.real();
    const auto count = in.integer();
    for (std::int64_t k = 0; k < count; ++k) {
        SolverRecord r;
        r.eps = in.real();
        r.repetition = static_cast<int>(in.integer());
        r.model = static_cast<int>(in.integer());
        r.status = static_cast<NewtonCgStatus>(in.integer());
        r.iterations = static_cast<int>(in.integer());
        r.gradientNorm = in.real();
        s.notConverged.push_back(r);
    }
    return s;
}

} // namespace

std::string UtilitySweepSpec::validateRun() const {
    if (grid.empty() && measureAt.empty()) // measuring points alone: a run of the Taylor fits only
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
    for (double e : measureAt)
        if (!(e > 0.0) || !std::isfinite(e))
            return "measuring points must be finite numbers > 0";
    return {};
}

std::string UtilitySweepSpec::validate() const {
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (!measureAt.empty()) {
        if (const MechanismInfo& info = mechanismInfo(mechanism.kind); !info.taylor)
            return std::string("no Taylor estimates (measuring points) for ") + toString(mechanism.kind) + ": " +
                   info.noTaylorReason;
        if (!isLossMetric(metric))
            return "Taylor estimates need a differentiable metric (train-loss or test-loss); accuracies are measured "
                   "only";
    }
    return validateRun();
}

double meanEstimate(const MeasuringFit& fit, Estimator estimator, double eps) {
    const double v = unboundedEstimate(fit, estimator, eps);
    return v < fit.nonPrivate ? fit.nonPrivate : v; // false for NaN: an unknown level holds nothing
}

double unboundedEstimate(const MeasuringFit& fit, Estimator estimator, double eps) {
    if (estimator == Estimator::Variance) { // one curve per model, no repetitions: (1/K) Σ_k F̂_k(ε/K)
        if (!fit.expansions || fit.expansions->empty())
            return NAN;
        double sum = 0.0;
        for (const NoiseExpansion& e : *fit.expansions)
            sum += varianceEstimate(e, eps / static_cast<double>(fit.expansions->size()));
        return sum / static_cast<double>(fit.expansions->size());
    }
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

std::vector<double> parseEpsGrid(const std::string& text) { return parseGridText(text, GridSpacing::Logarithmic, "ε"); }

UtilitySweepResult runUtilitySweep(const SweepData& data, const UtilitySweepSpec& spec, RunContext* ctx,
                                   const SweepPointSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    return runUtilitySweep(*prepareProblem(data, spec.mechanism, spec.metric), spec, ctx, sink);
}

UtilitySweepResult runUtilitySweep(const PreparedProblem& prepared, const UtilitySweepSpec& spec, RunContext* ctx,
                                   const SweepPointSink& sink) {
    const PrivateLearner& learner = prepared.learner();
    if (std::string e = spec.validateRun(); !e.empty())
        throw std::invalid_argument(e);
    if (!spec.measureAt.empty() && !learner.capabilities().taylor)
        throw std::invalid_argument("this learner has no Taylor estimates (measuring points)");
    if (!spec.measureAt.empty() && !isLossMetric(learner.metric()))
        throw std::invalid_argument("Taylor estimates need a differentiable metric (train-loss or test-loss)");
    const auto G = static_cast<std::size_t>(spec.grid.size());
    const auto R = static_cast<std::size_t>(spec.repeats);
    const bool warmStart = learner.capabilities().warmStart;
    ParallelGrid runner(spec.threads, ctx, "sweep");
    const std::stop_token& stop = runner.stopToken();

    UtilitySweepResult result;
    result.grid = spec.grid;
    result.classes = learner.classes();
    result.models = learner.models();
    std::vector<std::shared_ptr<const LearnerNoise>> noise;
    for (std::size_t r = 0; r < R; ++r)
        noise.push_back(learner.drawNoise(spec.seed, static_cast<int>(r)));

    for (double eps : spec.grid)
        result.guarantees.push_back(prepared.guarantee(eps));

    // Non-private reference (and the anchor's θ), only when asked for or needed; kept by the
    // problem. The grid does not read it: it is fitted beside the grid (below), on a worker the
    // grid's last repetitions would leave idle, not alone before it.
    std::shared_ptr<const TrainedModel> reference;
    const bool needReference = spec.reference || !spec.measureAt.empty();
    const auto fitReference = [&] {
        if (needReference)
            reference = prepared.reference(stop, spec.solverOptions);
    };

    // Measured grid: values[g][r]; the solver's outcome of every fit, slot (g, r). Repetition r
    // walks the grid upwards, warm-started from its fit at the previous ε.
    std::vector<std::vector<double>> values(G, std::vector<double>(R, NAN));
    std::vector<SolverSummary> solverSlots(G * R);
    std::vector<std::atomic<int>> done(G);
    std::vector<char> computedHere(R, 0);
    const auto start = Clock::now();
    runner.setUnits(G * R);
    CellStage stage;
    stage.name = "utility";
    stage.count = R;
    stage.describe = [](std::size_t r) { return "repetition " + std::to_string(r); };
    stage.compute = [&](std::size_t r) -> std::optional<std::string> {
        std::shared_ptr<const TrainedModel> previous;
        CellWriter cell;
        for (std::size_t g = 0; g < G; ++g) {
            if (stop.stop_requested())
                return std::nullopt;
            const auto fit =
                learner.fit(spec.grid[g], *noise[r], warmStart ? previous.get() : nullptr, stop, spec.solverOptions);
            if (fit->stopped())
                return std::nullopt;
            previous = fit;
            fit->record(solverSlots[g * R + r], spec.grid[g], static_cast<int>(r));
            values[g][r] = learner.utility(*fit);
            cell.real(values[g][r]);
            writeSolver(cell, solverSlots[g * R + r]);
            if (++done[g] == static_cast<int>(R) && sink) {
                const SweepPoint point = sweepPoint(g, spec.grid[g], values[g]);
                runner.stream([&] { sink(point); });
            }
            runner.unitDone();
        }
        computedHere[r] = 1;
        return cell.text();
    };
    std::vector<std::optional<std::string>> cells(R);
    runner.alongside(fitReference, [&] {
        if (G > 0)
            cells = runCellStage(spec.executor, stage, runner);
    });
    if (reference) {
        result.nonPrivate = learner.utility(*reference);
        reference->record(result.measuringSolver, INFINITY, 0);
        if (learner.capabilities().lossBound && !reference->stopped())
            for (double eps : spec.grid)
                result.trainLossBound.push_back(learner.trainLossBound(eps, *reference));
    }
    // Repetitions computed elsewhere (other ranks, a checkpoint): the same bits into the same slots.
    for (std::size_t r = 0; r < R; ++r) {
        if (!cells[r] || computedHere[r])
            continue;
        CellReader in(*cells[r]);
        for (std::size_t g = 0; g < G; ++g) {
            values[g][r] = in.real();
            solverSlots[g * R + r] = readSolver(in);
            ++done[g];
        }
    }
    result.secondsMeasured = secondsSince(start);
    result.cancelled = stop.stop_requested();
    for (const SolverSummary& slot : solverSlots)
        result.solver.merge(slot);
    result.fits = result.solver.fits;
    for (std::size_t g = 0; g < G; ++g)
        if (done[g] == static_cast<int>(R))
            result.points.push_back(sweepPoint(g, spec.grid[g], values[g]));
    if (!result.guarantees.empty())
        result.guaranteeAtMax = result.guarantees.back();
    if (result.cancelled || spec.measureAt.empty())
        return result;

    // Taylor estimates: one measuring fit per (ε̄, repetition), warm from the non-private models.
    const auto estimatesStart = Clock::now();
    const bool needSecond =
        std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::SecondOrder) != spec.estimators.end();
    const bool needAnchor =
        std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::Anchored) != spec.estimators.end();
    const bool needExpansion =
        std::find(spec.estimators.begin(), spec.estimators.end(), Estimator::Variance) != spec.estimators.end();
    const bool several = learner.models() > 1;
    const auto M = spec.measureAt.size();
    std::vector<MeasuringFit> measuring(M);
    for (std::size_t m = 0; m < M; ++m) {
        measuring[m].measureAt = spec.measureAt[m];
        measuring[m].models = learner.models();
        measuring[m].points.resize(R);
        if (several)
            measuring[m].modelPoints.resize(R);
    }
    std::vector<TaylorAnchor> anchors(R);
    std::vector<std::vector<TaylorAnchor>> modelAnchors(needAnchor && several ? R : 0);
    std::vector<SolverSummary> measuringSlots(M * R);
    runner.run(M * R, [&](std::size_t k) {
        const std::size_t m = k / R, r = k % R;
        const auto fit =
            learner.fit(spec.measureAt[m], *noise[r], warmStart ? reference.get() : nullptr, stop, spec.solverOptions);
        fit->record(measuringSlots[k], spec.measureAt[m], static_cast<int>(r));
        measuring[m].points[r] = learner.taylorPoint(spec.measureAt[m], *noise[r], *fit, needSecond,
                                                     several ? &measuring[m].modelPoints[r] : nullptr);
        if (needAnchor && m == 0) // one anchor per repetition, shared by every measuring point
            anchors[r] = learner.taylorAnchor(*noise[r], *reference, several ? &modelAnchors[r] : nullptr);
    });
    for (const SolverSummary& slot : measuringSlots)
        result.measuringSolver.merge(slot);
    result.cancelled = stop.stop_requested();
    if (result.cancelled)
        return result;
    std::shared_ptr<const std::vector<NoiseExpansion>> expansions;
    if (needExpansion)
        expansions = std::make_shared<const std::vector<NoiseExpansion>>(learner.noiseExpansions(*reference));
    for (MeasuringFit& fit : measuring) {
        fit.nonPrivate = result.nonPrivate;
        fit.expansions = expansions;
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
            curve.meanAbsError = G > 0 ? errorSum / static_cast<double>(G) : NAN;
            result.estimates.push_back(std::move(curve));
        }
        result.measuring.push_back(std::move(fit));
    }
    result.secondsEstimates = secondsSince(estimatesStart);
    return result;
}

} // namespace elab::core
