#include "core/learners/linear_erm/erm_mechanisms.h"

#include "core/util/format_number.h"

#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace mc = mechanism_constants;

namespace mechanism_constants {

double gaussNoiseScale(double eps, double delta, double zeta) {
    const double a = std::log(2.0 / delta);
    return zeta * std::sqrt(8.0 * a + 4.0 * eps) / eps;
}

double gaussNoiseScaleD1(double eps, double delta, double zeta) {
    // s'/s = −(4a + ε) / (2ε(2a + ε)), a = log(2/δ) (docs/MATH.md §4.1, with the errata's sign).
    const double a = std::log(2.0 / delta);
    return -(4.0 * a + eps) / (2.0 * eps * (2.0 * a + eps)) * gaussNoiseScale(eps, delta, zeta);
}

double gaussNoiseScaleD2(double eps, double delta, double zeta) {
    // s = ζ·g(ε)/ε with g = √(8a + 4ε): s'' = ζ(g''/ε − 2g'/ε² + 2g/ε³),
    // g' = 2/g, g'' = −4/g³.
    const double a = std::log(2.0 / delta);
    const double g = std::sqrt(8.0 * a + 4.0 * eps);
    return zeta * (-4.0 / (g * g * g) / eps - 2.0 * (2.0 / g) / (eps * eps) + 2.0 * g / (eps * eps * eps));
}

PureObjPert pureObjPert(double eps, double n, double lambdaMean, double curvature) {
    PureObjPert r;
    const double c = curvature;
    const double ratio = lambdaMean > 0.0 ? c / (n * lambdaMean) : INFINITY;
    // log(1 + 2ρ + ρ²) = 2·log1p(ρ), exact and overflow-free for large ρ.
    r.eps1 = std::isinf(ratio) ? -INFINITY : eps - 2.0 * std::log1p(ratio);
    if (r.eps1 >= eps / 2.0) {
        r.epsPrime = r.eps1;
        return r;
    }
    r.secondBranch = true;
    r.extraRidge = c / (n * std::expm1(eps / 4.0)) - lambdaMean;
    r.epsPrime = eps / 2.0;
    return r;
}

double outputGaussSigma(double eps, double delta, double zeta, double n, double lambdaMean) {
    return analyticGaussianSigma(eps, delta, outputSensitivity(zeta, n, lambdaMean));
}

} // namespace mechanism_constants

namespace {

PrivacyGuarantee privateGuarantee(double eps, double delta, const std::string& source) {
    PrivacyGuarantee g;
    g.isPrivate = true;
    g.epsilon = eps;
    g.delta = delta;
    g.notion = delta > 0.0 ? "(ε, δ)-DP" : "ε-DP";
    g.source = source;
    g.assumptions = {"every row clipped to ‖x‖₂ ≤ 1 (data-independent preprocessing)",
                     "neighbouring datasets differ in one row (replace-one)",
                     "the exact minimiser is found (the solver stops at ‖∇J‖ ≤ max(1e-10, 1e-12·‖∇J(θ₀)‖); each fit's "
                     "outcome is in the solver summary)"};
    return g;
}

} // namespace

std::string validateLinearErm(const MechanismSpec& spec) {
    if (std::string e = spec.model.validate(); !e.empty())
        return e;
    const MechanismKind kind = spec.kind;
    if (kind == MechanismKind::NonPrivate)
        return {};
    if (!spec.model.loss.isMargin())
        return "the private mechanisms need a bounded loss gradient ζ; squared loss has none "
               "without a label bound, so use a margin loss (logistic, huber, smooth-hinge)";
    const bool gaussian = kind == MechanismKind::ObjPertGauss || kind == MechanismKind::OutPertGauss;
    if (gaussian && !(spec.privacy.delta > 0.0 && spec.privacy.delta < 1.0))
        return "δ must be in (0, 1)";
    if ((kind == MechanismKind::OutPertPure || kind == MechanismKind::OutPertGauss) && !(spec.model.lambda > 0.0))
        return "output perturbation needs Λ > 0: its sensitivity 2ζ/(nΛ) is infinite at Λ = 0";
    return {};
}

PerturbedProblem perturbedProblem(const MechanismSpec& spec, Eigen::Index rows, double eps, const NoiseDraw& noise) {
    if (std::string e = validateLinearErm(spec); !e.empty())
        throw std::invalid_argument(e);
    const double n = static_cast<double>(rows);
    PerturbedProblem problem;
    problem.mu = spec.model.lambda / n;
    if (spec.kind == MechanismKind::GaussianLm || spec.kind == MechanismKind::Dpsgd)
        throw std::invalid_argument(std::string(toString(spec.kind)) + " is not a linear ERM mechanism");
    if (spec.kind == MechanismKind::NonPrivate) {
        problem.guarantee.notion = "none";
        problem.guarantee.source = "non-private regularised ERM (reference)";
        return problem;
    }
    if (!(eps > 0.0) || !std::isfinite(eps))
        throw std::invalid_argument("ε must be a finite number > 0");
    const double zeta = spec.model.loss.gradientBound();
    const double curvature = spec.model.loss.curvatureBound();
    const double lambdaMean = spec.model.lambda / n;

    auto& parameters = problem.guarantee.parameters;
    switch (spec.kind) {
    case MechanismKind::ObjPertGauss: {
        // §3.1: μ = (Λ + Δ_ε)/n, c = s(ε) z / n.
        const double ridge = mc::gaussExtraRidge(eps, curvature),
                     scale = mc::gaussNoiseScale(eps, spec.privacy.delta, zeta);
        problem.mu = (spec.model.lambda + ridge) / n;
        problem.linear = (scale / n) * noise.z;
        problem.guarantee = privateGuarantee(eps, spec.privacy.delta, "Kifer, Smith & Thakurta 2012 (Li et al. Thm 1)");
        parameters = {{"extra_ridge", "Δ_ε (sum form)", ridge}, {"noise_scale", "s(ε)", scale}};
        break;
    }
    case MechanismKind::ObjPertPure: {
        // §3.2: μ = Λ_c + Δ, c = b/n with ‖b‖ ~ Gamma(p, 2/ε').
        const auto pure = mc::pureObjPert(eps, n, lambdaMean, curvature);
        problem.mu = lambdaMean + pure.extraRidge;
        problem.linear = noise.gammaVector(2.0 / pure.epsPrime) / n;
        problem.guarantee = privateGuarantee(
            eps, 0.0, "Chaudhuri, Monteleoni & Sarwate 2011, Alg. 2 (branch rule corrected, docs/MATH.md §3.2)");
        problem.guarantee.branch = pure.secondBranch ? "second" : "first";
        problem.guarantee.notes.push_back(
            pure.secondBranch
                ? "second branch (ε₁ = " + formatNumber(pure.eps1) + " < ε/2): extra ridge Δ = " +
                      formatNumber(pure.extraRidge) + " added, noise at ε' = ε/2 = " + formatNumber(pure.epsPrime)
                : "first branch (ε₁ ≥ ε/2): ε' = ε₁ = " + formatNumber(pure.epsPrime) + ", no extra ridge");
        parameters = {{"eps_prime", "ε'", pure.epsPrime}, {"extra_ridge", "Δ (mean form)", pure.extraRidge}};
        break;
    }
    case MechanismKind::OutPertPure: {
        // §3.3: θ* + b, ‖b‖ ~ Gamma(p, 2ζ/(nΛ_c ε)).
        const double sensitivity = mc::outputSensitivity(zeta, n, lambdaMean);
        problem.outputNoise = noise.gammaVector(sensitivity / eps);
        problem.guarantee = privateGuarantee(eps, 0.0, "Chaudhuri, Monteleoni & Sarwate 2011, Alg. 1");
        parameters = {{"sensitivity", "2ζ/(nΛ_c)", sensitivity}};
        break;
    }
    case MechanismKind::OutPertGauss: {
        const double sigma = mc::outputGaussSigma(eps, spec.privacy.delta, zeta, n, lambdaMean);
        problem.outputNoise = sigma * noise.z;
        // §3.3: θ* + σz, σ the analytic Gaussian mechanism's (valid at every ε).
        problem.guarantee = privateGuarantee(eps, spec.privacy.delta,
                                             "analytic Gaussian mechanism on the minimiser (Balle & Wang 2018, Thm 8)");
        parameters = {{"sensitivity", "2ζ/(nΛ_c)", mc::outputSensitivity(zeta, n, lambdaMean)},
                      {"noise_sd", "σ", sigma}};
        break;
    }
    case MechanismKind::NonPrivate:
    case MechanismKind::GaussianLm:
    case MechanismKind::Dpsgd: break;
    }
    return problem;
}

std::optional<NoiseMoments> noiseMoments(const MechanismSpec& spec, Eigen::Index rows, Eigen::Index features,
                                         double eps) {
    if (std::string e = validateLinearErm(spec); !e.empty())
        throw std::invalid_argument(e);
    if (!(eps > 0.0) || !std::isfinite(eps))
        throw std::invalid_argument("ε must be a finite number > 0");
    const double n = static_cast<double>(rows), p = static_cast<double>(features);
    const double zeta = spec.model.loss.gradientBound();
    const double curvature = spec.model.loss.curvatureBound();
    const double lambdaMean = spec.model.lambda / n;
    // E‖b‖² of ‖b‖ ~ Gamma(p, θ) in a uniform direction: (pθ)² + pθ² = p(p + 1)θ².
    auto gammaEnergy = [p](double scale) { return p * (p + 1.0) * scale * scale; };
    NoiseMoments m;
    switch (spec.kind) {
    case MechanismKind::ObjPertGauss: { // §3.1: a = Δ_ε/n, c = s(ε)z/n
        const double scale = mc::gaussNoiseScale(eps, spec.privacy.delta, zeta) / n;
        m.extraRidge = mc::gaussExtraRidge(eps, curvature) / n;
        m.linearEnergy = p * scale * scale;
        return m;
    }
    case MechanismKind::ObjPertPure: { // §3.2: a = Δ, c = b/n, ‖b‖ ~ Gamma(p, 2/ε')
        const auto pure = mc::pureObjPert(eps, n, lambdaMean, curvature);
        m.extraRidge = pure.extraRidge;
        m.linearEnergy = gammaEnergy(2.0 / pure.epsPrime) / (n * n);
        return m;
    }
    case MechanismKind::OutPertPure: // §3.3: ‖b‖ ~ Gamma(p, 2ζ/(nΛ_c ε))
        m.outputEnergy = gammaEnergy(mc::outputSensitivity(zeta, n, lambdaMean) / eps);
        return m;
    case MechanismKind::OutPertGauss: {
        const double sigma = mc::outputGaussSigma(eps, spec.privacy.delta, zeta, n, lambdaMean);
        m.outputEnergy = p * sigma * sigma;
        return m;
    }
    case MechanismKind::NonPrivate:
    case MechanismKind::GaussianLm:
    case MechanismKind::Dpsgd: break;
    }
    return std::nullopt;
}

} // namespace elab::core
