#include "core/stability/stability_sweep.h"

#include "core/scale/cell_stage.h"
#include "core/scale/cell_text.h"
#include "core/util/elapsed.h"
#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kFullStream = 0x66756C6C64617461ULL; // "fulldata": full-data fits' masks
constexpr std::uint64_t kCvStream = 0x6376;                  // CV folds on all the data
constexpr std::uint64_t kSampleStream = 0x7374616269ULL;     // rows i of the model stability

std::uint64_t maskSeed(std::uint64_t seed, std::uint64_t g, std::uint64_t r, std::size_t m) {
    return deriveSeed(deriveSeed(seed, g, r), 0x6D61736BULL + m); // "mask"
}

bool deterministicLearner(StabilityMethod method, const StabilitySpec& spec) {
    return method != StabilityMethod::Dropout && !(method == StabilityMethod::L2 && spec.cvPerFit);
}

struct Subset {
    FeatureMatrix X;
    Eigen::VectorXd y;
};

Subset selectRows(const FeatureMatrix& X, const Eigen::VectorXd& y, const std::vector<Index>& rows) {
    Subset s{X.selectRows(rows), Eigen::VectorXd(static_cast<Index>(rows.size()))};
    for (std::size_t k = 0; k < rows.size(); ++k)
        s.y[static_cast<Index>(k)] = y[rows[k]];
    return s;
}

void checkData(const StabilityData& data, const StabilitySpec& spec) {
    if (data.trainX.rows() != data.trainY.size() || data.testX.rows() != data.testY.size())
        throw std::invalid_argument("features and targets differ in length");
    if (data.trainX.cols() != data.testX.cols())
        throw std::invalid_argument("the test set has another number of features than the training set");
    if (data.trainX.rows() < 4 || data.testX.rows() < 1)
        throw std::invalid_argument("the stability study needs at least 4 training rows and 1 test row");
    if (spec.learner.model == StabilityModel::Logistic)
        for (const Eigen::VectorXd* y : {&data.trainY, &data.testY})
            if (!(y->array().abs() == 1.0).all())
                throw std::invalid_argument("logistic regression needs binary labels ±1");
}

} // namespace

std::string StabilitySpec::validate() const {
    if (std::string e = learner.validate(); !e.empty())
        return e;
    if (methods.empty())
        return "no methods";
    for (std::size_t a = 0; a < methods.size(); ++a)
        for (std::size_t b = a + 1; b < methods.size(); ++b)
            if (methods[a] == methods[b])
                return std::string("method ") + toString(methods[a]) + " listed twice";
    if (rho.empty())
        return "the ρ grid is empty";
    for (std::size_t k = 0; k < rho.size(); ++k) {
        if (!(rho[k] >= 0.0 && rho[k] < 1.0))
            return "every ρ must be in [0, 1)";
        if (k > 0 && !(rho[k] > rho[k - 1]))
            return "the ρ grid must be strictly ascending";
    }
    if (repeats < 1)
        return "repeats must be ≥ 1";
    if (stabilitySamples < 0)
        return "stability samples must be ≥ 0";
    if (threads < 0)
        return "threads must be ≥ 0";
    return {};
}

MeanSd meanSd(const std::vector<double>& values) {
    if (values.empty())
        return {NAN, NAN};
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const double mean = sum / static_cast<double>(values.size());
    double ss = 0.0;
    for (double v : values)
        ss += (v - mean) * (v - mean);
    return {mean, values.size() > 1 ? std::sqrt(ss / static_cast<double>(values.size() - 1)) : 0.0};
}

StabilityResult runStabilitySweep(const StabilityData& data, const StabilitySpec& spec, RunContext* ctx,
                                  const StabilityCellSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    checkData(data, spec);
    const std::size_t G = spec.rho.size(), M = spec.methods.size(), R = static_cast<std::size_t>(spec.repeats);
    const Index n = data.trainX.rows();
    const LearnerOptions& learner = spec.learner;
    ParallelGrid runner(spec.threads, ctx, "stability");
    const std::stop_token& stop = runner.stopToken();
    const bool adversarial = spec.removal == RemovalKind::Adversarial;
    auto needed = [&](std::size_t m) {
        return adversarial && deterministicLearner(spec.methods[m], spec) ? std::size_t(1) : R;
    };
    const auto S = static_cast<std::size_t>(std::min<Index>(spec.stabilitySamples, n));

    StabilityResult result;
    result.rho = spec.rho;
    result.methods = spec.methods;
    result.removal = spec.removal;
    std::atomic<int> fits{0};
    std::size_t totalTasks = 0;
    for (std::size_t m = 0; m < M; ++m)
        totalTasks += (spec.methods[m] == StabilityMethod::Dropout ? R : 1) + G * needed(m) + S;
    runner.setUnits(totalTasks);
    // XXᵀ of all training rows, for the dual preconditioner of the L2 fits (each fit takes its rows' submatrix).
    const bool anyL2 = std::find(spec.methods.begin(), spec.methods.end(), StabilityMethod::L2) != spec.methods.end();
    const Eigen::MatrixXd gram = anyL2 && usesRowGram(data.trainX) ? rowGram(data.trainX) : Eigen::MatrixXd();
    const Eigen::MatrixXd* fullGram = gram.size() > 0 ? &gram : nullptr;

    // 1. Baselines: CV for L2, then the full-data fits (R seeded ones for dropout GD).
    auto start = Clock::now();
    std::vector<std::pair<std::size_t, std::size_t>> baseTasks; // (method, repetition)
    for (std::size_t m = 0; m < M; ++m)
        for (std::size_t r = 0; r < (spec.methods[m] == StabilityMethod::Dropout ? R : 1); ++r)
            baseTasks.emplace_back(m, r);
    std::vector<std::vector<LearnerFit>> full(M);
    std::vector<std::vector<double>> fullErrors(M);
    result.baselines.resize(M);
    for (std::size_t m = 0; m < M; ++m) {
        full[m].resize(spec.methods[m] == StabilityMethod::Dropout ? R : 1);
        fullErrors[m].resize(full[m].size());
        result.baselines[m].method = spec.methods[m];
    }
    runner.run(baseTasks.size(), [&](std::size_t k) {
        const auto [m, r] = baseTasks[k];
        MethodBaseline& base = result.baselines[m];
        if (spec.methods[m] == StabilityMethod::L2) {
            base.cv = chooseL2ByCrossValidation(data.trainX, data.trainY, learner, deriveSeed(spec.seed, kCvStream),
                                                stop, fullGram);
            base.mu = base.cv.chosen;
        }
        full[m][r] = fitLearner(spec.methods[m], data.trainX, data.trainY, learner, base.mu,
                                maskSeed(spec.seed, kFullStream, r, m), nullptr, stop, -1, fullGram);
        fullErrors[m][r] = predictionError(learner.model, full[m][r].model, data.testX, data.testY);
        ++fits;
        runner.unitDone();
    });
    result.secondsBaseline = secondsSince(start);
    if (stop.stop_requested()) {
        result.cancelled = true;
        result.fits = fits;
        return result;
    }
    // Adversarial scores |⟨x_i, θ_full⟩| of each (method, repetition) full fit.
    std::vector<std::vector<Eigen::VectorXd>> scores(M);
    for (std::size_t m = 0; m < M; ++m) {
        MethodBaseline& base = result.baselines[m];
        const LearnerFit& first = full[m][0];
        base.fullError = meanSd(fullErrors[m]);
        base.trainLoss = first.trainLoss;
        base.thetaNorm = first.model.theta.norm();
        base.separable = first.separable;
        base.iterations = first.iterations;
        base.status = first.status;
        if (adversarial)
            for (const LearnerFit& f : full[m])
                scores[m].push_back(predict({f.model.theta, 0.0}, data.trainX));
    }

    // 2. The removal grid: tasks (ρ, method, repetition).
    start = Clock::now();
    struct Task {
        std::size_t g, m, r;
    };
    std::vector<Task> tasks;
    for (std::size_t g = 0; g < G; ++g)
        for (std::size_t m = 0; m < M; ++m)
            for (std::size_t r = 0; r < needed(m); ++r)
                tasks.push_back({g, m, r});
    std::vector<std::vector<double>> errors(G * M, std::vector<double>(R, NAN));
    std::vector<std::atomic<std::size_t>> done(G * M);
    std::vector<std::atomic<int>> separable(G * M), notConverged(G * M);
    auto makeCell = [&](std::size_t g, std::size_t m) {
        StabilityCell cell;
        cell.rhoIndex = g;
        cell.rho = spec.rho[g];
        cell.methodIndex = m;
        cell.method = spec.methods[m];
        cell.removed = removalCount(n, spec.rho[g]);
        cell.errors = errors[g * M + m];
        cell.testError = meanSd(cell.errors);
        const double err0 = result.baselines[m].fullError.mean;
        std::vector<double> marginal;
        for (double e : cell.errors)
            marginal.push_back(std::abs(e - err0));
        cell.marginalError = meanSd(marginal);
        cell.meanDifference = std::abs(cell.testError.mean - err0);
        cell.separable = separable[g * M + m];
        cell.notConverged = notConverged[g * M + m];
        return cell;
    };
    // A task's outcome into its cell's slots (computed here, or read back).
    auto record = [&](std::size_t k, double err, bool isSeparable, bool converged) {
        const auto [g, m, r] = tasks[k];
        const std::size_t copies = needed(m) == 1 ? R : 1;
        for (std::size_t c = 0; c < copies; ++c)
            errors[g * M + m][copies == 1 ? r : c] = err;
        separable[g * M + m] += isSeparable ? static_cast<int>(copies) : 0;
        notConverged[g * M + m] += converged ? 0 : static_cast<int>(copies);
        if (++done[g * M + m] == needed(m) && sink) {
            const StabilityCell cell = makeCell(g, m);
            runner.stream([&] { sink(cell); });
        }
    };
    std::vector<char> computedHere(tasks.size(), 0);
    CellStage removalStage;
    removalStage.name = "stability.removal";
    removalStage.count = tasks.size();
    removalStage.cost = [&](std::size_t k) { // rows kept; dropout GD runs many epochs
        const Task& t = tasks[k];
        return (1.0 - spec.rho[t.g]) * (spec.methods[t.m] == StabilityMethod::Dropout ? 4.0 : 1.0);
    };
    removalStage.describe = [&](std::size_t k) {
        return "ρ = " + std::to_string(spec.rho[tasks[k].g]) + ", method " + toString(spec.methods[tasks[k].m]) +
               ", repetition " + std::to_string(tasks[k].r);
    };
    removalStage.compute = [&](std::size_t k) -> std::optional<std::string> {
        const auto [g, m, r] = tasks[k];
        const StabilityMethod method = spec.methods[m];
        const Index remove = removalCount(n, spec.rho[g]);
        const std::vector<Index> keep =
            adversarial ? adversarialKeep(scores[m][method == StabilityMethod::Dropout ? r : 0], remove)
                        : randomKeep(n, remove, deriveSeed(spec.seed, g, r));
        const Subset subset = selectRows(data.trainX, data.trainY, keep);
        const Eigen::MatrixXd subGram =
            method == StabilityMethod::L2 && fullGram ? selectGram(*fullGram, keep) : Eigen::MatrixXd();
        double mu = result.baselines[m].mu;
        if (method == StabilityMethod::L2 && spec.cvPerFit)
            mu = chooseL2ByCrossValidation(subset.X, subset.y, learner, deriveSeed(spec.seed, g, r), stop,
                                           subGram.size() > 0 ? &subGram : nullptr)
                     .chosen;
        const bool warmable = method == StabilityMethod::L2 || method == StabilityMethod::DeterministicDropout;
        const LearnerFit fit =
            fitLearner(method, subset.X, subset.y, learner, mu, maskSeed(spec.seed, g, r, m),
                       warmable ? &full[m][0].model : nullptr, stop, -1, subGram.size() > 0 ? &subGram : nullptr);
        if (stop.stop_requested())
            return std::nullopt; // possibly cut short: the cell stays incomplete
        ++fits;
        const double err = predictionError(learner.model, fit.model, data.testX, data.testY);
        const bool converged = fit.status == NewtonCgStatus::Converged;
        record(k, err, fit.separable, converged);
        runner.unitDone();
        computedHere[k] = 1;
        return CellWriter().real(err).integer(fit.separable ? 1 : 0).integer(converged ? 1 : 0).text();
    };
    const auto removalCells = runCellStage(spec.executor, removalStage, runner);
    for (std::size_t k = 0; k < tasks.size(); ++k) {
        if (!removalCells[k] || computedHere[k])
            continue;
        CellReader in(*removalCells[k]);
        const double err = in.real();
        const bool isSeparable = in.integer() != 0;
        record(k, err, isSeparable, in.integer() != 0);
        ++fits;
    }
    result.secondsSweep = secondsSince(start);
    for (std::size_t g = 0; g < G; ++g)
        for (std::size_t m = 0; m < M; ++m)
            if (done[g * M + m] == needed(m))
                result.cells.push_back(makeCell(g, m));
    result.cancelled = stop.stop_requested();
    if (result.cancelled || S == 0) {
        result.fits = fits;
        return result;
    }

    // 3. Model stability: leave one sampled row out, same seed as the full fit (dropout GD:
    //    the coupled run of dropout_gd.h).
    start = Clock::now();
    std::vector<Index> sampled = randomKeep(n, n - static_cast<Index>(S), deriveSeed(spec.seed, kSampleStream));
    std::vector<double> distances(M * S, NAN);
    std::vector<char> distanceHere(M * S, 0);
    CellStage modelStage;
    modelStage.name = "stability.model";
    modelStage.count = M * S;
    modelStage.cost = [&](std::size_t k) { return spec.methods[k / S] == StabilityMethod::Dropout ? 4.0 : 1.0; };
    modelStage.describe = [&](std::size_t k) {
        return "model stability of " + std::string(toString(spec.methods[k / S])) + ", left-out row " +
               std::to_string(sampled[k % S]);
    };
    modelStage.compute = [&](std::size_t k) -> std::optional<std::string> {
        const std::size_t m = k / S, s = k % S;
        const bool warmable =
            spec.methods[m] == StabilityMethod::L2 || spec.methods[m] == StabilityMethod::DeterministicDropout;
        const LearnerFit fit =
            fitLearner(spec.methods[m], data.trainX, data.trainY, learner, result.baselines[m].mu,
                       maskSeed(spec.seed, kFullStream, 0, m), warmable ? &full[m][0].model : nullptr, stop, sampled[s],
                       spec.methods[m] == StabilityMethod::L2 ? fullGram : nullptr);
        if (stop.stop_requested())
            return std::nullopt;
        ++fits;
        distances[k] = (fit.model.theta - full[m][0].model.theta).norm();
        runner.unitDone();
        distanceHere[k] = 1;
        return CellWriter().real(distances[k]).text();
    };
    const auto modelCells = runCellStage(spec.executor, modelStage, runner);
    for (std::size_t k = 0; k < M * S; ++k)
        if (modelCells[k] && !distanceHere[k]) {
            CellReader in(*modelCells[k]);
            distances[k] = in.real();
            ++fits;
        }
    result.secondsStability = secondsSince(start);
    result.cancelled = stop.stop_requested();
    result.fits = fits;
    if (result.cancelled)
        return result;
    for (std::size_t m = 0; m < M; ++m) {
        ModelStability st;
        st.method = spec.methods[m];
        const std::vector<double> d(distances.begin() + static_cast<std::ptrdiff_t>(m * S),
                                    distances.begin() + static_cast<std::ptrdiff_t>((m + 1) * S));
        st.samples = static_cast<int>(S);
        st.distance = meanSd(d);
        st.maxDistance = *std::max_element(d.begin(), d.end());
        const double norm = result.baselines[m].thetaNorm;
        st.relativeMean = norm > 0.0 ? st.distance.mean / norm : NAN;
        result.stability.push_back(st);
    }
    return result;
}

} // namespace elab::core
