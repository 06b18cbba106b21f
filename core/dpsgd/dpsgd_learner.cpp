#include "core/dpsgd/dpsgd_learner.h"

#include "core/learner/prediction.h"
#include "core/util/format_number.h"

#include <cmath>
#include <limits>
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
    const double sigma = calibrateSigma(m_spec.sgd.accountant, eps, privacyParams(m_spec, m_data.trainX.rows())).sigma;
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
                                                      std::stop_token stop, const NewtonCgOptions&) const {
    const auto& n = dynamic_cast<const DpsgdNoise&>(noise);
    const double sigma = sigmaFor(eps);
    SgdRun run{sigma, true, n.seed, n.repetition};
    SgdResult r = trainSgd(m_data.trainX, m_cls, m_K, m_spec.sgd, run, std::move(stop));
    return std::make_shared<DpsgdModel>(std::move(r.net), m_data.classes < 2, sigma, r.stopped);
}

std::shared_ptr<const TrainedModel> DpsgdLearner::fitNonPrivate(std::stop_token stop, const NewtonCgOptions&) const {
    SgdRun run{0.0, false, 0, 0};
    SgdResult r = trainSgd(m_data.trainX, m_cls, m_K, m_spec.sgd, run, std::move(stop));
    return std::make_shared<DpsgdModel>(std::move(r.net), m_data.classes < 2, 0.0, r.stopped);
}

std::vector<EpochMetrics> DpsgdLearner::trainEpochs(double eps, std::uint64_t seed, int repetition, std::stop_token stop,
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

PrivacyGuarantee DpsgdLearner::guaranteeFor(const MechanismSpec& spec, Index n, int classes, double eps) {
    (void)classes;
    PrivacyGuarantee g;
    const SgdSpec& s = spec.sgd;
    SgdPrivacyParams p = privacyParams(spec, n);
    const Calibration cal = calibrateSigma(s.accountant, eps, p);
    p.sigma = cal.sigma;
    // The proven ε of this σ: the chosen accountant's, or RDP's where the chosen one is not a proof.
    const AccountantResult proven = cal.result.proven ? cal.result : accountEpsilon(AccountantKind::Rdp, p);
    g.isPrivate = std::isfinite(proven.epsilon);
    g.epsilon = proven.epsilon;
    g.delta = p.delta;
    g.notion = "(ε, δ)-DP";
    g.adjacency = Adjacency::AddRemove;
    g.source = "DP-SGD (Abadi et al. 2016; Ermis & Cemgil for dropout), σ by " + accountantTitle(s.accountant);
    g.branch = toString(s.accountant);
    const EpsDelta replace = replaceOneEquivalent(g.epsilon, g.delta);
    g.assumptions = {
        "adjacency: add or remove one training row; replacing one row is (" + formatNumber(replace.epsilon) + ", " +
            formatNumber(replace.delta) + ")-DP by group privacy",
        "each row is in each step's batch independently with probability q = S/N (Poisson sampling)",
        "N (which sets q and the number of steps) is public: a dataset with one row more or less is trained with "
        "the same q and steps (otherwise the step count itself can reveal the row: docs/MATH.md D14)",
        std::string("each example's gradient is clipped to ") +
            (s.clipMode == ClipMode::PerLayer ? "C_l = " + formatNumber(s.clip) + " per layer (sensitivity C = " + formatNumber(s.sensitivity()) + ")"
                                              : "norm C = " + formatNumber(s.clip)),
        "only the final network is released; the per-epoch curves of the training view are not private",
        "rows clipped to ‖x‖ ≤ 1 as everywhere (not needed by DP-SGD's proof, which clips gradients)"};
    if (!cal.result.proven)
        g.notes.push_back("σ from the paper's zCDP procedure as published, which claims ε = " + formatNumber(eps) +
                          " but is not a valid proof; the RDP accountant certifies ε = " + formatNumber(proven.epsilon) + " for this σ");
    if (!cal.reachedTarget)
        g.notes.push_back("the accountant's ε(σ) jumps past ε = " + formatNumber(eps) + ": the smallest σ found certifies ε = " +
                          formatNumber(cal.result.epsilon) +
                          " (advanced composition: its largest ε, where ε_it reaches 1; RDP: ε = 0 past the KL bound); "
                          "the guarantee is that ε");
    for (const std::string& note : cal.result.notes)
        g.notes.push_back(note);
    g.parameters = {{"sigma", "σ", cal.sigma},
                    {"q", "q", p.q},
                    {"steps", "T", static_cast<double>(p.steps)},
                    {"sensitivity", "C", s.sensitivity()},
                    {"noise_sd", "σC", cal.sigma * s.sensitivity()},
                    {"eps_replace_one", "ε (replace-one)", replace.epsilon},
                    {"delta_replace_one", "δ (replace-one)", replace.delta}};
    for (const MechanismParameter& m : cal.result.parameters)
        g.parameters.push_back(m);
    return g;
}

} // namespace elab::core
