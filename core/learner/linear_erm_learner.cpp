#include "core/learner/linear_erm_learner.h"

#include "core/learner/prediction.h"

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

std::shared_ptr<const TrainedModel> LinearErmLearner::fit(double eps, const LearnerNoise& noise,
                                                          const TrainedModel* warm, std::stop_token stop,
                                                          const NewtonCgOptions& options) const {
    std::vector<Eigen::VectorXd> start, from;
    double fromEps = 0.0;
    if (warm) {
        const LinearErmModel& w = linearModel(*warm);
        from = OneVsRest::minimisers(w.fits());
        fromEps = w.eps();
        start = from;
        // Along a sweep the minimiser moves smoothly in u = 1/ε (the noise terms scale with it):
        // start from the line through the two previous minimisers. Any start gives the same
        // minimiser (strongly convex); a good one saves Newton steps.
        const auto& before = w.previousMinimisers();
        if (before.size() == from.size() && fromEps > 0.0 && w.previousEps() > 0.0 && w.previousEps() != fromEps &&
            std::isfinite(eps)) {
            const double t = (1.0 / eps - 1.0 / fromEps) / (1.0 / fromEps - 1.0 / w.previousEps());
            if (std::abs(t) <= 2.0)
                for (std::size_t k = 0; k < start.size(); ++k)
                    start[k] += t * (from[k] - before[k]);
        }
    }
    return std::make_shared<LinearErmModel>(m_problem.fit(eps, draws(noise), warm ? &start : nullptr, std::move(stop), options),
                                            eps, std::move(from), fromEps);
}

std::shared_ptr<const TrainedModel> LinearErmLearner::fitNonPrivate(std::stop_token stop,
                                                                    const NewtonCgOptions& options) const {
    return std::make_shared<LinearErmModel>(m_problem.fitNonPrivate(std::move(stop), options));
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

} // namespace elab::core
