#pragma once
// The DP large-margin multiclass Gaussian classifier (Pathak & Raj, corrected; docs/MATH.md §3.4)
// as a PrivateLearner: the corrected private mechanism — Chaudhuri et al.'s Alg. 2 on the stacked
// svec parameters, pure ε-DP, replace-one, natively multiclass (no budget split) — solved by
// Newton-CG on Hessian-vector products; the paper's non-private model (Sha & Saul: PSD-constrained,
// trace-regularised) by projected gradient as the reference. The published private version is not
// private (docs/MATH.md §3.4, erratum) and is not offered.

#include "core/learner/private_learner.h"
#include "core/learner/sweep_data.h"
#include "core/learners/gaussian_lm/gaussian_lm_problem.h"
#include "core/util/noise.h"

namespace elab::core {

/// §3.4's constants at ε for n rows, C classes, Huber width h and mean-form Λ_c.
struct GaussianLmConstants {
    double zeta = 0.0;      ///< ζ = 2√(C(C−1))
    double rank = 0.0;      ///< r = C − 1
    double curvature = 0.0; ///< c = 2C/h
    double eps1 = 0.0;      ///< ε₁ = ε − 2r·log(1 + c/(nΛ_c)) (−∞ for Λ_c = 0)
    double epsPrime = 0.0;
    double extraRidge = 0.0; ///< Δ (mean form)
    bool secondBranch = false;
    double noiseScale = 0.0; ///< 2ζ/ε': ‖b‖ ~ Gamma(d, noiseScale)
};
/// General r, ζ, c (r = 1, ζ = 1 is §3.2's rule exactly).
GaussianLmConstants gaussianLmConstants(double eps, double n, double lambdaMean, double zeta, double rank,
                                        double curvature);
/// The classifier's: ζ, r, c from C and h.
GaussianLmConstants gaussianLmConstants(double eps, double n, double lambdaMean, int classes, double huberWidth);

/// One repetition's standard noise in R^d: b = scale·gammaNorm·direction has ‖b‖ ~ Gamma(d, scale)
/// and a uniform direction, i.e. density ∝ exp(−‖b‖/scale) (scale = 2ζ/ε', docs/MATH.md §3.4).
struct GaussianLmNoise final : LearnerNoise {
    Eigen::VectorXd direction; ///< uniform on S^{d−1}
    double gammaNorm = 0.0;    ///< Gamma(d, 1)
    Eigen::VectorXd b(double scale) const { return (scale * gammaNorm) * direction; }
};

/// Φ_c per class (stacked svec), the released classifier.
class GaussianLmModel final : public TrainedModel {
public:
    GaussianLmModel(Eigen::VectorXd phi, int classes, bool binaryScores, NewtonCgResult solver = {},
                    bool fitted = false)
        : m_phi(std::move(phi)), m_C(classes), m_binary(binaryScores), m_solver(std::move(solver)), m_fitted(fitted) {}

    /// K = 1 (binary data): zᵀΦ₋z − zᵀΦ₊z (> 0: the positive class); else column c = −zᵀΦ_c z.
    int outputs() const override { return m_binary ? 1 : m_C; }
    Eigen::MatrixXd scores(const FeatureMatrix& X) const override;
    bool stopped() const override { return m_solver.status == NewtonCgStatus::Stopped; }
    void record(SolverSummary& summary, double eps, int repetition) const override;

    const Eigen::VectorXd& phi() const { return m_phi; }
    int classes() const { return m_C; }
    /// Φ_c as a (p+1)×(p+1) matrix.
    Eigen::MatrixXd matrix(int c, Index q) const;

private:
    Eigen::VectorXd m_phi;
    int m_C;
    bool m_binary;
    NewtonCgResult m_solver;
    bool m_fitted; ///< by Newton-CG (recorded in the solver summary)
};

class GaussianLmLearner final : public PrivateLearner {
public:
    /// spec.model: the Huber loss (width h) and the user's sum-form Λ; data rows should be clipped
    /// (‖x‖ ≤ 1). Throws std::invalid_argument (invalid spec, too many lifted parameters).
    GaussianLmLearner(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric);

    LearnerCapabilities capabilities() const override { return {false, true}; }
    UtilityMetric metric() const override { return m_metric; }
    int classes() const override { return m_data.classes; }

    std::shared_ptr<const LearnerNoise> drawNoise(std::uint64_t seed, int repetition) const override;
    std::shared_ptr<const TrainedModel> fit(double eps, const LearnerNoise& noise, const TrainedModel* warm,
                                            std::stop_token stop, const FitOptions& options) const override;
    /// Sha & Saul's model: (1/n) Σ L_i + λ_tr Σ_c tr(Ψ_c) over Φ_c ⪰ 0, λ_tr = Λ/n (the same Λ).
    std::shared_ptr<const TrainedModel> fitNonPrivate(std::stop_token stop, const FitOptions& options) const override;
    PrivacyGuarantee guarantee(double eps) const override;
    double utility(const TrainedModel& model) const override;

    /// The guarantee without data (n rows, C classes).
    static PrivacyGuarantee guaranteeFor(const MechanismSpec& spec, Index n, int classes, double eps);
    /// "" if spec is valid for the Gaussian classifier (a margin loss, the Huber SVM loss of
    /// docs/MATH.md §3.4); else why. The catalog's validate for this kind.
    static std::string validateSpec(const MechanismSpec& spec);

    Index dimension() const { return m_W.cols() * m_C; }

private:
    SweepData m_data;
    MechanismSpec m_spec;
    UtilityMetric m_metric;
    int m_C;
    Eigen::MatrixXd m_W; ///< lifted training rows
    Eigen::VectorXi m_cls;
};

} // namespace elab::core
