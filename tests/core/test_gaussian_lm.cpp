// The DP large-margin Gaussian classifier (core/learners/gaussian_lm/, docs/MATH.md §3.4): every constant
// against hand-computed values and §3.2 at r = 1, ζ = 1; svec; gradient and Hessian-vector product
// against finite differences; the Gamma-norm noise in R^d statistically; the non-private model by
// projected gradient; the erratum of the published version, numerically; the private fit.

#include <tbb/task_arena.h> // before Qt: TBB uses the name "emit"

#include "core/learner/mechanism.h"
#include "core/learners/gaussian_lm/gaussian_lm_learner.h"
#include "core/learners/gaussian_lm/gaussian_lm_problem.h"
#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/util/random.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <cmath>

using namespace elab::core;

namespace {

/// K well-separated Gaussian blobs in [−0.6, 0.6]², rows with ‖x‖ < 1.
struct Blobs {
    DenseMatrix X;
    Eigen::VectorXd y; ///< class indices (K ≥ 3) or ±1 (K = 2)
    FeatureMatrix features;
};

Blobs blobs(Index n, int K, std::uint64_t seed, double spread = 0.05) {
    Rng rng(seed);
    Blobs b;
    b.X.resize(n, 2);
    b.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const int k = static_cast<int>(i % K);
        const double angle = 2.0 * M_PI * k / K;
        b.X(i, 0) = 0.5 * std::cos(angle) + spread * (2.0 * uniform01(rng) - 1.0);
        b.X(i, 1) = 0.5 * std::sin(angle) + spread * (2.0 * uniform01(rng) - 1.0);
        b.y(i) = K == 2 ? (k == 1 ? 1.0 : -1.0) : k;
    }
    b.features = FeatureMatrix(b.X);
    return b;
}

MechanismSpec glmSpec(double lambda = 1.0) {
    MechanismSpec s;
    s.kind = MechanismKind::GaussianLm;
    s.model.loss = Loss(LossKind::HuberSvm, 0.1);
    s.model.lambda = lambda;
    return s;
}

Eigen::VectorXi classesOf(const Eigen::VectorXd& y, int K) {
    Eigen::VectorXi c(y.size());
    for (Index i = 0; i < y.size(); ++i)
        c(i) = K == 2 ? (y(i) > 0 ? 1 : 0) : static_cast<int>(y(i));
    return c;
}

} // namespace

class TestGaussianLm : public QObject {
    Q_OBJECT

private slots:
    void constantsMatchHandComputedValues() {
        // n = 1000, Λ = 1 (sum form: Λ_c = 1e-3), C = 3, h = 0.1: ζ = 2√6, r = 2, c = 60, c/(nΛ_c) = 60.
        const double n = 1000, lambdaMean = 1e-3;
        const GaussianLmConstants low = gaussianLmConstants(10.0, n, lambdaMean, 3, 0.1);
        ELAB_RELATIVE(low.zeta, 4.898979485566356, 1e-15);
        ELAB_EXACT(low.rank, 2.0);
        ELAB_RELATIVE(low.curvature, 60.0, 1e-15);
        ELAB_RELATIVE(low.eps1, 10.0 - 4.0 * std::log(61.0), 1e-14); // −6.4435: second branch
        QVERIFY(low.secondBranch);
        ELAB_RELATIVE(low.epsPrime, 5.0, 1e-15);
        ELAB_RELATIVE(low.extraRidge, 60.0 / (1000.0 * (std::exp(10.0 / 8.0) - 1.0)) - 1e-3, 1e-13); // 0.023093
        ELAB_RELATIVE(low.noiseScale, 2.0 * 4.898979485566356 / 5.0, 1e-14);
        const GaussianLmConstants high = gaussianLmConstants(1000.0, n, lambdaMean, 3, 0.1);
        QVERIFY(!high.secondBranch);
        ELAB_RELATIVE(high.epsPrime, 1000.0 - 4.0 * std::log(61.0), 1e-14);
        ELAB_EXACT(high.extraRidge, 0.0);
        // Λ = 0: ε₁ = −∞, always the second branch with Δ = c/(n(e^{ε/4r} − 1)) > 0.
        const GaussianLmConstants none = gaussianLmConstants(2.0, n, 0.0, 2, 0.1);
        QVERIFY(none.secondBranch && none.extraRidge > 0.0);
        ELAB_RELATIVE(none.zeta, 2.0 * std::sqrt(2.0), 1e-15);
    }

    void rankOneUnitZetaIsSection32() {
        for (double eps : {0.05, 0.3, 1.0, 2.7, 6.47, 6.53, 10.0, 50.0})
            for (double lambdaMean : {0.0, 1e-5, 1e-3, 0.1}) {
                const auto ours = gaussianLmConstants(eps, 32561.0, lambdaMean, 1.0, 1.0, 0.25);
                const auto ref = mechanism_constants::pureObjPert(eps, 32561.0, lambdaMean, 0.25);
                QCOMPARE(ours.secondBranch, ref.secondBranch);
                ELAB_RELATIVE(ours.epsPrime, ref.epsPrime, 1e-15);
                ELAB_FUZZY(ours.extraRidge, ref.extraRidge, 1e-18);
                ELAB_RELATIVE(ours.noiseScale, 2.0 / ref.epsPrime, 1e-15);
            }
    }

    void svecIsAnIsometry() {
        Rng rng(4);
        Eigen::MatrixXd A(4, 4), B(4, 4);
        for (Index i = 0; i < 4; ++i)
            for (Index j = 0; j <= i; ++j) {
                A(i, j) = A(j, i) = uniform01(rng) - 0.5;
                B(i, j) = B(j, i) = uniform01(rng) - 0.5;
            }
        QCOMPARE(glm::svec(A).size(), Index(10));
        ELAB_FUZZY((glm::smat(glm::svec(A), 4) - A).norm(), 0.0, 1e-15);
        ELAB_FUZZY(glm::svec(A).dot(glm::svec(B)), (A.cwiseProduct(B)).sum(), 1e-14);
        // Lifted rows: w·svec(Φ) = zᵀΦz, ‖w‖ = ‖z‖².
        DenseMatrix X(1, 3);
        X << 0.3, -0.2, 0.5;
        const Eigen::MatrixXd W = glm::liftedFeatures(FeatureMatrix(X));
        Eigen::VectorXd z(4);
        z << 0.3, -0.2, 0.5, 1.0;
        ELAB_FUZZY(W.row(0).dot(glm::svec(A)), z.dot(A * z), 1e-14);
        ELAB_FUZZY(W.row(0).norm(), z.squaredNorm(), 1e-14);
    }

    void gradientAndHessianVectorMatchFiniteDifferences() {
        for (int K : {2, 4}) {
            const Blobs b = blobs(60, K, 11, 0.4);
            const Eigen::MatrixXd W = glm::liftedFeatures(b.features);
            const Eigen::VectorXi cls = classesOf(b.y, K);
            Rng rng(5);
            const Index d = W.cols() * K;
            Eigen::VectorXd phi(d), v(d), lin(d);
            for (Index j = 0; j < d; ++j) {
                phi(j) = 2.0 * uniform01(rng) - 1.0;
                v(j) = uniform01(rng) - 0.5;
                lin(j) = 0.01 * (uniform01(rng) - 0.5);
            }
            glm::GaussianLmObjective f(W, cls, K, Loss(LossKind::HuberSvm, 0.5), 0.03, lin);
            f.evaluate(phi);
            Eigen::VectorXd g, hv;
            f.gradient(g);
            f.hessianVector(v, hv);
            const double h = 1e-6;
            glm::GaussianLmObjective probe(W, cls, K, Loss(LossKind::HuberSvm, 0.5), 0.03, lin);
            const double fd = (probe.evaluate(phi + h * v) - probe.evaluate(phi - h * v)) / (2 * h);
            ELAB_RELATIVE(g.dot(v), fd, 1e-6);
            Eigen::VectorXd gp, gm;
            probe.evaluate(phi + h * v);
            probe.gradient(gp);
            probe.evaluate(phi - h * v);
            probe.gradient(gm);
            ELAB_FUZZY((hv - (gp - gm) / (2 * h)).norm() / hv.norm(), 0.0, 1e-4);
        }
    }

    void noiseHasTheGammaNormAndAUniformDirection() {
        const Blobs b = blobs(90, 3, 2);
        const GaussianLmLearner learner({b.features, b.y, nullptr, std::nullopt, 3}, glmSpec(),
                                        UtilityMetric::TrainAccuracy);
        const Index d = learner.dimension(); // 3 classes × 6 = 18
        QCOMPARE(d, Index(18));
        const int N = 4000;
        const double scale = 0.7;
        double sumNorm = 0.0;
        Eigen::VectorXd sumDirection = Eigen::VectorXd::Zero(d);
        double sumSquares = 0.0;
        for (int r = 0; r < N; ++r) {
            const auto held = learner.drawNoise(17, r);
            const auto& noise = dynamic_cast<const GaussianLmNoise&>(*held);
            const Eigen::VectorXd bvec = noise.b(scale);
            ELAB_FUZZY(noise.direction.norm(), 1.0, 1e-12);
            sumNorm += bvec.norm();
            sumDirection += noise.direction;
            sumSquares += noise.direction(0) * noise.direction(0);
        }
        // ‖b‖ ~ Gamma(d, scale): mean d·scale, sd √d·scale; 4 sd of the mean of N.
        const double k = 4.0;
        ELAB_FUZZY(sumNorm / N, static_cast<double>(d) * scale,
                   k * std::sqrt(static_cast<double>(d)) * scale / std::sqrt(N));
        // A uniform direction: each coordinate mean 0, sd 1/√d; E[u₀²] = 1/d.
        for (Index j = 0; j < d; ++j)
            ELAB_FUZZY(sumDirection(j) / N, 0.0, k / std::sqrt(static_cast<double>(d) * N));
        ELAB_FUZZY(sumSquares / N, 1.0 / static_cast<double>(d),
                   k * std::sqrt(2.0) / static_cast<double>(d) / std::sqrt(N));
    }

    void projectedGradientFindsThePsdOptimum() {
        const Blobs b = blobs(150, 3, 3);
        const GaussianLmLearner learner({b.features, b.y, nullptr, std::nullopt, 3}, glmSpec(0.15),
                                        UtilityMetric::TrainAccuracy);
        const auto model = learner.fitNonPrivate({}, {});
        const auto& g = dynamic_cast<const GaussianLmModel&>(*model);
        ELAB_EXACT(learner.utility(*model), 1.0);
        SolverSummary summary;
        model->record(summary, 0.0, 0); // the reference is not a Newton-CG fit: nothing recorded
        QCOMPARE(summary.fits, 0);
        for (int c = 0; c < 3; ++c) {
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(g.matrix(c, 3));
            QVERIFY2(eig.eigenvalues().minCoeff() > -1e-12, qPrintable(QString::number(eig.eigenvalues().minCoeff())));
        }
        // Optimal on the cone: a projected-gradient step from the solution does not move it.
        const Eigen::MatrixXd W = glm::liftedFeatures(b.features);
        const Eigen::VectorXi cls = classesOf(b.y, 3);
        Eigen::VectorXd trace = Eigen::VectorXd::Zero(18);
        for (int c = 0; c < 3; ++c)
            for (Index k : {Index(0), Index(2)}) // svec positions of Φ(0,0) and Φ(1,1) for q = 3
                trace(c * 6 + k) = 0.15 / 150.0;
        glm::GaussianLmObjective f(W, cls, 3, Loss(LossKind::HuberSvm, 0.1), 0.0, trace);
        const double atOptimum = f.evaluate(g.phi());
        Rng rng(9);
        for (int trial = 0; trial < 20; ++trial) { // no feasible random nearby point is better
            Eigen::VectorXd step(18);
            for (Index j = 0; j < 18; ++j)
                step(j) = 1e-3 * (uniform01(rng) - 0.5);
            Eigen::VectorXd other = g.phi() + step;
            for (int c = 0; c < 3; ++c) {
                Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(glm::smat(other.segment(c * 6, 6), 3));
                other.segment(c * 6, 6) = glm::svec(eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() *
                                                    eig.eigenvectors().transpose());
            }
            const double value = f.evaluate(other);
            QVERIFY2(value >= atOptimum * (1.0 - 1e-6),
                     qPrintable(QString("%1 < %2").arg(value, 0, 'g', 17).arg(atOptimum, 0, 'g', 17)));
        }
    }

    void publishedVersionIsNotPrivate() {
        // (1) Σ_c ∇_{Φ_c} L_i = 0: the loss sees only differences Φ_c − Φ_y.
        const Blobs b = blobs(30, 3, 8, 0.3);
        const Eigen::MatrixXd W = glm::liftedFeatures(b.features);
        const Eigen::VectorXi cls = classesOf(b.y, 3);
        Rng rng(12);
        Eigen::VectorXd phi(18);
        for (Index j = 0; j < 18; ++j)
            phi(j) = uniform01(rng) - 0.5;
        glm::GaussianLmObjective loss(W, cls, 3, Loss(LossKind::HuberSvm, 0.1), 0.0);
        loss.evaluate(phi);
        const Eigen::VectorXd g = loss.lossGradient();
        ELAB_FUZZY((g.segment(0, 6) + g.segment(6, 6) + g.segment(12, 6)).norm(), 0.0, 1e-14);
        QVERIFY(g.norm() > 1e-3);
        // (2) The published objective loss + λ_tr Σ tr Ψ_c + Σ_c ⟨B, Φ_c⟩ with one B: along t·vvᵀ on every
        // Φ_c, v = the offset coordinate e₃ (not in Ψ), it changes by 3t·B₃₃. Find a B (seeded) with
        // vᵀ(λ_tr E + B)v = B₃₃ < 0 — probability ½ — and watch the objective fall without bound.
        Eigen::MatrixXd B(3, 3);
        for (std::uint64_t seed = 1;; ++seed) {
            Rng draw(seed);
            for (Index i = 0; i < 3; ++i)
                for (Index j = 0; j <= i; ++j)
                    B(i, j) = B(j, i) = 2.0 * uniform01(draw) - 1.0;
            if (B(2, 2) < 0.0)
                break;
        }
        const double lambdaTrace = 0.01;
        Eigen::MatrixXd E = Eigen::MatrixXd::Identity(3, 3);
        E(2, 2) = 0.0;
        Eigen::VectorXd linear(18);
        for (int c = 0; c < 3; ++c)
            linear.segment(c * 6, 6) = glm::svec(lambdaTrace * E + B);
        glm::GaussianLmObjective published(W, cls, 3, Loss(LossKind::HuberSvm, 0.1), 0.0, linear);
        Eigen::MatrixXd vv = Eigen::MatrixXd::Zero(3, 3);
        vv(2, 2) = 1.0;
        Eigen::VectorXd along(18);
        for (int c = 0; c < 3; ++c)
            along.segment(c * 6, 6) = glm::svec(vv);
        double previous = published.evaluate(phi);
        const double lossAt0 = glm::meanLoss(glm::quadraticForms(W, phi, 3), cls, Loss(LossKind::HuberSvm, 0.1));
        for (double t : {10.0, 100.0, 1000.0}) {
            const double value = published.evaluate(phi + t * along);
            QVERIFY2(value < previous, qPrintable(QString("t = %1: %2 ≥ %3").arg(t).arg(value).arg(previous)));
            ELAB_RELATIVE(value - published.evaluate(phi), 3.0 * t * B(2, 2), 1e-9);
            ELAB_FUZZY(glm::meanLoss(glm::quadraticForms(W, phi + t * along, 3), cls, Loss(LossKind::HuberSvm, 0.1)),
                       lossAt0, 1e-9);
            previous = value;
        }
    }

    void publishedProcedureHasNoOutputHalfTheTime() {
        // The published private version (MATH.md §3.4), built here only: b with density
        // ∝ exp(−(ε/2)‖b‖_F) on (p+1)×(p+1) matrices — ‖b‖ ~ Gamma((p+1)², 2/ε), direction uniform —
        // and the objective L + λ_tr Σ_c tr Ψ_c + Σ_c ⟨b, Φ_c⟩ over Φ_c ⪰ 0. Adding t·vvᵀ to every
        // Φ_c keeps them PSD and the loss unchanged and moves the objective by C·t·vᵀ(λ_tr E + sym b)v,
        // so whenever λ_tr E + sym b has a negative eigenvalue there is no minimiser: the procedure
        // has no output. The offset entry alone is negative with probability ½ (E has 0 there), so
        // at every ε at least half the runs fail: no audit can even be run, and no ε holds.
        const Blobs data = blobs(30, 3, 8, 0.3);
        const Eigen::MatrixXd W = glm::liftedFeatures(data.features);
        const Eigen::VectorXi cls = classesOf(data.y, 3);
        const double lambdaTrace = 0.01;
        Eigen::MatrixXd E = Eigen::MatrixXd::Identity(3, 3);
        E(2, 2) = 0.0;
        Rng rng(2026);
        constexpr int kDraws = 4000;
        for (double eps : {0.1, 1.0, 10.0, 1000.0}) {
            int unbounded = 0, checked = 0;
            for (int k = 0; k < kDraws; ++k) {
                const Eigen::VectorXd direction = uniformDirection(9, rng);
                const double norm = standardGamma(9.0, rng) * 2.0 / eps;
                const Eigen::MatrixXd b = Eigen::Map<const Eigen::MatrixXd>(direction.data(), 3, 3) * norm;
                const Eigen::MatrixXd M = lambdaTrace * E + 0.5 * (b + b.transpose());
                Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
                if (eig.eigenvalues()(0) >= 0.0)
                    continue;
                ++unbounded;
                if (checked++ >= 3)
                    continue;
                // The objective falls without bound along t·vvᵀ on every class (v: that eigenvector).
                Eigen::VectorXd linear(18);
                for (int c = 0; c < 3; ++c)
                    linear.segment(c * 6, 6) = glm::svec(M);
                glm::GaussianLmObjective published(W, cls, 3, Loss(LossKind::HuberSvm, 0.1), 0.0, linear);
                const Eigen::VectorXd v = eig.eigenvectors().col(0);
                Eigen::VectorXd along(18);
                for (int c = 0; c < 3; ++c)
                    along.segment(c * 6, 6) = glm::svec(v * v.transpose());
                const Eigen::VectorXd start = Eigen::VectorXd::Zero(18);
                const double at0 = published.evaluate(start);
                for (double t : {1e2, 1e4, 1e6})
                    ELAB_RELATIVE(published.evaluate(start + t * along) - at0, 3.0 * t * eig.eigenvalues()(0), 1e-8);
            }
            const double fraction = static_cast<double>(unbounded) / kDraws;
            QVERIFY2(fraction >= 0.5 - 4.0 * 0.5 / std::sqrt(double(kDraws)),
                     qPrintable(QStringLiteral("ε = %1: %2 of the runs have an output").arg(eps).arg(1.0 - fraction)));
            QVERIFY(checked > 0);
        }
    }

    void privateFitConvergesAndApproachesTheUnconstrainedMinimiser() {
        const Blobs b = blobs(300, 3, 21, 0.15);
        const SweepData data{b.features, b.y, nullptr, std::nullopt, 3};
        const GaussianLmLearner learner(data, glmSpec(1.0), UtilityMetric::TrainAccuracy);
        const auto noise = learner.drawNoise(5, 0);
        // The ε → ∞ limit: the same objective without noise or extra ridge.
        const Eigen::MatrixXd W = glm::liftedFeatures(b.features);
        const Eigen::VectorXi cls = classesOf(b.y, 3);
        glm::GaussianLmObjective limit(W, cls, 3, Loss(LossKind::HuberSvm, 0.1), 1.0 / 300.0);
        const Eigen::VectorXd star = minimizeNewtonCg(limit, Eigen::VectorXd::Zero(18)).theta;
        double previous = INFINITY;
        for (double eps : {10.0, 1e3, 1e6}) {
            const auto model = learner.fit(eps, *noise, nullptr, {}, {});
            const auto& g = dynamic_cast<const GaussianLmModel&>(*model);
            QVERIFY(!model->stopped());
            const double distance = (g.phi() - star).norm() / star.norm();
            QVERIFY2(distance < previous, qPrintable(QString("ε = %1: %2").arg(eps).arg(distance)));
            previous = distance;
        }
        QVERIFY(previous < 1e-3);
        QVERIFY(learner.utility(*learner.fit(10.0, *noise, nullptr, {}, {})) > 0.9);
    }

    void deterministicAndThreadIndependent() {
        const Blobs b = blobs(200, 4, 6, 0.2);
        const SweepData data{b.features, b.y, nullptr, std::nullopt, 4};
        const auto prepared = prepareProblem(data, glmSpec(), UtilityMetric::TrainAccuracy);
        const PrivateLearner& learner = prepared->learner();
        QCOMPARE(learner.models(), 1); // natively multiclass: no budget split
        QVERIFY(!learner.capabilities().taylor);
        Eigen::MatrixXd one, two;
        tbb::task_arena(1).execute(
            [&] { one = learner.fit(2.0, *learner.drawNoise(3, 1), nullptr, {}, {})->scores(data.trainX); });
        tbb::task_arena(2).execute(
            [&] { two = learner.fit(2.0, *learner.drawNoise(3, 1), nullptr, {}, {})->scores(data.trainX); });
        QCOMPARE(one.cols(), Eigen::Index(4));
        QVERIFY(one == two);
        const PrivacyGuarantee g = learner.guarantee(2.0);
        QCOMPARE(QString::fromStdString(g.notion), QString("ε-DP"));
        ELAB_EXACT(g.delta, 0.0);
        ELAB_RELATIVE(g.parameter("zeta"), 2.0 * std::sqrt(12.0), 1e-15);
        ELAB_EXACT(g.parameter("rank"), 3.0);
        // Binary data (±1 labels): one score column whose sign is the class.
        const Blobs two_ = blobs(100, 2, 7);
        const GaussianLmLearner binary({two_.features, two_.y, nullptr, std::nullopt, 0}, glmSpec(),
                                       UtilityMetric::TrainAccuracy);
        const auto fit = binary.fit(50.0, *binary.drawNoise(1, 0), nullptr, {}, {});
        QCOMPARE(fit->outputs(), 1);
        QVERIFY(binary.utility(*fit) > 0.9);
    }

    void badInputIsRefused() {
        const Blobs b = blobs(30, 3, 1);
        MechanismSpec logistic = glmSpec();
        logistic.model.loss = Loss(LossKind::Logistic);
        QVERIFY(!logistic.validate().empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaussianLmLearner({b.features, b.y, nullptr, std::nullopt, 3},
                                                                          logistic, UtilityMetric::TrainAccuracy));
        DenseMatrix wide = DenseMatrix::Zero(2, 3000); // (3001·3002/2)·3 classes > 4·10⁶ parameters
        Eigen::VectorXd y(2);
        y << 0, 1;
        const FeatureMatrix X(wide);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaussianLmLearner({X, y, nullptr, std::nullopt, 3}, glmSpec(),
                                                                          UtilityMetric::TrainAccuracy));
    }
};

QTEST_GUILESS_MAIN(TestGaussianLm)
#include "test_gaussian_lm.moc"
