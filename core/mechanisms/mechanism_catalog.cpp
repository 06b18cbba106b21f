#include "core/mechanisms/mechanism_catalog.h"

#include "core/learners/dpsgd/dpsgd_learner.h"
#include "core/learners/dpsgd/dpsgd_parameters.h"
#include "core/learners/gaussian_lm/gaussian_lm_learner.h"
#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/learners/linear_erm/linear_erm_learner.h"
#include "core/learners/linear_erm/one_vs_rest.h"

#include <stdexcept>

namespace elab::core {

namespace {

std::shared_ptr<const PrivateLearner> makeLinear(const SweepData& data, const MechanismSpec& spec,
                                                 UtilityMetric metric) {
    return std::make_shared<const LinearErmLearner>(data, spec, metric);
}

PrivacyGuarantee linearGuarantee(const MechanismSpec& spec, Eigen::Index n, int classes, double eps) {
    return classes >= 2 ? oneVsRestGuarantee(spec, n, classes, eps)
                        : perturbedProblem(spec, n, eps, NoiseDraw{}).guarantee;
}

std::shared_ptr<const PrivateLearner> makeGaussianLm(const SweepData& data, const MechanismSpec& spec,
                                                     UtilityMetric metric) {
    return std::make_shared<const GaussianLmLearner>(data, spec, metric);
}

std::shared_ptr<const PrivateLearner> makeDpsgd(const SweepData& data, const MechanismSpec& spec,
                                                UtilityMetric metric) {
    return std::make_shared<const DpsgdLearner>(data, spec, metric);
}

constexpr const char* kNoTaylorNoise =
    "Taylor estimates need Gaussian objective perturbation: its noise is one fixed draw rescaled with ε, so "
    "the model moves smoothly with ε (docs/MATH.md §4).";

} // namespace

const std::vector<MechanismInfo>& mechanismCatalog() {
    static const std::vector<MechanismInfo> catalog{
        {.kind = MechanismKind::NonPrivate,
         .title = "Non-private (reference)",
         .summary = "Regularised ERM without noise: the utility a private model aims for",
         .requiredLoss = std::nullopt,
         .taylor = false,
         .noTaylorReason = "The non-private model does not depend on ε.",
         .guarantee = linearGuarantee,
         .make = makeLinear,
         .nativeMulticlass = false,
         .formula = "θ̂ = argmin L(θ) + (Λ/2n)‖θ‖², L the mean loss: no noise.",
         .isPrivate = false,
         .usesDelta = false,
         .validate = validateLinearErm},
        {.kind = MechanismKind::ObjPertGauss,
         .title = "Objective perturbation (ε, δ)",
         .summary = "Gaussian noise in the objective (Kifer, Smith & Thakurta 2012; Li et al. Thm 1). "
                    "The only mechanism with Taylor estimates.",
         .requiredLoss = std::nullopt,
         .taylor = true,
         .noTaylorReason = "",
         .guarantee = linearGuarantee,
         .make = makeLinear,
         .nativeMulticlass = false,
         .formula =
             "θ_ε = argmin L(θ) + ((Λ + Δ_ε)/2n)‖θ‖² + (1/n)bᵀθ with Δ_ε = 2c/ε, b = s(ε)·z, z ~ N(0, I), "
             "s(ε) = ζ·√(8·log(2/δ) + 4ε)/ε; ζ bounds |ℓ′|, c bounds ℓ″, rows ‖x‖ ≤ 1 (Kifer, Smith & Thakurta 2012, "
             "as Li et al. Thm 1 states it; docs/MATH.md §3.1).",
         .usesDelta = true,
         .validate = validateLinearErm},
        {.kind = MechanismKind::ObjPertPure,
         .title = "Objective perturbation (pure ε)",
         .summary = "Noise with density ∝ exp(−ε'‖b‖/2) in the objective (Chaudhuri et al. 2011, Alg. 2)",
         .requiredLoss = std::nullopt,
         .taylor = false,
         .noTaylorReason = kNoTaylorNoise,
         .guarantee = linearGuarantee,
         .make = makeLinear,
         .nativeMulticlass = false,
         .formula =
             "ε₁ = ε − 2·log(1 + c/(nΛ_c)); if ε₁ ≥ ε/2: Δ = 0, ε' = ε₁, else Δ = c/(n(e^{ε/4} − 1)) − Λ_c, ε' = ε/2; "
             "θ = argmin L(θ) + ((Λ_c + Δ)/2)‖θ‖² + (1/n)bᵀθ, ‖b‖ ~ Gamma(p, 2/ε') in a uniform direction; Λ_c = Λ/n "
             "(Chaudhuri, Monteleoni & Sarwate 2011, Alg. 2, with the branch of larger ε'; docs/MATH.md §3.2).",
         .usesDelta = false,
         .validate = validateLinearErm},
        {.kind = MechanismKind::OutPertPure,
         .title = "Output perturbation (pure ε)",
         .summary = "Noise added to the non-private minimiser (Chaudhuri et al. 2011, Alg. 1); needs Λ > 0",
         .requiredLoss = std::nullopt,
         .taylor = false,
         .noTaylorReason = kNoTaylorNoise,
         .guarantee = linearGuarantee,
         .make = makeLinear,
         .nativeMulticlass = false,
         .formula =
             "θ = θ̂ + b, sensitivity ‖θ̂(D) − θ̂(D′)‖ ≤ 2ζ/(nΛ_c), ‖b‖ ~ Gamma(p, 2ζ/(nΛ_c·ε)) in a uniform direction "
             "(Chaudhuri, Monteleoni & Sarwate 2011, Alg. 1; docs/MATH.md §3.3).",
         .isPrivate = true,
         .trainsInEpochs = false,
         .needsPositiveLambda = true,
         .usesDelta = false,
         .validate = validateLinearErm},
        {.kind = MechanismKind::OutPertGauss,
         .title = "Output perturbation (ε, δ)",
         .summary = "Gaussian noise added to the minimiser, σ of the analytic Gaussian mechanism (Balle & Wang 2018); "
                    "needs Λ > 0",
         .requiredLoss = std::nullopt,
         .taylor = false,
         .noTaylorReason = kNoTaylorNoise,
         .guarantee = linearGuarantee,
         .make = makeLinear,
         .nativeMulticlass = false,
         .formula = "θ = θ̂ + N(0, σ²I), σ the smallest with Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ) ≤ δ (bisection), "
                    "Δ = 2ζ/(nΛ_c) the minimiser's sensitivity: the analytic Gaussian mechanism, valid at every ε "
                    "(Balle & Wang 2018, Thm 8; docs/MATH.md §3.3).",
         .isPrivate = true,
         .trainsInEpochs = false,
         .needsPositiveLambda = true,
         .usesDelta = true,
         .validate = validateLinearErm},
        {.kind = MechanismKind::GaussianLm,
         .title = "Gaussian classifier, corrected (pure ε)",
         .summary =
             "Large-margin multiclass Gaussian classifier (Pathak & Raj 2010) made private by Chaudhuri et al.'s "
             "Alg. 2 on all classes at once (docs/MATH.md §3.4); quadratic boundaries, no budget split",
         .requiredLoss = LossKind::HuberSvm,
         .taylor = false,
         .noTaylorReason =
             "Taylor estimates (docs/MATH.md §4) are derived for Gaussian objective perturbation of linear models; "
             "the Gaussian classifier uses pure-ε noise with a branch rule, where they are not derived.",
         .guarantee = GaussianLmLearner::guaranteeFor,
         .make = makeGaussianLm,
         .nativeMulticlass = true,
         .formula =
             "φ = argmin (1/n)Σ_i L_i(φ) + ((Λ_c + Δ)/2)‖φ‖² + (1/n)bᵀφ over φ = (svec Φ_1, …, svec Φ_C); ζ = "
             "2√(C(C−1)), "
             "r = C − 1, c = 2C/h; ε₁ = ε − 2r·log(1 + c/(nΛ_c)), the branch of larger ε' as for pure objective "
             "perturbation with e^{ε/(4r)}; ‖b‖ ~ Gamma(d, 2ζ/ε') (Pathak & Raj's model, Chaudhuri et al.'s Alg. 2 on "
             "all classes; docs/MATH.md §3.4).",
         .usesDelta = false,
         .validate = GaussianLmLearner::validateSpec},
        {.kind = MechanismKind::Dpsgd,
         .title = "DP-SGD (gradient perturbation)",
         .summary =
             "Clipped per-example gradients plus Gaussian noise at every step of SGD on a softmax-linear model or a "
             "one-hidden-layer network (Abadi et al. 2016; Ermis & Cemgil's dropout), σ calibrated by an accountant "
             "(docs/MATH.md §3.6); add/remove adjacency with N declared public (--public-rows), else replace-one at "
             "the "
             "fixed N",
         .requiredLoss = LossKind::Logistic,
         .taylor = false,
         .noTaylorReason =
             "Taylor estimates (docs/MATH.md §4) are derived for objective perturbation, where the released model is "
             "an exact minimiser; DP-SGD's model is the end of a noisy trajectory, where they do not apply.",
         .guarantee = DpsgdLearner::guaranteeFor,
         .make = makeDpsgd,
         .nativeMulticlass = true,
         .formula =
             "Each step: a Poisson batch (rate q = S/N), per-example gradients clipped to norm C, "
             "G = Σ clipped + N(0, σ²C²I), θ ← θ − η·G/S, T = epochs·⌈N/S⌉ steps; σ the smallest noise multiplier "
             "for which the chosen accountant proves (ε, δ) for q and T: add/remove with N declared public (Abadi et "
             "al. "
             "2016); without, replace-one at the fixed N, by group privacy from add/remove (ε/2, δ/(1 + e^{ε/2})) "
             "(docs/MATH.md §3.6).",
         .isPrivate = true,
         .trainsInEpochs = true,
         .usesDelta = true,
         .validate = DpsgdLearner::validateSpec,
         .parameters = &dpsgdParameters()},
    };
    return catalog;
}

const MechanismInfo& mechanismInfo(MechanismKind kind) {
    for (const MechanismInfo& info : mechanismCatalog())
        if (info.kind == kind)
            return info;
    throw std::invalid_argument(std::string("mechanism ") + toString(kind) + " is not available in this build");
}

std::string MechanismSpec::validate() const { return mechanismInfo(kind).validate(*this); }

bool MechanismSpec::usesDelta() const { return mechanismInfo(kind).usesDelta; }

std::vector<MechanismKind> privateMechanisms() {
    std::vector<MechanismKind> kinds;
    for (const MechanismInfo& info : mechanismCatalog())
        if (info.isPrivate)
            kinds.push_back(info.kind);
    return kinds;
}

void selectMechanism(MechanismSpec& spec, MechanismKind kind) {
    spec.kind = kind;
    if (const auto required = mechanismInfo(kind).requiredLoss; required && spec.model.loss.kind() != *required)
        spec.model.loss = Loss(*required, spec.model.loss.huberWidth(), spec.model.loss.temperature());
}

std::shared_ptr<const PreparedProblem> prepareProblem(const SweepData& data, const MechanismSpec& spec,
                                                      UtilityMetric metric, std::shared_ptr<const void> keepAlive) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    return std::make_shared<const PreparedProblem>(mechanismInfo(spec.kind).make(data, spec, metric),
                                                   std::move(keepAlive), data.pipeline);
}

} // namespace elab::core
