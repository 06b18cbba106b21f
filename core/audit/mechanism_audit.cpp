#include "core/audit/mechanism_audit.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/scale/cell_stage.h"
#include "core/scale/cell_text.h"
#include "core/util/elapsed.h"
#include "core/util/format_number.h"
#include "core/util/noise.h"
#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace elab::core {

std::string AuditSpec::validate() const {
    if (!mechanismInfo(mechanism.kind).isPrivate)
        return "the non-private reference claims no ε: there is nothing to audit";
    if (!(eps > 0.0) || !std::isfinite(eps))
        return "the audited ε must be a finite number > 0";
    if (runs < 4)
        return "the audit needs at least 4 runs per neighbour (half choose the threshold, half evaluate)";
    if (!(alpha > 0.0 && alpha < 1.0))
        return "the confidence level α must be in (0, 1)";
    if (canaryCandidates < 1)
        return "the audit needs at least one canary candidate";
    if (!(noiseDivisor >= 1.0) || !std::isfinite(noiseDivisor))
        return "the noise divisor (a test-only switch) must be ≥ 1";
    return mechanism.validate();
}

namespace {

// X with row appended (AddRemove) or its last row replaced (ReplaceOne).
FeatureMatrix neighbourMatrix(const FeatureMatrix& X, const Eigen::VectorXd& row, Adjacency adjacency) {
    const Index n = X.rows(), p = X.cols();
    const Index rows = adjacency == Adjacency::AddRemove ? n + 1 : n;
    const Index at = rows - 1;
    if (!X.isSparse()) {
        DenseMatrix out(rows, p);
        out.topRows(at) = X.dense().topRows(at);
        out.row(at) = row.transpose();
        return FeatureMatrix(std::move(out));
    }
    const SparseMatrix& s = X.sparse();
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(static_cast<std::size_t>(s.nonZeros() + p));
    for (Index i = 0; i < at; ++i)
        for (SparseMatrix::InnerIterator it(s, i); it; ++it)
            entries.emplace_back(static_cast<int>(i), static_cast<int>(it.col()), it.value());
    for (Index j = 0; j < p; ++j)
        if (row[j] != 0.0)
            entries.emplace_back(static_cast<int>(at), static_cast<int>(j), row[j]);
    SparseMatrix out(rows, p);
    out.setFromTriplets(entries.begin(), entries.end());
    out.makeCompressed();
    return FeatureMatrix(std::move(out));
}

Eigen::VectorXd neighbourLabels(const Labels y, double label, Adjacency adjacency) {
    Eigen::VectorXd out(adjacency == Adjacency::AddRemove ? y.size() + 1 : y.size());
    for (Index i = 0; i + 1 < out.size(); ++i)
        out[i] = y[i];
    out[out.size() - 1] = label;
    return out;
}

// The canary's margin under a model: y·s (one output), or its class's score minus the best other.
double marginOf(const TrainedModel& model, const FeatureMatrix& x, double label, int classes) {
    const Eigen::MatrixXd s = model.scores(x);
    if (s.cols() == 1)
        return label * s(0, 0);
    const int c = classIndexOf(label, classes);
    double other = -std::numeric_limits<double>::infinity();
    for (Index k = 0; k < s.cols(); ++k)
        if (k != c)
            other = std::max(other, s(0, k));
    return s(0, c) - other;
}

// The label the model agrees with least on x: −sign of its score, or its lowest-scored class.
double labelAgainst(const TrainedModel& model, const FeatureMatrix& x, int classes) {
    const Eigen::MatrixXd s = model.scores(x);
    if (s.cols() == 1)
        return s(0, 0) > 0.0 ? -1.0 : 1.0;
    Index worst = 0;
    s.row(0).minCoeff(&worst);
    if (classes >= 2)
        return static_cast<double>(worst);
    return worst == 1 ? 1.0 : -1.0;
}

FeatureMatrix oneRow(const Eigen::VectorXd& x) { return FeatureMatrix(DenseMatrix(x.transpose())); }

struct Neighbour {
    FeatureMatrix X;
    Eigen::VectorXd y;
};

SweepData sweepOf(const Neighbour& n, int classes) {
    SweepData d{n.X, n.y};
    d.classes = classes;
    return d;
}

std::string labelText(double label, int classes) {
    if (classes >= 2)
        return "class " + std::to_string(static_cast<int>(label));
    return label > 0.0 ? "+1" : "−1";
}

} // namespace

AuditResult runAudit(const SweepData& data, const AuditSpec& spec, RunContext* ctx, const AuditRunSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    const auto t0 = std::chrono::steady_clock::now();
    const Index n = data.trainX.rows();
    if (n < 2)
        throw std::invalid_argument("the audit needs at least two training rows");
    if (data.classes < 2)
        for (Index i = 0; i < n; ++i)
            if (data.trainY[i] != 1.0 && data.trainY[i] != -1.0)
                throw std::invalid_argument("the audit needs class labels (its score is the canary's margin)");
    if (spec.canaryRow && (*spec.canaryRow < 0 || *spec.canaryRow >= n))
        throw std::invalid_argument("canary row " + std::to_string(*spec.canaryRow) + " is not a training row (0.." +
                                    std::to_string(n - 1) + ")");
    const UtilityMetric metric = UtilityMetric::TrainLoss;
    // The product's configuration as given: DP-SGD with N declared public trains both neighbours
    // with that N (add/remove); without it each neighbour uses its own row count, and the claim
    // is replace-one, whose neighbours keep |D| (docs/MATH.md §3.6, D14).
    const MechanismSpec& mechanism = spec.mechanism;
    const std::shared_ptr<const PreparedProblem> onD = prepareProblem(data, mechanism, metric);
    AuditResult result;
    result.claimedEps = spec.eps;
    result.guarantee = onD->guarantee(spec.eps);
    if (!result.guarantee.isPrivate)
        throw std::invalid_argument("the mechanism claims no privacy at this ε: there is nothing to audit");
    result.delta = result.guarantee.delta;
    result.adjacency = result.guarantee.adjacency;
    result.runs = spec.runs;
    result.alpha = spec.alpha;
    const std::stop_token stop = ctx ? ctx->stopToken() : std::stop_token();
    const FitOptions solver{};

    // The canary.
    const std::shared_ptr<const TrainedModel> reference = onD->reference(stop, solver);
    if (reference->stopped()) {
        result.stopped = true;
        return result;
    }
    std::vector<Canary> candidates;
    if (spec.canaryRow) {
        Canary c;
        c.x = Eigen::VectorXd(data.trainX.cols());
        for (Index j = 0; j < c.x.size(); ++j)
            c.x[j] = data.trainX.value(*spec.canaryRow, j);
        c.label = labelAgainst(*reference, oneRow(c.x), data.classes);
        c.description = "training row " + std::to_string(*spec.canaryRow) + ", labelled " +
                        labelText(c.label, data.classes) + " against the model";
        candidates.push_back(std::move(c));
    } else {
        const Eigen::VectorXd energy = data.trainX.columnSquaredNorms();
        std::vector<Index> order(static_cast<std::size_t>(energy.size()));
        std::iota(order.begin(), order.end(), Index{0});
        std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return energy[a] < energy[b]; });
        const auto count = std::min<std::size_t>(order.size(), static_cast<std::size_t>(spec.canaryCandidates));
        for (std::size_t k = 0; k < count; ++k) {
            Canary c;
            c.x = Eigen::VectorXd::Zero(data.trainX.cols());
            c.x[order[k]] = 1.0;
            c.label = labelAgainst(*reference, oneRow(c.x), data.classes);
            c.description = "unit row along feature " + std::to_string(order[k] + 1) +
                            " (Σx² = " + formatNumber(energy[order[k]]) + " over the training rows), labelled " +
                            labelText(c.label, data.classes) + " against the model";
            candidates.push_back(std::move(c));
        }
    }
    Neighbour best;
    double bestShift = -std::numeric_limits<double>::infinity();
    for (Canary& c : candidates) {
        Neighbour dn{neighbourMatrix(data.trainX, c.x, result.adjacency),
                     neighbourLabels(data.trainY, c.label, result.adjacency)};
        const auto ref1 =
            prepareProblem(sweepOf(dn, data.classes), mechanism, metric)->learner().fitNonPrivate(stop, solver);
        if (ref1->stopped()) {
            result.stopped = true;
            return result;
        }
        const FeatureMatrix x = oneRow(c.x);
        c.nonPrivateShift = marginOf(*ref1, x, c.label, data.classes) - marginOf(*reference, x, c.label, data.classes);
        if (candidates.size() == 1 || c.nonPrivateShift > bestShift) {
            bestShift = c.nonPrivateShift;
            result.canary = c;
            best = std::move(dn);
        }
    }
    const std::shared_ptr<const PreparedProblem> onD1 = prepareProblem(sweepOf(best, data.classes), mechanism, metric);
    const FeatureMatrix canaryX = oneRow(result.canary.x);

    // T runs on each neighbour, each with its own stream.
    const auto T = static_cast<std::size_t>(spec.runs);
    result.scoresD.assign(T, std::numeric_limits<double>::quiet_NaN());
    result.scoresDPrime.assign(T, std::numeric_limits<double>::quiet_NaN());
    ParallelGrid grid(spec.threads, ctx, "audit");
    grid.setUnits(2 * T);
    const double trainEps = spec.eps * spec.noiseDivisor;
    auto scoreSlot = [&](std::size_t i) -> double& {
        return (i % 2 == 0 ? result.scoresD : result.scoresDPrime)[i / 2];
    };
    std::vector<char> computedHere(2 * T, 0);
    CellStage stage;
    stage.name = std::string("audit.") + toString(spec.mechanism.kind);
    stage.count = 2 * T;
    stage.describe = [](std::size_t i) { return "run " + std::to_string(i / 2) + " on " + (i % 2 == 0 ? "D" : "D′"); };
    stage.compute = [&](std::size_t i) -> std::optional<std::string> {
        const int k = static_cast<int>(i % 2);
        const auto t = static_cast<int>(i / 2);
        const PrivateLearner& learner = (k == 0 ? onD : onD1)->learner();
        const auto noise =
            learner.drawNoise(deriveSeed(spec.seed, 0x61756469ULL, static_cast<std::uint64_t>(k)), t); // "audi"
        const auto model = learner.fit(trainEps, *noise, nullptr, grid.stopToken(), solver);
        if (model->stopped())
            return std::nullopt;
        const double score = marginOf(*model, canaryX, result.canary.label, data.classes);
        scoreSlot(i) = score;
        computedHere[i] = 1;
        grid.unitDone();
        if (sink)
            grid.stream([&] { sink(k, t, score); });
        return CellWriter().real(score).text();
    };
    const auto cells = runCellStage(spec.executor, stage, grid);
    for (std::size_t i = 0; i < 2 * T; ++i)
        if (cells[i] && !computedHere[i]) {
            CellReader in(*cells[i]);
            scoreSlot(i) = in.real();
        }
    result.stopped = grid.stopped();
    if (!result.stopped) {
        result.bound = auditBound(result.scoresD, result.scoresDPrime, result.delta, spec.alpha);
        if (spec.gaussianFit && result.delta > 0.0 && T >= 3)
            result.gaussian = gaussianAuditBound(result.scoresD, result.scoresDPrime, result.delta, spec.alpha);
    }
    result.seconds = secondsSince(t0);
    return result;
}

std::string auditVerdict(const AuditResult& r) {
    if (r.stopped)
        return "stopped before the runs finished: no verdict";
    const std::string conf = formatNumber(100.0 * (1.0 - r.alpha)) + " % confidence";
    if (r.violated())
        return "the claim is violated: ε ≥ " + formatNumber(r.bound.epsLB) + " with " + conf +
               " (claimed ε = " + formatNumber(r.claimedEps) + ")";
    return "consistent with the claim: ε_LB = " + formatNumber(r.bound.epsLB) + " ≤ ε = " + formatNumber(r.claimedEps) +
           " (" + conf + "; with " + std::to_string(r.bound.evaluated) +
           " evaluated runs per neighbour no audit can show more than " + formatNumber(r.bound.maxCertifiable) + ")";
}

std::string gaussianVerdict(const AuditResult& r) {
    if (!r.gaussian)
        return "";
    const GaussianAuditBound& g = *r.gaussian;
    if (g.shapeRejected)
        return "no Gaussian bound: the scores are not Gaussian (Lilliefors " + formatNumber(g.lilliefors) + " > " +
               formatNumber(g.lillieforsCritical) + ")";
    const std::string conf = formatNumber(100.0 * (1.0 - r.alpha)) + " % confidence";
    const std::string assumption = ", if the scores are Gaussian with one variance (not rejected)";
    if (g.epsLB > r.claimedEps)
        return "Gaussian fit: the claim is violated: ε ≥ " + formatNumber(g.epsLB) + " with " + conf + assumption;
    return "Gaussian fit: ε_LB = " + formatNumber(g.epsLB) + " ≤ ε = " + formatNumber(r.claimedEps) + " (" + conf +
           assumption + ")";
}

} // namespace elab::core
