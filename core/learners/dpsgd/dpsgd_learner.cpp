#include "core/learners/dpsgd/dpsgd_learner.h"

#include "core/learner/prediction.h"
#include "core/util/format_number.h"
#include "core/util/noise.h"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace elab::core {

namespace {

SgdPrivacyParams privacyParams(const MechanismSpec& spec, Index n) {
    SgdPrivacyParams p;
    p.q = spec.sgd.samplingRate(n);
    p.steps = spec.sgd.totalSteps(n);
    p.delta = spec.privacy.delta;
    return p;
}

/// σ for the stated guarantee at ε: add/remove at (ε, δ) with N public; else replace-one, i.e. the
/// add/remove accountant at (ε/2, δ/(1 + e^{ε/2})) (result restated as replace-one).
Calibration calibrated(const MechanismSpec& spec, double eps, const SgdPrivacyParams& p) {
    if (spec.sgd.publicRows > 0)
        return calibrateSigma(spec.sgd.accountant, eps, p);
    if (std::optional<Calibration> c = calibrateSigmaReplaceOneWithinLimit(spec.sgd.accountant, eps, p))
        return *std::move(c);
    throw std::runtime_error("calibration: no noise multiplier up to 1e6 reaches replace-one ε = " + formatNumber(eps) +
                             " (add/remove ε/2 at δ/(1 + e^{ε/2}))");
}

} // namespace

Eigen::MatrixXd DpsgdModel::scores(const FeatureMatrix& X) const {
    Eigen::MatrixXd logits = networkLogits(m_net, X);
    if (!m_binary)
        return logits;
    return logits.col(1) - logits.col(0);
}

DpsgdLearner::DpsgdLearner(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric)
    : m_data(data), m_spec(spec), m_metric(metric), m_K(data.classes >= 2 ? data.classes : 2) {
    if (std::string e = spec.sgd.validate(); !e.empty())
        throw std::invalid_argument("DP-SGD: " + e);
    if (data.trainX.rows() == 0)
        throw std::invalid_argument("DP-SGD: no training rows");
    if (usesTestSet(metric) && (!data.testX || !data.testY))
        throw std::invalid_argument("DP-SGD: the metric needs a test set");
    m_cls = classIndicesOf(data.trainY, data.classes);
    if (data.testY)
        m_testCls = classIndicesOf(*data.testY, data.classes);
}

std::shared_ptr<const LearnerNoise> DpsgdLearner::drawNoise(std::uint64_t seed, int repetition) const {
    auto noise = std::make_shared<DpsgdNoise>();
    noise->seed = seed;
    noise->repetition = repetition;
    return noise;
}

double DpsgdLearner::sigmaFor(double eps) const {
    {
        const std::lock_guard lock(m_sigmaMutex);
        if (const auto it = m_sigmas.find(eps); it != m_sigmas.end())
            return it->second;
    }
    // Calibrated outside the lock (milliseconds); two threads may both calibrate one ε, with the
    // same result.
    const double sigma = calibrated(m_spec, eps, privacyParams(m_spec, m_data.trainX.rows())).sigma;
    const std::lock_guard lock(m_sigmaMutex);
    m_sigmas.emplace(eps, sigma);
    return sigma;
}

SgdResult DpsgdLearner::train(double eps, std::uint64_t seed, int repetition, std::stop_token stop,
                              const SgdMonitor* monitor) const {
    SgdRun run;
    run.seed = seed;
    run.repetition = repetition;
    run.isPrivate = std::isfinite(eps);
    run.sigma = run.isPrivate ? sigmaFor(eps) : 0.0;
    return trainSgd(m_data.trainX, m_cls, m_K, m_spec.sgd, run, std::move(stop), monitor);
}

std::shared_ptr<const TrainedModel> DpsgdLearner::fit(double eps, const LearnerNoise& noise, const TrainedModel*,
                                                      std::stop_token stop, const FitOptions&) const {
    const auto& n = dynamic_cast<const DpsgdNoise&>(noise);
    const double sigma = sigmaFor(eps);
    SgdRun run{sigma, true, n.seed, n.repetition};
    SgdResult r = trainSgd(m_data.trainX, m_cls, m_K, m_spec.sgd, run, std::move(stop));
    return std::make_shared<DpsgdModel>(std::move(r.net), m_data.classes < 2, sigma, r.stopped);
}

std::shared_ptr<const TrainedModel> DpsgdLearner::fitNonPrivate(std::stop_token stop, const FitOptions&) const {
    SgdRun run{0.0, false, 0, 0};
    SgdResult r = trainSgd(m_data.trainX, m_cls, m_K, m_spec.sgd, run, std::move(stop));
    return std::make_shared<DpsgdModel>(std::move(r.net), m_data.classes < 2, 0.0, r.stopped);
}

std::vector<EpochMetrics> DpsgdLearner::trainEpochs(double eps, std::uint64_t seed, int repetition,
                                                    std::stop_token stop,
                                                    const std::function<void(const EpochMetrics&)>& onEpoch) const {
    std::vector<EpochMetrics> out;
    SgdMonitor monitor;
    if (m_data.testX && m_data.testY) {
        monitor.testX = m_data.testX;
        monitor.testClasses = &m_testCls;
    }
    monitor.onEpoch = [&](const EpochReport& r) {
        out.push_back({r.epoch, r.steps, r.train.loss, r.train.accuracy, r.test.loss, r.test.accuracy});
        if (onEpoch)
            onEpoch(out.back());
    };
    train(eps, seed, repetition, std::move(stop), &monitor);
    return out;
}

PrivacyGuarantee DpsgdLearner::guarantee(double eps) const {
    return guaranteeFor(m_spec, m_data.trainX.rows(), m_data.classes, eps);
}

double DpsgdLearner::utility(const TrainedModel& model) const {
    const auto& m = dynamic_cast<const DpsgdModel&>(model);
    const bool test = usesTestSet(m_metric);
    const FeatureMatrix& X = test ? *m_data.testX : m_data.trainX;
    const ClassificationMetrics c = classificationMetrics(networkLogits(m.network(), X), test ? m_testCls : m_cls);
    return isLossMetric(m_metric) ? c.loss : c.accuracy;
}

std::string DpsgdLearner::validateSpec(const MechanismSpec& spec) {
    if (std::string e = spec.model.validate(); !e.empty())
        return e;
    if (!(spec.privacy.delta > 0.0 && spec.privacy.delta < 1.0))
        return "δ must be in (0, 1)";
    return spec.sgd.validate();
}

PrivacyGuarantee DpsgdLearner::guaranteeFor(const MechanismSpec& spec, Index n, int classes, double eps) {
    (void)classes;
    PrivacyGuarantee g;
    const SgdSpec& s = spec.sgd;
    const bool nPublic = s.publicRows > 0;
    const long long rows = nPublic ? s.publicRows : static_cast<long long>(n);
    SgdPrivacyParams p = privacyParams(spec, n);
    const Calibration cal = calibrated(spec, eps, p);
    p.sigma = cal.sigma;
    // The ε of this σ at δ: add/remove, or the least replace-one ε by group privacy (≤ the
    // calibration's 2ε_a; the same figure the accounting view and the CLI give for σ). The proven
    // one: the chosen accountant's, or RDP's where the chosen one is not a proof.
    const auto at = [&](AccountantKind kind) { return nPublic ? accountEpsilon(kind, p) : replaceOneEpsilon(kind, p); };
    const AccountantResult stated = nPublic ? cal.result : at(s.accountant);
    const AccountantResult proven = stated.proven ? stated : at(AccountantKind::Rdp);
    g.isPrivate = std::isfinite(proven.epsilon);
    g.epsilon = proven.epsilon;
    g.delta = proven.delta;
    g.notion = "(ε, δ)-DP";
    g.adjacency = nPublic ? Adjacency::AddRemove : Adjacency::ReplaceOne;
    g.source = "DP-SGD (Abadi et al. 2016; Ermis & Cemgil for dropout), σ by " + accountantTitle(s.accountant);
    g.branch = toString(s.accountant);
    const std::string clipping =
        std::string("each example's gradient is clipped to ") +
        (s.clipMode == ClipMode::PerLayer
             ? "C_l = " + formatNumber(s.clip) + " per layer (sensitivity C = " + formatNumber(s.sensitivity()) + ")"
             : "norm C = " + formatNumber(s.clip));
    const EpsDelta replace = replaceOneEquivalent(g.epsilon, g.delta);
    const double epsA = nPublic ? g.epsilon : proven.parameter("eps_add_remove");
    const double deltaA = nPublic ? g.delta : proven.parameter("delta_add_remove");
    if (nPublic)
        g.assumptions = {
            "adjacency: add or remove one training row; replacing one row is (" + formatNumber(replace.epsilon) + ", " +
                formatNumber(replace.delta) + ")-DP by group privacy",
            "N = " + std::to_string(rows) +
                " declared public: q = S/N and the number of steps are the same for a dataset "
                "with one row more or less (were N the private row count, the step count itself could reveal a row: "
                "docs/MATH.md D14)",
            "each row is in each step's batch independently with probability q = S/N (Poisson sampling)"};
    else
        g.assumptions = {
            "adjacency: replace one training row, the row count |D| = " + std::to_string(rows) +
                " fixed (N = |D| sets q = S/N and the number of steps; adding or removing a row would change them, so "
                "no add/remove guarantee is claimed: declare N public for one)",
            s.accountant == AccountantKind::Pld
                ? std::string("replace-one directly: the privacy loss distribution of one row's gradient replaced by "
                              "another's (the pair (1−q)N(0, σ²C²) + qN(∓C, σ²C²) per step), not group privacy")
                : "replace-one by group privacy (remove a row, add another, q and T unchanged) from the accountant's "
                  "add/remove (ε_a, δ_a) = (" +
                      formatNumber(epsA) + ", " + formatNumber(deltaA) + "): (2ε_a, (1 + e^{ε_a})δ_a)",
            "each row is in each step's batch independently with probability q = S/N (Poisson sampling)"};
    g.assumptions.push_back(clipping);
    g.assumptions.push_back(
        "only the final network is released; the per-epoch curves of the training view are not private");
    g.assumptions.push_back(
        "rows clipped to ‖x‖ ≤ 1 as everywhere (not needed by DP-SGD's proof, which clips gradients)");
    if (!cal.result.proven)
        g.notes.push_back("σ from the paper's zCDP procedure as published, which claims ε = " + formatNumber(eps) +
                          " but is not a valid proof; the RDP accountant certifies ε = " +
                          formatNumber(proven.epsilon) + " for this σ");
    if (!cal.reachedTarget)
        g.notes.push_back("the accountant's ε(σ) jumps past ε = " + formatNumber(eps) +
                          ": the smallest σ found certifies ε = " + formatNumber(stated.epsilon) +
                          " (advanced composition: its largest ε, where ε_it reaches 1; RDP: ε = 0 past the KL bound); "
                          "the guarantee is that ε");
    for (const std::string& note : cal.result.notes)
        g.notes.push_back(note);
    g.parameters = {{"sigma", "σ", cal.sigma},
                    {"q", "q", p.q},
                    {"steps", "T", static_cast<double>(p.steps)},
                    {"rows", nPublic ? "N (public)" : "N = |D|", static_cast<double>(rows)},
                    {"sensitivity", "C", s.sensitivity()},
                    {"noise_sd", "σC", cal.sigma * s.sensitivity()}};
    if (nPublic) {
        g.parameters.push_back({"eps_replace_one", "ε (replace-one)", replace.epsilon});
        g.parameters.push_back({"delta_replace_one", "δ (replace-one)", replace.delta});
    } else {
        g.parameters.push_back({"eps_add_remove", "ε_a (add/remove, at fixed q and T)", epsA});
        g.parameters.push_back({"delta_add_remove", "δ_a (add/remove)", deltaA});
    }
    for (const MechanismParameter& m : cal.result.parameters)
        if (m.name != "eps_add_remove" && m.name != "delta_add_remove")
            g.parameters.push_back(m);
    return g;
}

double DpsgdLearner::epsilonSpent(const MechanismSpec& spec, Index n, double sigma, long long steps) {
    SgdPrivacyParams p = privacyParams(spec, n);
    p.sigma = sigma;
    p.steps = steps;
    return (spec.sgd.publicRows > 0 ? accountEpsilon(spec.sgd.accountant, p)
                                    : replaceOneEpsilon(spec.sgd.accountant, p))
        .epsilon;
}

} // namespace elab::core
