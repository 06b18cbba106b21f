#include "core/audit/pipeline_audit.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/accountant.h"
#include "core/scale/cell_stage.h"
#include "core/scale/cell_text.h"
#include "core/util/elapsed.h"
#include "core/util/format_number.h"
#include "core/util/join.h"
#include "core/util/noise.h"
#include "core/util/parallel_grid.h"
#include "core/util/random.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace elab::core {

std::string PipelineAuditSpec::validate() const {
    if (std::string e = preparation.validate(); !e.empty())
        return e;
    if (shadowRuns < 0)
        return "the number of shadow runs must be ≥ 0 (0: as many as the audited runs)";
    return audit.validate();
}

namespace {

constexpr std::uint64_t kNoiseStream = 0x7069706561756469ULL;  // "pipeaudi"
constexpr std::uint64_t kShadowStream = 0x706970657368616FULL; // "pipesha"
constexpr std::uint64_t kPrepStream = 0x7069706570726570ULL;   // "pipeprep"
constexpr Index kMaxProbes = 1024;

// FNV-1a, the same in every process (cells computed elsewhere compare their hashes).
struct Fnv {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    void bytes(const void* p, std::size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h ^= c[i];
            h *= 0x100000001b3ULL;
        }
    }
    void text(const std::string& s) {
        bytes(s.data(), s.size());
        bytes("\x1f", 1);
    }
    void number(double v) {
        if (v == 0.0)
            v = 0.0; // −0 and 0 are one value
        bytes(&v, sizeof v);
    }
};

// The released model's structure: its features and classes by name, and its score columns.
std::uint64_t structureHash(const Dataset& train, int outputs) {
    Fnv f;
    const Index p = train.featureCount();
    f.number(static_cast<double>(p));
    for (Index j = 0; j < p; ++j)
        f.text(train.featureName(j));
    for (const std::string& c : train.targets.classNames)
        f.text(c);
    f.number(outputs);
    return f.h;
}

// Each training row (features and label) as a hash, sorted.
std::vector<std::uint64_t> rowHashes(const Dataset& d) {
    std::vector<std::uint64_t> out(static_cast<std::size_t>(d.rows()));
    const Targets& t = d.targets;
    for (Index i = 0; i < d.rows(); ++i) {
        Fnv f;
        for (Index j = 0; j < d.featureCount(); ++j)
            f.number(d.features.value(i, j));
        if (t.isClassification())
            f.text(t.classNames[static_cast<std::size_t>(t.classIndex[i])]);
        else
            f.number(t.values[i]);
        out[static_cast<std::size_t>(i)] = f.h;
    }
    std::sort(out.begin(), out.end());
    return out;
}

Index multisetDifference(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
    std::vector<std::uint64_t> diff;
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(diff));
    return static_cast<Index>(diff.size());
}

// The probe rows of a p-wide encoding: e_1..e_p, or (p > kMaxProbes) kMaxProbes seeded directions
// of norm 1 — public points, the same for D and D′.
FeatureMatrix probeRows(Index p) {
    if (p <= kMaxProbes)
        return FeatureMatrix(DenseMatrix(DenseMatrix::Identity(p, p)));
    DenseMatrix m(kMaxProbes, p);
    Rng rng(deriveSeed(0x70726F6265ULL, static_cast<std::uint64_t>(p))); // "probe"
    const double v = 1.0 / std::sqrt(static_cast<double>(p));
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < p; ++j)
            m(i, j) = uniform01(rng) < 0.5 ? -v : v;
    return FeatureMatrix(std::move(m));
}

// Fisher's linear discriminant of two samples of output vectors: w = S⁻¹(μ′ − μ) with S the pooled
// covariance (below), the score of x being (x − (μ + μ′)/2)·w. Non-finite outputs count as 0.
struct Discriminant {
    Eigen::VectorXd mid, w;
    double score(const std::vector<double>& o) const {
        if (w.size() == 0)
            return 0.0;
        double s = 0.0;
        for (Index j = 0; j < w.size(); ++j) {
            const double x = std::isfinite(o[static_cast<std::size_t>(j)]) ? o[static_cast<std::size_t>(j)] : 0.0;
            s += (x - mid[j]) * w[j];
        }
        return std::isfinite(s) ? s : 0.0;
    }
};

Discriminant fitDiscriminant(const std::vector<const std::vector<double>*>& a,
                             const std::vector<const std::vector<double>*>& b, std::size_t dims) {
    Discriminant out;
    if (a.size() < 2 || b.size() < 2 || dims == 0)
        return out;
    const auto d = static_cast<Index>(dims);
    auto matrix = [&](const std::vector<const std::vector<double>*>& rows) {
        Eigen::MatrixXd m(static_cast<Index>(rows.size()), d);
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (Index j = 0; j < d; ++j) {
                const double x = (*rows[r])[static_cast<std::size_t>(j)];
                m(static_cast<Index>(r), j) = std::isfinite(x) ? x : 0.0;
            }
        return m;
    };
    const Eigen::MatrixXd A = matrix(a), B = matrix(b);
    const Eigen::VectorXd ma = A.colwise().mean().transpose(), mb = B.colwise().mean().transpose();
    const Eigen::MatrixXd ca = A.rowwise() - ma.transpose(), cb = B.rowwise() - mb.transpose();
    const double n = static_cast<double>(A.rows() + B.rows() - 2);
    Eigen::MatrixXd S = (ca.transpose() * ca + cb.transpose() * cb) / n;
    // The sample covariance when the sample is at least twice the dimension (it must resolve
    // noise whose variances span many orders of magnitude: an ill-conditioned problem's
    // parameters), shrunk towards its diagonal as the sample gets smaller, the diagonal alone
    // when it is no larger than the dimension.
    const double lambda = std::clamp(2.0 * static_cast<double>(d) / n - 1.0, 0.0, 1.0);
    const Eigen::VectorXd diag = S.diagonal();
    S *= 1.0 - lambda;
    S.diagonal() += lambda * diag;
    const double scale = std::max(diag.mean(), std::numeric_limits<double>::min());
    S.diagonal().array() += 1e-10 * scale;
    out.mid = 0.5 * (ma + mb);
    out.w = S.ldlt().solve(mb - ma);
    if (!out.w.allFinite())
        out.w.setZero();
    return out;
}

struct RunOutput {
    std::uint64_t structure = 0;
    std::vector<double> scores; ///< the model's scores on the probe rows, column after column
    bool done = false;
};

} // namespace

PipelineAuditResult runPipelineAudit(const PipelineInput& input, const PipelineAuditSpec& spec, RunContext* ctx,
                                     const AuditRunSink& sink) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    const auto t0 = std::chrono::steady_clock::now();
    const PipelineStages& stages = spec.stages;
    auto load = [&](const std::string& text) {
        return stages.load ? stages.load(text) : loadDatasetText(input.spec, text, input.options);
    };
    auto prepare = [&](const Dataset& loaded, std::uint64_t seed) {
        std::optional<Dataset> test = input.test;
        return stages.prepare ? stages.prepare(loaded, std::move(test), spec.preparation, seed)
                              : prepareExperimentData(loaded, std::move(test), spec.preparation, seed);
    };
    auto mechanismFor = [&](const Dataset& train) {
        MechanismSpec m = spec.audit.mechanism;
        if (stages.mechanism)
            stages.mechanism(m, train);
        return m;
    };

    // Parse each neighbour once.
    const Dataset file = load(input.text);
    PipelineAuditResult result;
    result.neighbour = makeInputNeighbour(input.text, file, input.options.csv.delimiter, spec.neighbour, spec.row);
    std::array<Dataset, 2> loaded;
    loaded[0] = spec.neighbour == InputNeighbourKind::Add ? load(result.neighbour.textD) : file;
    loaded[1] = spec.neighbour == InputNeighbourKind::Add ? file : load(result.neighbour.textDPrime);
    result.neighbour.textD.clear();
    result.neighbour.textDPrime.clear();
    result.splitSeedVaried = spec.preparation.preprocess.privateBounds.has_value();

    // Each neighbour through the pipeline with the public split seed: the claim, the structures.
    const UtilityMetric metric = UtilityMetric::TrainLoss;
    std::array<PreparedData, 2> prepared{prepare(loaded[0], spec.splitSeed), prepare(loaded[1], spec.splitSeed)};
    std::array<PipelineSide*, 2> sides{&result.d, &result.dPrime};
    std::array<FeatureMatrix, 2> probes;
    for (int k = 0; k < 2; ++k) {
        const Dataset& train = prepared[static_cast<std::size_t>(k)].train;
        PipelineSide& s = *sides[static_cast<std::size_t>(k)];
        s.fileRows = loaded[static_cast<std::size_t>(k)].rows();
        s.trainRows = train.rows();
        s.features = train.featureCount();
        s.classes = joined(train.targets.classNames);
        probes[static_cast<std::size_t>(k)] = probeRows(s.features);
    }
    result.probes = static_cast<int>(probes[0].rows());
    result.differingTrainRows = multisetDifference(rowHashes(prepared[0].train), rowHashes(prepared[1].train));
    {
        const Dataset& train = prepared[0].train;
        result.guarantee = prepareProblem(sweepDataOf(train), mechanismFor(train), metric)->guarantee(spec.audit.eps);
        for (const ProcessingStep& step : train.log)
            if (step.leaksPrivacy)
                result.leakingSteps.push_back(step.name + ": " + step.detail);
    }
    const PrivacyGuarantee& g = result.guarantee;
    const bool replaceNeighbour = spec.neighbour != InputNeighbourKind::Add;
    if (!g.isPrivate) {
        result.claimBasis =
            "the pipeline claims no privacy" +
            (result.leakingSteps.empty() ? std::string() : " (leaking steps: " + joined(result.leakingSteps) + ")");
    } else if (!result.leakingSteps.empty()) {
        result.claimBasis = "a step reads the private data outside the mechanism: " + joined(result.leakingSteps);
    } else if (!replaceNeighbour && g.adjacency != Adjacency::AddRemove) {
        result.claimBasis = "the guarantee is for one row replaced at a fixed number of rows (replace-one): it says "
                            "nothing about a row added";
    } else if (replaceNeighbour && g.adjacency == Adjacency::AddRemove) {
        const EpsDelta r = replaceOneEquivalent(g.epsilon, g.delta);
        result.claimed = true;
        result.claimedEps = r.epsilon;
        result.claimedDelta = r.delta;
        result.claimBasis = "one row changed is one removed and one added: the add/remove guarantee (" +
                            formatNumber(g.epsilon) + ", " + formatNumber(g.delta) +
                            ") gives (2ε, (1 + e^ε)δ) by group privacy";
    } else {
        result.claimed = true;
        result.claimedEps = g.epsilon;
        result.claimedDelta = g.delta;
        result.claimBasis = std::string("the guarantee as stated (") + toString(g.adjacency) + ")";
    }
    const double boundDelta = result.claimed ? result.claimedDelta : (g.delta >= 0.0 && g.delta < 1.0 ? g.delta : 0.0);
    result.runs = spec.audit.runs;
    result.alpha = spec.audit.alpha;

    // T runs on each neighbour: the pipeline from the parsed file to the released model.
    // T audited runs on each neighbour, then S shadow runs on each (the attacker's own simulations,
    // on their own noise streams: what the score is fitted on, never what it is evaluated on).
    const auto T = static_cast<std::size_t>(spec.audit.runs);
    const auto S = static_cast<std::size_t>(spec.shadowRuns > 0 ? spec.shadowRuns : spec.audit.runs);
    result.shadowRuns = static_cast<int>(S);
    std::vector<RunOutput> outputs(2 * (T + S));
    ParallelGrid grid(spec.audit.threads, ctx, "pipeline audit");
    grid.setUnits(2 * (T + S));
    const double trainEps = spec.audit.eps * spec.audit.noiseDivisor;
    const FitOptions solver{};
    CellStage stage;
    stage.name = std::string("pipeline-audit.") + toString(spec.audit.mechanism.kind) + "." + toString(spec.neighbour);
    stage.count = 2 * (T + S);
    stage.describe = [T](std::size_t i) {
        const std::size_t t = i / 2;
        return (t < T ? "run " + std::to_string(t) : "shadow run " + std::to_string(t - T)) + " on " +
               (i % 2 == 0 ? "D" : "D′");
    };
    stage.compute = [&](std::size_t i) -> std::optional<std::string> {
        const auto k = static_cast<std::size_t>(i % 2);
        const auto t = static_cast<int>(i / 2);
        const std::uint64_t splitSeed = result.splitSeedVaried ? deriveSeed(deriveSeed(spec.audit.seed, kPrepStream, k),
                                                                            static_cast<std::uint64_t>(t))
                                                               : spec.splitSeed;
        const PreparedData data = prepare(loaded[k], splitSeed);
        const auto problem = prepareProblem(sweepDataOf(data.train), mechanismFor(data.train), metric);
        const PrivateLearner& learner = problem->learner();
        const bool shadow = static_cast<std::size_t>(t) >= T;
        const auto noise = learner.drawNoise(deriveSeed(spec.audit.seed, shadow ? kShadowStream : kNoiseStream, k),
                                             shadow ? t - static_cast<int>(T) : t);
        const auto model = learner.fit(trainEps, *noise, nullptr, grid.stopToken(), solver);
        if (model->stopped())
            return std::nullopt;
        RunOutput& out = outputs[i];
        out.structure = structureHash(data.train, model->outputs());
        if (data.train.featureCount() == probes[k].cols()) {
            const Eigen::MatrixXd s = model->scores(probes[k]);
            out.scores.assign(s.data(), s.data() + s.size());
        }
        out.done = true;
        grid.unitDone();
        CellWriter w;
        w.integer(static_cast<std::int64_t>(out.structure));
        w.integer(static_cast<std::int64_t>(out.scores.size()));
        for (double v : out.scores)
            w.real(v);
        return w.text();
    };
    const auto cells = runCellStage(spec.audit.executor, stage, grid);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        if (cells[i] && !outputs[i].done) {
            CellReader in(*cells[i]);
            RunOutput& out = outputs[i];
            out.structure = static_cast<std::uint64_t>(in.integer());
            out.scores.resize(static_cast<std::size_t>(in.integer()));
            for (double& v : out.scores)
                v = in.real();
            out.done = true;
        }
    result.stopped = grid.stopped();
    if (result.stopped || std::any_of(outputs.begin(), outputs.end(), [](const RunOutput& o) { return !o.done; })) {
        result.stopped = true;
        result.seconds = secondsSince(t0);
        return result;
    }

    // The attacker's score of each run.
    const std::uint64_t structureD = outputs[0].structure, structureD1 = outputs[1].structure;
    result.d.structure = structureD;
    result.dPrime.structure = structureD1;
    result.d.outputs =
        static_cast<int>(outputs[0].scores.size() / static_cast<std::size_t>(std::max<Index>(1, probes[0].rows())));
    result.dPrime.outputs =
        static_cast<int>(outputs[1].scores.size() / static_cast<std::size_t>(std::max<Index>(1, probes[1].rows())));
    result.structural = structureD != structureD1;
    result.scoresD.assign(T, 0.0);
    result.scoresDPrime.assign(T, 0.0);
    auto scoreSlot = [&](std::size_t i) -> double& {
        return (i % 2 == 0 ? result.scoresD : result.scoresDPrime)[i / 2];
    };
    if (result.structural) {
        for (std::size_t i = 0; i < 2 * T; ++i)
            scoreSlot(i) = outputs[i].structure == structureD1 ? 1.0 : 0.0;
    } else {
        // Fisher's discriminant fitted on the shadow runs, applied to the audited ones.
        const std::size_t dims = outputs[0].scores.size();
        std::array<std::vector<const std::vector<double>*>, 2> rows;
        for (std::size_t i = 2 * T; i < outputs.size(); ++i)
            if (outputs[i].scores.size() == dims)
                rows[i % 2].push_back(&outputs[i].scores);
        const Discriminant discriminant = fitDiscriminant(rows[0], rows[1], dims);
        for (std::size_t i = 0; i < 2 * T; ++i) {
            const std::vector<double>& o = outputs[i].scores;
            scoreSlot(i) = o.size() == dims ? discriminant.score(o) : 0.0;
        }
    }
    if (sink)
        for (std::size_t i = 0; i < 2 * T; ++i)
            sink(static_cast<int>(i % 2), static_cast<int>(i / 2), scoreSlot(i));
    result.bound = auditBound(result.scoresD, result.scoresDPrime, boundDelta, spec.audit.alpha);
    result.seconds = secondsSince(t0);
    return result;
}

std::string pipelineAuditVerdict(const PipelineAuditResult& r) {
    if (r.stopped)
        return "stopped before the runs finished: no verdict";
    const std::string conf = formatNumber(100.0 * (1.0 - r.alpha)) + " % confidence";
    const std::string found = "ε_LB = " + formatNumber(r.bound.epsLB) + " (" + conf + "; at most " +
                              formatNumber(r.bound.maxCertifiable) + " with " + std::to_string(r.bound.evaluated) +
                              " evaluated runs per neighbour" +
                              (r.structural ? ", the released structures differ" : "") + ")";
    if (!r.claimed)
        return "no claim to test (" + r.claimBasis + "); " + found;
    if (r.violated())
        return "the claim is violated: ε ≥ " + formatNumber(r.bound.epsLB) + " with " + conf +
               " (claimed ε = " + formatNumber(r.claimedEps) + " for these neighbours" +
               (r.structural ? "; the released structures differ" : "") + ")";
    return "consistent with the claim: " + found + " ≤ ε = " + formatNumber(r.claimedEps);
}

} // namespace elab::core
