#pragma once
// Multiclass by one-vs-rest with the privacy budget split across classes (issue 3; docs/MATH.md §3.7).
//
// K binary linear models: model k is trained on y_k = +1 for class k and −1 for the rest,
// with the binary mechanism of docs/MATH.md §3 at ε/K (and δ/K for the Gaussian mechanisms).
// Every row is used by all K models, so by basic sequential composition (Dwork & Roth 2014,
// Thm 3.16: mechanisms that are (ε_k, δ_k)-DP are (Σε_k, Σδ_k)-DP together) the K models
// released together satisfy the (ε, δ) asked for. Prediction: argmax_k θ_kᵀx.
// Model k of repetition r draws its noise from the stream deriveSeed(seed, r, k) and reuses it
// for every ε (§3.1), so results are identical for any thread count.
//
// Binary data (±1 labels) and regression targets are the case of one model with the whole
// budget; its stream deriveSeed(seed, r, 0) = deriveSeed(seed, r) is the binary sweep's.
//
// Utility: evaluateOneVsRest (utility_metric.h) — loss F = (1/K) Σ_k L_k(θ_k), accuracy of the
// argmax. Taylor (Gaussian objective perturbation, docs/MATH.md §4): model k sees ε/K, so
//   F(ε) = (1/K) Σ_k F_k(ε/K),  F′(ε) = (1/K) Σ_k F_k′(ε/K)/K,  F″(ε) = (1/K) Σ_k F_k″(ε/K)/K²,
// and, with v = ε^{−1/2} (the anchored estimator), dF/dv at v = 0 is (1/K) Σ_k √K·dF_k/dv_k.
// Every estimator of taylor.h is linear in (F, F′, F″, anchor) after this chain rule, so
// evaluating it per model at ε̂/K and averaging equals evaluating it on the combined point.

#include "core/learner/solver_summary.h"
#include "core/learner/sweep_data.h"
#include "core/learner/utility_metric.h"
#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/learners/linear_erm/private_fit.h"
#include "core/learners/linear_erm/taylor.h"
#include "core/model/merged_rows.h"
#include "core/model/prefix_tree.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <vector>

namespace elab::core {

class OneVsRest {
public:
    using Models = std::vector<PrivateFit>; ///< one fit per model, in class order

    /// data.classes = 0: one model on the labels as given; K ≥ 2: K one-vs-rest models.
    /// Throws std::invalid_argument: invalid spec; one-vs-rest with the squared loss; labels
    /// that are not class indices 0..K−1 (K ≥ 2), or not ±1 for a margin loss (classes = 0:
    /// multiclass data needs classes = K, see sweepDataOf); a test metric without a test set.
    /// data must outlive this object.
    OneVsRest(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric);

    int models() const { return m_models; }        ///< K, or 1 for a binary classifier
    int classes() const { return m_data.classes; } ///< K, or 0 for a binary classifier
    const MechanismSpec& spec() const { return m_spec; }
    const MechanismSpec& modelSpec() const { return m_modelSpec; } ///< δ/K
    /// Whether the fits read a CSR copy of dense training rows (for tests and reports).
    bool fitsSparseCopy() const {
        return !m_data.trainX.isSparse() && (m_merged ? m_merged->X.isSparse() : m_fittedX.has_value());
    }
    double modelEps(double eps) const { return eps / m_models; } ///< ε/K
    /// Model k's training labels: ±1 read from the class indices (K ≥ 2), or the targets.
    Labels trainLabels(int model) const;

    /// Repetition r's noise: one draw per model, model k from deriveSeed(seed, r, k).
    std::vector<NoiseDraw> drawNoise(std::uint64_t seed, int repetition) const;

    /// The guarantee of the whole classifier at ε (for K models: composed, the split stated in
    /// its notes, each model's own notes prefixed "each model:").
    PrivacyGuarantee guarantee(double eps) const;

    /// Trains every model at the classifier's ε (model k at ε/K with noise[k]), in parallel
    /// across models; warm: the models' previous minimisers, or nullptr.
    /// Thread: any; reentrant (the models are independent and each is deterministic).
    Models fit(double eps, const std::vector<NoiseDraw>& noise, const std::vector<Eigen::VectorXd>* warm,
               std::stop_token stop = {}, const NewtonCgOptions& options = {}) const;
    /// The non-private models (Λ only): the reference utility and the anchor's θ.
    Models fitNonPrivate(std::stop_token stop = {}, const NewtonCgOptions& options = {}) const;

    /// The metric of the released models on the metric's data (train or test).
    double utility(const Models& fits) const;
    /// docs/MATH.md §4.5 (ours): an upper bound on the expected training loss of the released
    /// classifier at ε, from the non-private fits θ̂_k: per model (at ε/K) J(θ̂) +
    /// (E‖c‖² + a²‖θ̂‖²)/(2(a + μ)) + (c·max‖x‖² + Λ/n)/2 · E‖b‖² (core/privacy NoiseMoments), averaged
    /// over the K models as the training-loss metric is. NaN for a mechanism without noise moments.
    double trainLossBound(double eps, const Models& nonPrivate) const;

    /// F, F′ (and F″) of the whole classifier at ε̄ from its models' minimisers (same noise as
    /// the fits). perModel, if given, receives the K per-model points at ε̄/K.
    TaylorPoint taylorPoint(double eps, const std::vector<NoiseDraw>& noise, const Models& fits, bool secondOrder,
                            std::vector<TaylorPoint>* perModel = nullptr) const;
    /// The classifier's anchor at ε = ∞ from the non-private models; perModel as above.
    TaylorAnchor taylorAnchor(const std::vector<NoiseDraw>& noise, const Models& nonPrivate,
                              std::vector<TaylorAnchor>* perModel = nullptr) const;
    /// The variance estimator's expansion of each model (at ε/K and δ/K) around its non-private fit.
    std::vector<NoiseExpansion> noiseExpansions(const Models& nonPrivate) const;

    /// Adds the fits' solver outcomes to summary (model −1 when there is one model).
    void record(SolverSummary& summary, const Models& fits, double eps, int repetition) const;

    static bool stopped(const Models& fits);
    static std::vector<Eigen::VectorXd> minimisers(const Models& fits);
    /// The chain rule above: per-model points at ε̄/K → the classifier's point at ε̄.
    static TaylorPoint combine(const std::vector<TaylorPoint>& perModel, double eps);
    static TaylorAnchor combine(const std::vector<TaylorAnchor>& perModel);

private:
    const FeatureMatrix& metricX() const;
    Labels metricLabels(int model) const;

    SweepData m_data;
    MechanismSpec m_spec, m_modelSpec;
    UtilityMetric m_metric;
    int m_models = 1;
    Eigen::MatrixXd m_gram; ///< the preconditioner's XᵀX/n, once for every fit (empty if p is large)
    Eigen::VectorXd
        m_rowScale; ///< constantRowValues of the fitted rows (merged or not) when sparse, once for every fit
    /// m_rowScale when it is the training rows' (not merged, not a CSR copy), else nullptr (the Taylor terms read the
    /// rows as given).
    const Eigen::VectorXd* trainRowScale() const { return m_merged || m_fittedX ? nullptr : &m_rowScale; }
    // Equal training rows merged for the fits (docs/MATH.md §2.1), when that removes ≥ 10 % of
    // them: the distinct rows and c⁺ per model. Metrics, Taylor points and bounds read the rows
    // as given.
    std::optional<MergedRows> m_merged;
    std::vector<Eigen::VectorXd> m_mergedPlus;
    // The training rows as the fits read them when not merged: a CSR copy of dense rows that
    // are mostly zeros (one_vs_rest.cpp, kMaxSparseCopyDensity), else the rows as given.
    std::optional<FeatureMatrix> m_fittedX;
    const FeatureMatrix& fittedX() const { return m_fittedX ? *m_fittedX : m_data.trainX; }
    // The prefix tree of the fitted rows (merged or not) when they are binary and share enough
    // prefixes (core/model/prefix_tree.h).
    std::optional<PrefixTree> m_prefixTree;
    void mergedRowsInWalkOrder();
    PrivateFit fitModel(int k, const MechanismSpec& spec, double eps, const NoiseDraw& noise,
                        const Eigen::VectorXd* warm, std::stop_token stop, const NewtonCgOptions& options) const;
};

/// The guarantee of a one-vs-rest classifier of `models` models (1: a binary classifier) on n
/// training rows at the classifier's ε: each model at (ε/K, δ/K), composed (basic composition,
/// Dwork & Roth 2014 Thm 3.16), the split stated in the notes. What OneVsRest::guarantee
/// returns; usable before any data is prepared (the GUI's guarantee box).
PrivacyGuarantee oneVsRestGuarantee(const MechanismSpec& spec, Index n, int models, double eps);

} // namespace elab::core
