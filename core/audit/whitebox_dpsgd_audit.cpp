#include "core/audit/whitebox_dpsgd_audit.h"

#include "core/learner/prepared_problem.h"
#include "core/learners/dpsgd/dpsgd_learner.h"
#include "core/learners/dpsgd/sgd_trainer.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/util/elapsed.h"
#include "core/util/format_number.h"
#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

std::string WhiteboxAuditSpec::validate() const {
    if (mechanism.kind != MechanismKind::Dpsgd)
        return "the white-box audit injects gradient canaries into DP-SGD's steps: it audits DP-SGD only (use "
               "the two-dataset or one-run audit for " +
               std::string(toString(mechanism.kind)) + ")";
    if (!(eps > 0.0) || !std::isfinite(eps))
        return "the audited ε must be a finite number > 0";
    if (runs < 2)
        return "the white-box audit needs at least 2 runs";
    if (!(alpha > 0.0 && alpha < 1.0))
        return "the confidence level α must be in (0, 1)";
    if (maxCanaries < 0 || maxCanaries == 1)
        return "the white-box audit needs at least 2 canary coordinates per run (0: every one found)";
    if (!(noiseDivisor >= 1.0) || !std::isfinite(noiseDivisor))
        return "the noise divisor (a test-only switch) must be ≥ 1";
    if (!(clipMultiplier >= 1.0) || !std::isfinite(clipMultiplier))
        return "the clip multiplier (a test-only switch) must be ≥ 1";
    return mechanism.validate();
}

namespace {

// log((1 − q) + q·e^a) = log1p(q·expm1(a)), written as a + log(q + (1 − q)e^{−a}) where e^a would
// overflow.
double logMixture(double q, double a) {
    if (a < 30.0)
        return std::log1p(q * std::expm1(a));
    return a + std::log(q + (1.0 - q) * std::exp(-a));
}

std::vector<Index> zeroColumns(const FeatureMatrix& X) {
    std::vector<char> used(static_cast<std::size_t>(X.cols()), 0);
    if (!X.isSparse()) {
        const DenseMatrix& d = X.dense();
        for (Index j = 0; j < d.cols(); ++j)
            used[static_cast<std::size_t>(j)] = (d.col(j).array() != 0.0).any() ? 1 : 0;
    } else {
        const SparseMatrix& s = X.sparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                if (it.value() != 0.0)
                    used[static_cast<std::size_t>(it.col())] = 1;
    }
    std::vector<Index> out;
    for (Index j = 0; j < X.cols(); ++j)
        if (!used[static_cast<std::size_t>(j)])
            out.push_back(j);
    return out;
}

} // namespace

const char* toString(WhiteboxView view) { return view == WhiteboxView::Iterates ? "iterates" : "residual"; }

double whiteboxStepLogRatio(double o, double q, double s, Adjacency adjacency) {
    const double v = 2.0 * s * s;
    const double in = logMixture(q, (2.0 * o - 1.0) / v);
    if (adjacency == Adjacency::AddRemove)
        return in;
    return in - logMixture(q, (-2.0 * o - 1.0) / v);
}

double whiteboxScore(std::span<const double> observations, double q, double s, Adjacency adjacency) {
    double sum = 0.0;
    for (double o : observations)
        sum += whiteboxStepLogRatio(o, q, s, adjacency);
    return sum;
}

WhiteboxAuditResult runWhiteboxAudit(const SweepData& data, const WhiteboxAuditSpec& spec, RunContext* ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    if (std::string problem = spec.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    WhiteboxAuditResult result;
    result.claimedEps = spec.eps;
    result.runs = spec.runs;
    result.alpha = spec.alpha;

    // The claim audited is the product's on these rows (the pipeline's facts included).
    const std::shared_ptr<const PreparedProblem> problem =
        prepareProblem(data, spec.mechanism, UtilityMetric::TrainAccuracy);
    const auto& learner = dynamic_cast<const DpsgdLearner&>(problem->learner());
    const SgdSpec& sgd = spec.mechanism.sgd;
    const Index n = data.trainX.rows();
    result.guarantee = problem->guarantee(spec.eps);
    if (!result.guarantee.isPrivate)
        throw std::invalid_argument(
            "the mechanism claims no privacy at this ε on these rows: there is nothing to audit");
    result.delta = result.guarantee.delta;
    result.adjacency = result.guarantee.adjacency;
    result.sigma = learner.sigmaFor(spec.eps);
    result.q = sgd.samplingRate(n);
    result.steps = sgd.totalSteps(n);
    result.canaryNorm = sgd.clip;
    result.noiseInCanaryUnits = result.sigma * sgd.sensitivity() / sgd.clip;

    // Canary coordinates: the first layer's weights of the features no training row uses, or
    // (Residual) every weight of every layer.
    result.view = spec.view;
    result.zeroFeatures = zeroColumns(data.trainX);
    const int K = data.classes >= 2 ? data.classes : 2;
    if (spec.view == WhiteboxView::Iterates) {
        const Index units = sgd.hidden > 0 ? sgd.hidden : K;
        for (Index j : result.zeroFeatures)
            for (Index u = 0; u < units; ++u)
                result.canaries.push_back({0, u, j});
    } else {
        const Network shape = initialNetwork(data.trainX.cols(), sgd.hidden, K, 0);
        for (std::size_t l = 0; l < shape.layers.size(); ++l)
            for (Index j = 0; j < shape.layers[l].W.cols(); ++j)
                for (Index u = 0; u < shape.layers[l].W.rows(); ++u)
                    result.canaries.push_back({static_cast<int>(l), u, j});
    }
    std::size_t m = result.canaries.size();
    if (spec.maxCanaries > 0)
        m = std::min(m, static_cast<std::size_t>(spec.maxCanaries));
    m -= m % 2;
    result.canaries.resize(m);
    if (m == 0)
        throw std::invalid_argument(
            "the white-box audit (iterates view) needs a feature that is 0 in every training row (its weights are "
            "where the gradient canaries go, untouched by the rows); " +
            std::string(result.zeroFeatures.empty()
                            ? "none of the " + std::to_string(data.trainX.cols()) + " features is"
                            : "too few coordinates are") +
            " (the digits data has such pixels; the residual view needs none)");

    // The trainer as run: claimed σ, or a test-only broken one.
    SgdSpec trained = sgd;
    trained.threads = 1;
    trained.clip = sgd.clip * spec.clipMultiplier;
    const double trainSigma = result.sigma / spec.noiseDivisor / spec.clipMultiplier;
    const Eigen::VectorXi& classes = learner.trainClasses();
    const double big = 1e3 * trained.clip;                           // clipped by the trainer's rule to its C
    const std::uint64_t seed = deriveSeed(spec.seed, 0x77626f78ULL); // "wbox"

    const std::size_t half = m / 2;
    const auto R = static_cast<std::size_t>(spec.runs);
    result.scoresOut.assign(R * half, std::numeric_limits<double>::quiet_NaN());
    result.scoresIn.assign(R * half, std::numeric_limits<double>::quiet_NaN());
    const double q = result.q, s = result.noiseInCanaryUnits, C = result.canaryNorm;
    const Adjacency adjacency = result.adjacency;

    ParallelGrid grid(spec.threads, ctx, "white-box audit");
    grid.setUnits(R);
    grid.run(R, [&](std::size_t r) {
        // Coordinate i is in when (i + r) is even: half in, half out, alternating with the run.
        SgdAuditHook hook;
        std::vector<char> in(m);
        for (std::size_t i = 0; i < m; ++i) {
            in[i] = (i + r) % 2 == 0 ? 1 : 0;
            const WhiteboxCanary& c = result.canaries[i];
            if (in[i] || adjacency == Adjacency::ReplaceOne)
                hook.canaries.push_back({c.layer, c.unit, c.feature, in[i] ? big : -big});
        }
        std::vector<double> score(m, 0.0);
        const bool residual = spec.view == WhiteboxView::Residual;
        hook.onStep = [&](long long, const Network& rows, const Network& G) {
            for (std::size_t i = 0; i < m; ++i) {
                const WhiteboxCanary& c = result.canaries[i];
                const auto l = static_cast<std::size_t>(c.layer);
                double g = G.layers[l].W(c.unit, c.feature);
                if (residual)
                    g -= rows.layers[l].W(c.unit, c.feature);
                score[i] += whiteboxStepLogRatio(g / C, q, s, adjacency);
            }
        };
        const SgdRun run{trainSigma, true, seed, static_cast<int>(r)};
        const SgdResult trainedRun = trainSgd(data.trainX, classes, K, trained, run, grid.stopToken(), nullptr, &hook);
        if (trainedRun.stopped)
            return;
        std::size_t kIn = 0, kOut = 0;
        for (std::size_t i = 0; i < m; ++i)
            (in[i] ? result.scoresIn[r * half + kIn++] : result.scoresOut[r * half + kOut++]) = score[i];
        grid.unitDone();
    });
    result.stopped = grid.stopped();
    if (!result.stopped)
        result.bound = auditBound(result.scoresOut, result.scoresIn, result.delta, spec.alpha);
    result.seconds = secondsSince(t0);
    return result;
}

std::string whiteboxAuditVerdict(const WhiteboxAuditResult& r) {
    if (r.stopped)
        return "stopped before the runs finished: no verdict";
    const std::string conf = formatNumber(100.0 * (1.0 - r.alpha)) + " % confidence";
    if (r.violated())
        return "the claim is violated: ε ≥ " + formatNumber(r.bound.epsLB) + " with " + conf +
               " (claimed ε = " + formatNumber(r.claimedEps) + ")";
    return "consistent with the claim: ε_LB = " + formatNumber(r.bound.epsLB) + " ≤ ε = " + formatNumber(r.claimedEps) +
           " (" + conf + "; " + std::to_string(r.bound.evaluated) + " evaluated trials per side from " +
           std::to_string(r.runs) + " runs × " + std::to_string(r.canaries.size()) +
           " canary coordinates; no audit of that many can show more than " + formatNumber(r.bound.maxCertifiable) +
           ")";
}

} // namespace elab::core
