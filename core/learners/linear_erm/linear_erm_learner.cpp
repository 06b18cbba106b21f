#include "core/learners/linear_erm/linear_erm_learner.h"

#include "core/learner/prediction.h"
#include "core/util/noise.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

struct LinearErmNoise final : LearnerNoise {
    std::vector<NoiseDraw> draws; ///< one per model
};

const LinearErmModel& linearModel(const TrainedModel& model) {
    const auto* m = dynamic_cast<const LinearErmModel*>(&model);
    if (!m)
        throw std::invalid_argument("not a model of the linear ERM learner");
    return *m;
}

const std::vector<NoiseDraw>& draws(const LearnerNoise& noise) {
    const auto* n = dynamic_cast<const LinearErmNoise*>(&noise);
    if (!n)
        throw std::invalid_argument("not the noise of the linear ERM learner");
    return n->draws;
}

} // namespace

Eigen::MatrixXd LinearErmModel::scores(const FeatureMatrix& X) const {
    std::vector<Eigen::VectorXd> thetas;
    for (const PrivateFit& f : m_fits)
        thetas.push_back(f.theta);
    return linearScores(X, thetas);
}

void LinearErmModel::record(SolverSummary& summary, double eps, int repetition) const {
    const bool single = m_fits.size() == 1;
    for (std::size_t k = 0; k < m_fits.size(); ++k)
        summary.add(solverRecord(m_fits[k].solver, eps, repetition, single ? -1 : static_cast<int>(k)));
}

LearnerCapabilities LinearErmLearner::capabilities() const {
    LearnerCapabilities c;
    c.taylor = m_problem.spec().kind == MechanismKind::ObjPertGauss;
    c.warmStart = true;
    c.lossBound = m_problem.spec().kind != MechanismKind::NonPrivate;
    return c;
}

std::shared_ptr<const LearnerNoise> LinearErmLearner::drawNoise(std::uint64_t seed, int repetition) const {
    auto noise = std::make_shared<LinearErmNoise>();
    noise->draws = m_problem.drawNoise(seed, repetition);
    return noise;
}

namespace {

// Points of the warm-start path a start is extrapolated from: the warm model and up to three
// fits before it. The cubic saves Newton steps over the quadratic through three (sweeps of 20 ε
// × 10 repetitions, objective perturbation: a9a Gaussian 606 → 578 steps, breast_cancer 559 →
// 535, digits 6508 → 6455, sparse 20 k 624 → 579; pure ε 750 → 748, 656 → 651, 6605 → 6509,
// 904 → 925). Four points back, nothing more is gained on a9a.
constexpr std::size_t kPathPoints = 4;

// The start of the next fit at ε from the warm model's minimisers and its path: along a sweep
// the minimiser moves smoothly in u = 1/ε (the noise terms scale with it), so extrapolate with
// the polynomial in u through the last (up to kPathPoints) minimisers. Far outside their span
// (more than twice the last step) the warm model's minimisers as they are.
std::vector<Eigen::VectorXd> extrapolatedStart(double eps, const std::vector<PathPoint>& points) {
    std::vector<double> u;
    for (const PathPoint& p : points) {
        if (u.size() == kPathPoints || !(p.eps > 0.0) || !std::isfinite(p.eps) ||
            p.minimisers.size() != points[0].minimisers.size())
            break;
        const double ui = 1.0 / p.eps;
        if (std::find(u.begin(), u.end(), ui) != u.end())
            break;
        u.push_back(ui);
    }
    std::vector<Eigen::VectorXd> start = points[0].minimisers;
    if (u.size() < 2 || !std::isfinite(eps) || !(eps > 0.0))
        return start;
    const double target = 1.0 / eps;
    if (std::abs(target - u[0]) > 2.0 * std::abs(u[0] - u[1]))
        return start;
    // Lagrange weights of the points at u = target.
    std::vector<double> weight(u.size(), 1.0);
    for (std::size_t j = 0; j < u.size(); ++j)
        for (std::size_t m = 0; m < u.size(); ++m)
            if (m != j)
                weight[j] *= (target - u[m]) / (u[j] - u[m]);
    for (std::size_t k = 0; k < start.size(); ++k) {
        start[k] *= weight[0];
        for (std::size_t j = 1; j < u.size(); ++j)
            start[k] += weight[j] * points[j].minimisers[k];
    }
    return start;
}

} // namespace

std::shared_ptr<const TrainedModel> LinearErmLearner::fit(double eps, const LearnerNoise& noise,
                                                          const TrainedModel* warm, std::stop_token stop,
                                                          const FitOptions& options) const {
    std::vector<PathPoint> path;
    std::vector<Eigen::VectorXd> start;
    if (warm) {
        const LinearErmModel& w = linearModel(*warm);
        // The warm model and its path, most recent first; the new model keeps all but the oldest.
        std::vector<PathPoint> points{{w.eps(), OneVsRest::minimisers(w.fits())}};
        for (std::size_t k = 0; k < w.path().size() && points.size() < kPathPoints; ++k)
            points.push_back(w.path()[k]);
        // Any start gives the same minimiser (strongly convex); a good one saves Newton steps.
        start = extrapolatedStart(eps, points);
        path.assign(points.begin(),
                    points.begin() + static_cast<std::ptrdiff_t>(std::min(points.size(), kPathPoints - 1)));
    }
    return std::make_shared<LinearErmModel>(
        m_problem.fit(eps, draws(noise), warm ? &start : nullptr, std::move(stop), newtonCgOptions(options)), eps,
        std::move(path));
}

std::shared_ptr<const TrainedModel> LinearErmLearner::fitNonPrivate(std::stop_token stop,
                                                                    const FitOptions& options) const {
    return std::make_shared<LinearErmModel>(m_problem.fitNonPrivate(std::move(stop), newtonCgOptions(options)));
}

double LinearErmLearner::utility(const TrainedModel& model) const {
    return m_problem.utility(linearModel(model).fits());
}

double LinearErmLearner::trainLossBound(double eps, const TrainedModel& nonPrivate) const {
    if (!capabilities().lossBound)
        return PrivateLearner::trainLossBound(eps, nonPrivate);
    return m_problem.trainLossBound(eps, linearModel(nonPrivate).fits());
}

TaylorPoint LinearErmLearner::taylorPoint(double eps, const LearnerNoise& noise, const TrainedModel& fit,
                                          bool secondOrder, std::vector<TaylorPoint>* perModel) const {
    if (!capabilities().taylor)
        return PrivateLearner::taylorPoint(eps, noise, fit, secondOrder, perModel);
    return m_problem.taylorPoint(eps, draws(noise), linearModel(fit).fits(), secondOrder, perModel);
}

TaylorAnchor LinearErmLearner::taylorAnchor(const LearnerNoise& noise, const TrainedModel& nonPrivate,
                                            std::vector<TaylorAnchor>* perModel) const {
    if (!capabilities().taylor)
        return PrivateLearner::taylorAnchor(noise, nonPrivate, perModel);
    return m_problem.taylorAnchor(draws(noise), linearModel(nonPrivate).fits(), perModel);
}

std::vector<NoiseExpansion> LinearErmLearner::noiseExpansions(const TrainedModel& nonPrivate) const {
    if (!capabilities().taylor)
        return PrivateLearner::noiseExpansions(nonPrivate);
    return m_problem.noiseExpansions(linearModel(nonPrivate).fits());
}

} // namespace elab::core
