#pragma once
// The linear ERM mechanisms of docs/MATH.md §3.1–3.3 (objective and output perturbation, and the
// non-private fit), binary or one-vs-rest with the budget split (§3.7), as one PrivateLearner.
// The work is OneVsRest's (core/learners/linear_erm/one_vs_rest.h): this class adapts it to the
// interface. Noise of repetition r: model k from deriveSeed(seed, r, k) (§0.3). Warm starts
// reuse the minimiser of the perturbed objective, which spends no privacy (§0.4); Taylor
// estimates exist for Gaussian objective perturbation only (§4).

#include "core/learner/private_learner.h"
#include "core/learners/linear_erm/one_vs_rest.h"
#include "core/util/noise.h"

namespace elab::core {

/// A fit along a sweep's path: its ε and its models' minimisers (before output noise).
struct PathPoint {
    double eps = 0.0;
    std::vector<Eigen::VectorXd> minimisers;
};

/// K released linear models, θ_k per class (one for a binary classifier).
class LinearErmModel final : public TrainedModel {
public:
    explicit LinearErmModel(OneVsRest::Models fits, double eps = 0.0, std::vector<PathPoint> path = {})
        : m_fits(std::move(fits)), m_eps(eps), m_path(std::move(path)) {}

    int outputs() const override { return static_cast<int>(m_fits.size()); }
    /// Column k: Xθ_k (core/learner/prediction.h: linearScores).
    Eigen::MatrixXd scores(const FeatureMatrix& X) const override;
    bool stopped() const override { return OneVsRest::stopped(m_fits); }
    void record(SolverSummary& summary, double eps, int repetition) const override;

    const OneVsRest::Models& fits() const { return m_fits; }
    /// The ε it was fitted at (0: non-private), and the fits before it on its warm-start path,
    /// most recent first (at most three; empty: a cold start): a sweep extrapolates the next start
    /// from them.
    double eps() const { return m_eps; }
    const std::vector<PathPoint>& path() const { return m_path; }

private:
    OneVsRest::Models m_fits;
    double m_eps = 0.0;
    std::vector<PathPoint> m_path;
};

class LinearErmLearner final : public PrivateLearner {
public:
    /// Throws std::invalid_argument as OneVsRest's constructor. data must outlive the learner.
    /// Prepares the Gram matrix once (the preconditioner of every fit).
    LinearErmLearner(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric)
        : m_problem(data, spec, metric), m_metric(metric) {}

    LearnerCapabilities capabilities() const override;
    UtilityMetric metric() const override { return m_metric; }
    int classes() const override { return m_problem.classes(); }
    int models() const override { return m_problem.models(); }

    std::shared_ptr<const LearnerNoise> drawNoise(std::uint64_t seed, int repetition) const override;
    std::shared_ptr<const TrainedModel> fit(double eps, const LearnerNoise& noise, const TrainedModel* warm,
                                            std::stop_token stop, const FitOptions& options) const override;
    std::shared_ptr<const TrainedModel> fitNonPrivate(std::stop_token stop, const FitOptions& options) const override;
    PrivacyGuarantee guarantee(double eps) const override { return m_problem.guarantee(eps); }
    double utility(const TrainedModel& model) const override;
    double trainLossBound(double eps, const TrainedModel& nonPrivate) const override;
    TaylorPoint taylorPoint(double eps, const LearnerNoise& noise, const TrainedModel& fit, bool secondOrder,
                            std::vector<TaylorPoint>* perModel = nullptr) const override;
    TaylorAnchor taylorAnchor(const LearnerNoise& noise, const TrainedModel& nonPrivate,
                              std::vector<TaylorAnchor>* perModel = nullptr) const override;
    std::vector<NoiseExpansion> noiseExpansions(const TrainedModel& nonPrivate) const override;

    const OneVsRest& oneVsRest() const { return m_problem; }

private:
    OneVsRest m_problem;
    UtilityMetric m_metric;
};

} // namespace elab::core
