#include "core/learners/gaussian_lm/gaussian_lm_learner.h"

#include "core/learner/prediction.h"
#include "core/optim/newton_cg.h"
#include "core/util/format_number.h"
#include "core/util/noise.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

const GaussianLmModel& glmModel(const TrainedModel& model) {
    const auto* m = dynamic_cast<const GaussianLmModel*>(&model);
    if (!m)
        throw std::invalid_argument("not a model of the Gaussian classifier");
    return *m;
}

int modelClasses(const SweepData& data) { return data.classes >= 2 ? data.classes : 2; }

/// Onto the PSD cone, class by class: Φ_c ← V max(Λ, 0) Vᵀ.
Eigen::VectorXd projectPsd(const Eigen::VectorXd& phi, int classes, Index q) {
    const Index m = glm::svecSize(q);
    Eigen::VectorXd out(phi.size());
    for (int c = 0; c < classes; ++c) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(glm::smat(phi.segment(c * m, m), q));
        const Eigen::MatrixXd P =
            eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
        out.segment(c * m, m) = glm::svec(P);
    }
    return out;
}

} // namespace

GaussianLmConstants gaussianLmConstants(double eps, double n, double lambdaMean, double zeta, double rank,
                                        double curvature) {
    GaussianLmConstants k;
    k.zeta = zeta;
    k.rank = rank;
    k.curvature = curvature;
    const double ratio = lambdaMean > 0.0 ? curvature / (n * lambdaMean) : INFINITY;
    k.eps1 = std::isinf(ratio) ? -INFINITY : eps - 2.0 * rank * std::log1p(ratio);
    if (k.eps1 >= eps / 2.0) {
        k.epsPrime = k.eps1;
    } else {
        k.secondBranch = true;
        k.extraRidge = curvature / (n * std::expm1(eps / (4.0 * rank))) - lambdaMean;
        k.epsPrime = eps / 2.0;
    }
    k.noiseScale = 2.0 * zeta / k.epsPrime;
    return k;
}

GaussianLmConstants gaussianLmConstants(double eps, double n, double lambdaMean, int classes, double huberWidth) {
    const double C = classes;
    return gaussianLmConstants(eps, n, lambdaMean, 2.0 * std::sqrt(C * (C - 1.0)), C - 1.0, 2.0 * C / huberWidth);
}

Eigen::MatrixXd GaussianLmModel::scores(const FeatureMatrix& X) const {
    const Eigen::MatrixXd Q = glm::quadraticForms(glm::liftedFeatures(X), m_phi, m_C);
    if (m_binary)
        return Q.col(0) - Q.col(1);
    return -Q;
}

void GaussianLmModel::record(SolverSummary& summary, double eps, int repetition) const {
    if (m_fitted)
        summary.add(solverRecord(m_solver, eps, repetition, -1));
}

Eigen::MatrixXd GaussianLmModel::matrix(int c, Index q) const {
    const Index m = glm::svecSize(q);
    return glm::smat(m_phi.segment(c * m, m), q);
}

std::string GaussianLmLearner::validateSpec(const MechanismSpec& spec) {
    if (std::string e = spec.model.validate(); !e.empty())
        return e;
    if (!spec.model.loss.isMargin())
        return "the private mechanisms need a bounded loss gradient ζ; squared loss has none "
               "without a label bound, so use a margin loss (logistic, huber, smooth-hinge)";
    if (spec.model.loss.kind() != LossKind::HuberSvm)
        return "the Gaussian classifier (gaussian-lm) is trained with the Huber SVM loss of docs/MATH.md §3.4: "
               "choose the huber loss";
    return {};
}

GaussianLmLearner::GaussianLmLearner(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric)
    : m_data(data), m_spec(spec), m_metric(metric), m_C(modelClasses(data)) {
    if (std::string e = validateSpec(spec); !e.empty())
        throw std::invalid_argument(e);
    if (spec.model.loss.kind() != LossKind::HuberSvm)
        throw std::invalid_argument("the Gaussian classifier is trained with the Huber SVM loss (docs/MATH.md §3.4)");
    if (usesTestSet(metric) && (!data.testX || !data.testY))
        throw std::invalid_argument("a test metric needs a test set");
    const double d = static_cast<double>(glm::svecSize(data.trainX.cols() + 1)) * m_C;
    if (d > glm::kMaxDimension)
        throw std::invalid_argument("the Gaussian classifier would have d = " + formatNumber(d) + " parameters (" +
                                    std::to_string(m_C) + " classes × (p+1)(p+2)/2), more than " +
                                    formatNumber(glm::kMaxDimension) + ": reduce the features (two features or PCA)");
    m_W = glm::liftedFeatures(data.trainX);
    m_cls = classIndicesOf(data.trainY, data.classes);
}

std::shared_ptr<const LearnerNoise> GaussianLmLearner::drawNoise(std::uint64_t seed, int repetition) const {
    Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(repetition), 0));
    auto noise = std::make_shared<GaussianLmNoise>();
    noise->direction = uniformDirection(dimension(), rng);
    noise->gammaNorm = standardGamma(static_cast<double>(dimension()), rng);
    return noise;
}

std::shared_ptr<const TrainedModel> GaussianLmLearner::fit(double eps, const LearnerNoise& noise,
                                                           const TrainedModel* warm, std::stop_token stop,
                                                           const FitOptions& options) const {
    const auto* draw = dynamic_cast<const GaussianLmNoise*>(&noise);
    if (!draw)
        throw std::invalid_argument("not the noise of the Gaussian classifier");
    if (!(eps > 0.0) || !std::isfinite(eps))
        throw std::invalid_argument("ε must be a finite number > 0");
    const double n = static_cast<double>(m_W.rows());
    const double lambdaMean = m_spec.model.lambda / n;
    const GaussianLmConstants k = gaussianLmConstants(eps, n, lambdaMean, m_C, m_spec.model.loss.huberWidth());
    // J = (1/n) Σ L_i + ((Λ_c + Δ)/2)‖φ‖² + (1/n) bᵀφ, ‖b‖ = (2ζ/ε')·Gamma(d, 1) along the draw's direction.
    glm::GaussianLmObjective objective(m_W, m_cls, m_C, m_spec.model.loss, lambdaMean + k.extraRidge,
                                       draw->b(k.noiseScale) / n);
    Eigen::VectorXd start = Eigen::VectorXd::Zero(dimension());
    if (warm)
        start = glmModel(*warm).phi();
    NewtonCgResult result = minimizeNewtonCg(objective, std::move(start), newtonCgOptions(options), std::move(stop));
    Eigen::VectorXd phi = result.theta;
    return std::make_shared<GaussianLmModel>(std::move(phi), m_C, m_data.classes < 2, std::move(result), true);
}

std::shared_ptr<const TrainedModel> GaussianLmLearner::fitNonPrivate(std::stop_token stop,
                                                                     const FitOptions& options) const {
    // Projected gradient with a backtracking step (Beck & Teboulle's sufficient-decrease test):
    // f = (1/n) Σ L_i + λ_tr Σ_c tr(Ψ_c), tr(Ψ_c) = eᵀφ_c with e = svec(diag(1, …, 1, 0)).
    const Index q = m_data.trainX.cols() + 1, m = glm::svecSize(q);
    const double lambdaTrace = m_spec.model.lambda / static_cast<double>(m_W.rows());
    Eigen::VectorXd trace = Eigen::VectorXd::Zero(dimension());
    for (int c = 0; c < m_C; ++c) {
        Eigen::MatrixXd E = Eigen::MatrixXd::Identity(q, q);
        E(q - 1, q - 1) = 0.0;
        trace.segment(c * m, m) = lambdaTrace * glm::svec(E);
    }
    glm::GaussianLmObjective f(m_W, m_cls, m_C, m_spec.model.loss, 0.0, trace);
    // FISTA (Beck & Teboulle 2009) with backtracking and adaptive restart (O'Donoghue & Candès 2015):
    // extrapolate, take a projected step from there, restart the momentum when the objective rises.
    Eigen::VectorXd x = Eigen::VectorXd::Zero(dimension()), previous = x, g;
    double fx = f.evaluate(x), momentum = 1.0, t = 1.0;
    NewtonCgResult result;
    result.status = NewtonCgStatus::MaxIterations;
    const int maxIterations = std::max(3000, 30 * options.maxIterations);
    for (int it = 0; it < maxIterations; ++it) {
        if (stop.stop_requested()) {
            result.status = NewtonCgStatus::Stopped;
            break;
        }
        const double nextMomentum = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * momentum * momentum));
        const Eigen::VectorXd y = x + ((momentum - 1.0) / nextMomentum) * (x - previous);
        const double fy = f.evaluate(y);
        f.gradient(g);
        t *= 2.0;
        Eigen::VectorXd next;
        double fNext = 0.0;
        for (int shrink = 0; shrink < 60; ++shrink) {
            next = projectPsd(y - t * g, m_C, q);
            fNext = f.evaluate(next);
            const Eigen::VectorXd step = next - y;
            if (fNext <= fy + g.dot(step) + step.squaredNorm() / (2.0 * t) + 1e-15 * std::abs(fy))
                break;
            t *= 0.5;
        }
        const double moved = (next - x).norm();
        if (fNext > fx) { // restart: drop the momentum, keep x
            momentum = 1.0;
            previous = x;
            continue;
        }
        previous = std::move(x);
        x = std::move(next);
        fx = fNext;
        momentum = nextMomentum;
        result.iterations = it + 1;
        result.gradientNorm = moved / t;
        if (moved <= 1e-10 * std::max(1.0, x.norm())) {
            result.status = NewtonCgStatus::Converged;
            break;
        }
    }
    result.value = fx;
    result.theta = x;
    return std::make_shared<GaussianLmModel>(std::move(x), m_C, m_data.classes < 2, std::move(result), false);
}

PrivacyGuarantee GaussianLmLearner::guaranteeFor(const MechanismSpec& spec, Index rows, int classes, double eps) {
    const int C = classes >= 2 ? classes : 2;
    const double n = static_cast<double>(rows);
    const GaussianLmConstants k = gaussianLmConstants(eps, n, spec.model.lambda / n, C, spec.model.loss.huberWidth());
    PrivacyGuarantee g;
    g.isPrivate = true;
    g.epsilon = eps;
    g.delta = 0.0;
    g.notion = "ε-DP";
    g.source = "Pathak & Raj 2010, corrected (docs/MATH.md §3.4): Chaudhuri et al. 2011 Alg. 2 on the stacked svec "
               "parameters of all " +
               std::to_string(C) + " classes at once (no budget split)";
    g.assumptions = {"every row clipped to ‖x‖₂ ≤ 1, so ‖z‖² ≤ 2 for z = [x; 1] (data-independent preprocessing)",
                     "neighbouring datasets differ in one row (replace-one)",
                     "the exact minimiser is found (the solver stops at ‖∇J‖ ≤ max(1e-10, 1e-12·‖∇J(φ₀)‖); each fit's "
                     "outcome is in the solver summary)"};
    g.branch = k.secondBranch ? "second" : "first";
    g.notes = {
        k.secondBranch ? "second branch (ε₁ = " + formatNumber(k.eps1) + " < ε/2): extra ridge Δ = " +
                             formatNumber(k.extraRidge) + ", noise at ε' = ε/2 = " + formatNumber(k.epsPrime)
                       : "first branch (ε₁ ≥ ε/2): ε' = ε₁ = " + formatNumber(k.epsPrime) + ", no extra ridge",
        "the PSD constraint of the non-private model is dropped, so the private boundaries are general conics "
        "(ellipses, parabolas, hyperbolas), not Gaussian ellipsoids",
        "the published private version (noise on Σ_c Φ_c) is not private and is not offered (docs/MATH.md §3.4)"};
    g.parameters = {{"eps1", "ε₁", k.eps1},
                    {"eps_prime", "ε'", k.epsPrime},
                    {"extra_ridge", "Δ (mean form)", k.extraRidge},
                    {"zeta", "ζ", k.zeta},
                    {"rank", "r", k.rank},
                    {"curvature", "c", k.curvature},
                    {"noise_scale", "2ζ/ε'", k.noiseScale}};
    return g;
}

PrivacyGuarantee GaussianLmLearner::guarantee(double eps) const {
    return guaranteeFor(m_spec, m_W.rows(), m_data.classes, eps);
}

double GaussianLmLearner::utility(const TrainedModel& model) const {
    const bool test = usesTestSet(m_metric);
    const FeatureMatrix& X = test ? *m_data.testX : m_data.trainX;
    const Labels y = test ? *m_data.testY : m_data.trainY;
    if (!isLossMetric(m_metric))
        return accuracyOf(model.scores(X), y);
    // The loss metrics: the model's own mean loss (1/n) Σ L_i on those rows (docs/MATH.md §3.4).
    const auto& g = glmModel(model);
    return glm::meanLoss(glm::quadraticForms(test ? glm::liftedFeatures(X) : m_W, g.phi(), m_C),
                         classIndicesOf(y, m_data.classes), m_spec.model.loss);
}

} // namespace elab::core
