#pragma once
// DP-SGD (docs/MATH.md §3.6) as a PrivateLearner (issue 12): at ε the noise multiplier σ is
// calibrated by the chosen accountant for q = S/N, T = epochs·⌈1/q⌉ steps and δ, then the network
// is trained with the repetition's streams (the same samples, masks and standard normals at every
// ε). No warm starts (each ε is a new private run), no Taylor estimates (§4 is derived for
// objective perturbation only).

#include "core/learner/private_learner.h"
#include "core/learner/sweep_data.h"
#include "core/learners/dpsgd/network.h"
#include "core/learners/dpsgd/sgd_trainer.h"
#include "core/util/noise.h"

#include <map>
#include <mutex>

namespace elab::core {

/// One repetition's randomness: the streams (seed, repetition) the trainer derives every step from.
struct DpsgdNoise final : LearnerNoise {
    std::uint64_t seed = 0;
    int repetition = 0;
};

/// The released network. Scores: K = 1 for binary data (logit of the positive class minus the
/// negative's), else the K logits.
class DpsgdModel final : public TrainedModel {
public:
    DpsgdModel(Network net, bool binaryScores, double sigma, bool stopped)
        : m_net(std::move(net)), m_binary(binaryScores), m_sigma(sigma), m_stopped(stopped) {}
    int outputs() const override { return m_binary ? 1 : m_net.outputs(); }
    Eigen::MatrixXd scores(const FeatureMatrix& X) const override;
    bool stopped() const override { return m_stopped; }
    const Network& network() const { return m_net; }
    double sigma() const { return m_sigma; }

private:
    Network m_net;
    bool m_binary;
    double m_sigma;
    bool m_stopped;
};

class DpsgdLearner final : public PrivateLearner {
public:
    /// spec.sgd: the network and schedule; spec.privacy.delta: δ. Throws std::invalid_argument.
    DpsgdLearner(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric);

    LearnerCapabilities capabilities() const override { return {false, false, true}; }
    UtilityMetric metric() const override { return m_metric; }
    int classes() const override { return m_data.classes; }

    std::shared_ptr<const LearnerNoise> drawNoise(std::uint64_t seed, int repetition) const override;
    std::shared_ptr<const TrainedModel> fit(double eps, const LearnerNoise& noise, const TrainedModel* warm,
                                            std::stop_token stop, const FitOptions& options) const override;
    /// SGD with the same schedule and samples, no clipping, no noise (seed 0, repetition 0).
    std::shared_ptr<const TrainedModel> fitNonPrivate(std::stop_token stop, const FitOptions& options) const override;
    PrivacyGuarantee guarantee(double eps) const override;
    std::vector<EpochMetrics> trainEpochs(double eps, std::uint64_t seed, int repetition, std::stop_token stop,
                                          const std::function<void(const EpochMetrics&)>& onEpoch) const override;
    /// Accuracy from the scores; loss: the softmax cross-entropy the network is trained on.
    double utility(const TrainedModel& model) const override;

    /// The guarantee without data (n training rows, K classes), docs/MATH.md §3.6. With N declared
    /// public (spec.sgd.publicRows > 0): add/remove at (ε, δ), q = S/N and T fixed by that N,
    /// and its replace-one equivalent. Without: replace-one at the fixed |D| = n, σ calibrated so
    /// that the replace-one (ε, δ) — from the add/remove accountant at (ε/2, δ/(1 + e^{ε/2})) by
    /// group privacy — is ≤ the asked (ε, δ); stated: the least replace-one ε at δ of that σ
    /// (replaceOneEpsilon), its add/remove (ε_a, δ_a) as parameters.
    static PrivacyGuarantee guaranteeFor(const MechanismSpec& spec, Index n, int classes, double eps);
    /// "" if spec is valid for DP-SGD (the model's checks, δ ∈ (0, 1), the SGD settings); else why.
    /// The catalog's validate for this kind.
    static std::string validateSpec(const MechanismSpec& spec);
    /// The ε spent after `steps` steps at σ, in the guarantee's terms (with N public: the
    /// accountant's add/remove ε at δ; else replaceOneEpsilon at δ): after the last step of a run
    /// calibrated for ε, the guarantee's ε.
    static double epsilonSpent(const MechanismSpec& spec, Index n, double sigma, long long steps);
    /// The σ fit() uses at ε (calibrated once per ε and kept: a sweep's repetitions and an
    /// audit's runs share it).
    double sigmaFor(double eps) const;

    /// Trains one run at ε (ε = ∞: non-private) with a per-epoch monitor (the training view).
    SgdResult train(double eps, std::uint64_t seed, int repetition, std::stop_token stop,
                    const SgdMonitor* monitor) const;
    const Eigen::VectorXi& trainClasses() const { return m_cls; }
    const Eigen::VectorXi& testClasses() const { return m_testCls; }

private:
    SweepData m_data;
    MechanismSpec m_spec;
    UtilityMetric m_metric;
    int m_K;
    Eigen::VectorXi m_cls;
    Eigen::VectorXi m_testCls;
    mutable std::mutex m_sigmaMutex;
    mutable std::map<double, double> m_sigmas; ///< ε → σ, a pure function of ε: caching keeps results identical
};

} // namespace elab::core
