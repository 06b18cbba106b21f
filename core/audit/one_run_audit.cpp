#include "core/audit/one_run_audit.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/util/elapsed.h"
#include "core/util/format_number.h"
#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace elab::core {

std::string OneRunAuditSpec::validate() const {
    if (!mechanismInfo(mechanism.kind).isPrivate)
        return "the non-private reference claims no ε: there is nothing to audit";
    if (!(eps > 0.0) || !std::isfinite(eps))
        return "the audited ε must be a finite number > 0";
    if (canaries < 1)
        return "the one-run audit needs at least one canary";
    if (!(alpha > 0.0 && alpha < 1.0))
        return "the confidence level α must be in (0, 1)";
    if (!(noiseDivisor >= 1.0) || !std::isfinite(noiseDivisor))
        return "the noise divisor (a test-only switch) must be ≥ 1";
    return mechanism.validate();
}

namespace {

constexpr std::uint64_t kCoinTag = 0x636f696eULL;  // "coin"
constexpr std::uint64_t kNoiseTag = 0x6f6e6531ULL; // "one1"

// One appended row e_feature with its label.
struct UnitRow {
    Index feature;
    double label;
};

// X with the unit rows appended, and the labels.
struct Rows {
    FeatureMatrix X;
    Eigen::VectorXd y;
};

Rows withRows(const FeatureMatrix& X, Labels y, const std::vector<UnitRow>& extra) {
    const Index n = X.rows(), p = X.cols();
    const auto k = static_cast<Index>(extra.size());
    Rows out;
    out.y.resize(n + k);
    for (Index i = 0; i < n; ++i)
        out.y[i] = y[i];
    for (Index i = 0; i < k; ++i)
        out.y[n + i] = extra[static_cast<std::size_t>(i)].label;
    if (!X.isSparse()) {
        DenseMatrix d = DenseMatrix::Zero(n + k, p);
        d.topRows(n) = X.dense();
        for (Index i = 0; i < k; ++i)
            d(n + i, extra[static_cast<std::size_t>(i)].feature) = 1.0;
        out.X = FeatureMatrix(std::move(d));
        return out;
    }
    const SparseMatrix& s = X.sparse();
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(static_cast<std::size_t>(s.nonZeros() + k));
    for (Index i = 0; i < s.outerSize(); ++i)
        for (SparseMatrix::InnerIterator it(s, i); it; ++it)
            entries.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
    for (Index i = 0; i < k; ++i)
        entries.emplace_back(static_cast<int>(n + i), static_cast<int>(extra[static_cast<std::size_t>(i)].feature),
                             1.0);
    SparseMatrix m(n + k, p);
    m.setFromTriplets(entries.begin(), entries.end());
    m.makeCompressed();
    out.X = FeatureMatrix(std::move(m));
    return out;
}

// The unit rows e_j of the canaries, as one matrix (m × p), scored in one call.
FeatureMatrix canaryMatrix(const std::vector<Index>& features, Index p) {
    DenseMatrix d = DenseMatrix::Zero(static_cast<Index>(features.size()), p);
    for (std::size_t i = 0; i < features.size(); ++i)
        d(static_cast<Index>(i), features[i]) = 1.0;
    return FeatureMatrix(std::move(d));
}

// Each canary's margin under a model: label·s (one score column), else s_label − s_baseline.
std::vector<double> margins(const TrainedModel& model, const FeatureMatrix& rows, const std::vector<OneRunCanary>& c,
                            int classes) {
    const Eigen::MatrixXd s = model.scores(rows);
    std::vector<double> out(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        const auto r = static_cast<Index>(i);
        out[i] = s.cols() == 1 ? c[i].label * s(r, 0)
                               : s(r, classIndexOf(c[i].label, classes)) - s(r, classIndexOf(c[i].baseline, classes));
    }
    return out;
}

} // namespace

OneRunAuditResult runOneRunAudit(const SweepData& data, const OneRunAuditSpec& spec, RunContext* ctx) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    const auto t0 = std::chrono::steady_clock::now();
    const Index n = data.trainX.rows(), p = data.trainX.cols();
    if (n < 2)
        throw std::invalid_argument("the one-run audit needs at least two training rows");
    if (data.classes < 2)
        for (Index i = 0; i < n; ++i)
            if (data.trainY[i] != 1.0 && data.trainY[i] != -1.0)
                throw std::invalid_argument(
                    "the one-run audit needs class labels (its score is a canary's margin); training row " +
                    std::to_string(i) + " has label " + formatNumber(data.trainY[i]));
    const UtilityMetric metric = UtilityMetric::TrainLoss;
    const MechanismSpec& mechanism = spec.mechanism;
    const std::stop_token stop = ctx ? ctx->stopToken() : std::stop_token();
    const FitOptions solver{};

    OneRunAuditResult result;
    result.claimedEps = spec.eps;
    result.alpha = spec.alpha;
    result.canariesAsked = spec.canaries;
    const std::shared_ptr<const PreparedProblem> onD = prepareProblem(data, mechanism, metric);
    const PrivacyGuarantee claimOnD = onD->guarantee(spec.eps);
    if (!claimOnD.isPrivate)
        throw std::invalid_argument("the mechanism claims no privacy at this ε: there is nothing to audit");
    result.adjacency = claimOnD.adjacency;
    if (ctx)
        ctx->progress(0.0, "one-run audit");

    // The canaries: the m least-covered columns, labelled against the non-private model of D.
    const std::shared_ptr<const TrainedModel> reference = onD->reference(stop, solver);
    if (reference->stopped()) {
        result.stopped = true;
        return result;
    }
    const Eigen::VectorXd energy = data.trainX.columnSquaredNorms();
    std::vector<Index> order(static_cast<std::size_t>(p));
    std::iota(order.begin(), order.end(), Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return energy[a] < energy[b]; });
    const auto m = static_cast<std::size_t>(std::min<Index>(p, spec.canaries));
    order.resize(m);
    const FeatureMatrix canaryRows = canaryMatrix(order, p);
    {
        const Eigen::MatrixXd s = reference->scores(canaryRows);
        result.canaries.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            OneRunCanary& c = result.canaries[i];
            c.feature = order[i];
            const auto r = static_cast<Index>(i);
            if (s.cols() == 1) {
                c.label = s(r, 0) > 0.0 ? -1.0 : 1.0;
                c.baseline = -c.label;
            } else {
                Index lowest = 0, highest = 0;
                s.row(r).minCoeff(&lowest);
                s.row(r).maxCoeff(&highest);
                if (highest == lowest)
                    highest = lowest == 0 ? 1 : 0;
                if (data.classes >= 2) {
                    c.label = static_cast<double>(lowest);
                    c.baseline = static_cast<double>(highest);
                } else {
                    c.label = lowest == 1 ? 1.0 : -1.0;
                    c.baseline = -c.label;
                }
            }
            Rng coin(deriveSeed(spec.seed, kCoinTag, static_cast<std::uint64_t>(i)));
            c.included = (coin() >> 63) != 0;
        }
    }

    // The rows of the audited fit and of the two references (all out, all in).
    const bool addRemove = result.adjacency == Adjacency::AddRemove;
    std::vector<UnitRow> audited, allOut, allIn;
    for (const OneRunCanary& c : result.canaries) {
        allIn.push_back({c.feature, c.label});
        if (!addRemove)
            allOut.push_back({c.feature, c.baseline});
        if (c.included || !addRemove)
            audited.push_back({c.feature, c.included ? c.label : c.baseline});
    }
    const Rows auditedRows = withRows(data.trainX, data.trainY, audited);
    const Rows outRows = withRows(data.trainX, data.trainY, allOut);
    const Rows inRows = withRows(data.trainX, data.trainY, allIn);
    auto sweepOf = [&](const Rows& r) {
        SweepData d{r.X, r.y};
        d.classes = data.classes;
        d.pipeline = data.pipeline;
        return d;
    };
    const std::shared_ptr<const PreparedProblem> problem = prepareProblem(sweepOf(auditedRows), mechanism, metric);
    result.guarantee = problem->guarantee(spec.eps);
    if (!result.guarantee.isPrivate)
        throw std::invalid_argument("the mechanism claims no privacy at this ε on the audited rows");
    result.delta = result.guarantee.delta;
    result.adjacency = result.guarantee.adjacency;
    result.trainingRows = auditedRows.X.rows();

    // Three independent fits in parallel: the released model and the two references.
    std::array<std::shared_ptr<const TrainedModel>, 3> models;
    ParallelGrid grid(spec.threads, ctx, "one-run audit");
    grid.setUnits(3);
    grid.run(3, [&](std::size_t k) {
        if (k == 0) {
            const PrivateLearner& learner = problem->learner();
            const auto noise = learner.drawNoise(deriveSeed(spec.seed, kNoiseTag), 0);
            models[0] = learner.fit(spec.eps * spec.noiseDivisor, *noise, nullptr, grid.stopToken(), solver);
        } else {
            const Rows& rows = k == 1 ? outRows : inRows;
            models[k] =
                prepareProblem(sweepOf(rows), mechanism, metric)->learner().fitNonPrivate(grid.stopToken(), solver);
        }
        grid.unitDone();
    });
    if (grid.stopped() ||
        std::any_of(models.begin(), models.end(), [](const auto& model) { return !model || model->stopped(); })) {
        result.stopped = true;
        result.seconds = secondsSince(t0);
        return result;
    }
    const std::vector<double> released = margins(*models[0], canaryRows, result.canaries, data.classes);
    const std::vector<double> out = margins(*models[1], canaryRows, result.canaries, data.classes);
    const std::vector<double> in = margins(*models[2], canaryRows, result.canaries, data.classes);
    std::vector<double> scores(m);
    std::vector<char> included(m);
    for (std::size_t i = 0; i < m; ++i) {
        result.canaries[i].score = released[i] - 0.5 * (out[i] + in[i]);
        scores[i] = result.canaries[i].score;
        included[i] = result.canaries[i].included ? 1 : 0;
    }
    result.bound = oneRunBound(scores, included, result.delta, spec.alpha);
    result.seconds = secondsSince(t0);
    return result;
}

std::string oneRunAuditVerdict(const OneRunAuditResult& r) {
    if (r.stopped)
        return "stopped before the training finished: no verdict";
    const std::string conf = formatNumber(100.0 * (1.0 - r.alpha)) + " % confidence";
    const std::string guesses = std::to_string(r.bound.best.correct) + " of " + std::to_string(r.bound.best.guesses) +
                                " guesses correct among " + std::to_string(r.bound.canaries) + " canaries";
    if (r.violated())
        return "the claim is violated: ε ≥ " + formatNumber(r.bound.epsLB) + " with " + conf + " (" + guesses +
               "; claimed ε = " + formatNumber(r.claimedEps) + ")";
    return "consistent with the claim: ε_LB = " + formatNumber(r.bound.epsLB) + " ≤ ε = " + formatNumber(r.claimedEps) +
           " (" + conf + "; " + guesses + "; with these canaries no audit can show more than " +
           formatNumber(r.bound.maxCertifiable) + ")";
}

} // namespace elab::core
