#include "core/stability/stability_learner.h"

#include "core/model/linear_objective.h"
#include "core/stability/dropout_gd.h"
#include "core/stability/dropout_objective.h"

#include <cmath>
#include <optional>
#include <stdexcept>

namespace elab::core {

const char* toString(StabilityModel model) { return model == StabilityModel::Logistic ? "logistic" : "linear"; }

const char* toString(StabilityMethod method) {
    switch (method) {
    case StabilityMethod::None: return "none";
    case StabilityMethod::L2: return "l2";
    case StabilityMethod::Dropout: return "dropout";
    case StabilityMethod::DeterministicDropout: return "deterministic-dropout";
    }
    return "?";
}

StabilityModel stabilityModelFromString(const std::string& name) {
    if (name == "logistic")
        return StabilityModel::Logistic;
    if (name == "linear")
        return StabilityModel::Linear;
    throw std::invalid_argument("unknown model '" + name + "' (logistic, linear)");
}

StabilityMethod stabilityMethodFromString(const std::string& name) {
    for (auto m : {StabilityMethod::None, StabilityMethod::L2, StabilityMethod::Dropout,
                   StabilityMethod::DeterministicDropout})
        if (name == toString(m))
            return m;
    throw std::invalid_argument("unknown method '" + name + "' (none, l2, dropout, deterministic-dropout)");
}

Loss lossOf(StabilityModel model) {
    return Loss(model == StabilityModel::Logistic ? LossKind::Logistic : LossKind::Squared);
}

std::string LearnerOptions::validate() const {
    if (!(keep > 0.0 && keep <= 1.0))
        return "the keep probability q must be in (0, 1] (dropout rate 1 − q in [0, 1))";
    if (fitIntercept && model != StabilityModel::Linear)
        return "the intercept by centring is for linear regression only";
    if (l2Grid.empty())
        return "the L2 grid is empty";
    for (double mu : l2Grid)
        if (!(mu > 0.0) || !std::isfinite(mu))
            return "every L2 grid value must be a finite number > 0";
    if (cvFolds < 2)
        return "cross-validation needs at least 2 folds";
    if (epochs < 1 || batchSize < 1)
        return "dropout GD needs epochs ≥ 1 and a batch size ≥ 1";
    if (!(stepSize >= 0.0))
        return "the step size must be ≥ 0 (0: automatic)";
    if (hermiteNodes < 20 || hermiteNodes > 200)
        return "Gauss–Hermite needs 20 to 200 nodes";
    if (!(separableLoss > 0.0))
        return "the separable stop level must be > 0";
    return solver.validate();
}

Eigen::VectorXd predict(const LinearModel& model, const FeatureMatrix& X) {
    Eigen::VectorXd p;
    multiply(X, model.theta, p);
    p.array() += model.intercept;
    return p;
}

double predictionError(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y) {
    const Eigen::VectorXd p = predict(fit, X);
    if (p.size() == 0)
        return NAN;
    if (model == StabilityModel::Linear)
        return (p - y).squaredNorm() / static_cast<double>(p.size());
    Eigen::Index wrong = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i)
        wrong += y[i] * p[i] <= 0.0 ? 1 : 0;
    return static_cast<double>(wrong) / static_cast<double>(p.size());
}

double meanLoss(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y) {
    const Eigen::VectorXd p = predict(fit, X);
    const Loss loss = lossOf(model);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < p.size(); ++i)
        sum += loss.value(p[i], y[i]);
    return p.size() > 0 ? sum / static_cast<double>(p.size()) : NAN;
}

namespace {

// Newton-CG from 0 with the separable stop (logistic): once every training margin is > 0 and
// the objective is ≤ separableLoss, stop and flag. Squared loss: plain Newton-CG.
template <typename ObjectiveType>
LearnerFit fitWithSeparableStop(ObjectiveType& objective, const Eigen::VectorXd& y, const LearnerOptions& options,
                                std::stop_token stop) {
    LearnerFit fit;
    auto separating = [&] {
        const Eigen::VectorXd& p = objective.predictions();
        return p.size() > 0 && (y.array() * p.array() > 0.0).all();
    };
    IterationCallback callback;
    if (options.model == StabilityModel::Logistic)
        callback = [&](int, double value, double) {
            if (separating())
                fit.separable = true;
            return !(fit.separable && value <= options.separableLoss);
        };
    NewtonCgResult r = minimizeNewtonCg(objective, Eigen::VectorXd::Zero(objective.dimension()), options.solver, stop,
                                        callback);
    // The separable stop ends the run on purpose: report it as converged to the stop rule.
    fit.status = fit.separable && r.status == NewtonCgStatus::Stopped && !stop.stop_requested()
                     ? NewtonCgStatus::Converged
                     : r.status;
    fit.iterations = r.iterations;
    fit.model.theta = std::move(r.theta);
    return fit;
}

LearnerFit fitNewton(Objective& objective, Eigen::Index p, const LinearModel* warm, const LearnerOptions& options,
                     std::stop_token stop) {
    Eigen::VectorXd start = warm && warm->theta.size() == p ? warm->theta : Eigen::VectorXd::Zero(p);
    NewtonCgResult r = minimizeNewtonCg(objective, std::move(start), options.solver, stop);
    LearnerFit fit;
    fit.status = r.status;
    fit.iterations = r.iterations;
    fit.model.theta = std::move(r.theta);
    return fit;
}

LearnerFit fitCentred(StabilityMethod method, const FeatureMatrix& X, const Eigen::VectorXd& y,
                      const LearnerOptions& options, double mu, std::uint64_t seed, const LinearModel* warm,
                      std::stop_token stop, Index leaveOut) {
    const Loss loss = lossOf(options.model);
    switch (method) {
    case StabilityMethod::None: {
        LinearObjective objective(X, y, loss, 0.0);
        return fitWithSeparableStop(objective, y, options, stop);
    }
    case StabilityMethod::L2: {
        LinearObjective objective(X, y, loss, mu);
        return fitNewton(objective, X.cols(), warm, options, stop);
    }
    case StabilityMethod::DeterministicDropout: {
        DropoutObjective objective(X, y, loss, options.keep, 0.0, options.hermiteNodes);
        if (options.model == StabilityModel::Logistic)
            return fitWithSeparableStop(objective, y, options, stop);
        return fitNewton(objective, X.cols(), warm, options, stop);
    }
    case StabilityMethod::Dropout: {
        LearnerFit fit;
        const DropoutGdOptions gd{options.keep, options.epochs, options.batchSize, options.stepSize};
        fit.model.theta = dropoutGradientDescent(X, y, loss, gd, seed, stop, &fit.iterations, leaveOut);
        fit.status = stop.stop_requested() ? NewtonCgStatus::Stopped : NewtonCgStatus::Converged;
        return fit;
    }
    }
    throw std::invalid_argument("unknown stability method");
}

} // namespace

LearnerFit fitLearner(StabilityMethod method, const FeatureMatrix& X, const Eigen::VectorXd& y,
                      const LearnerOptions& options, double mu, std::uint64_t seed, const LinearModel* warm,
                      std::stop_token stop, Index leaveOut) {
    if (std::string e = options.validate(); !e.empty())
        throw std::invalid_argument(e);
    if (leaveOut >= 0 && method != StabilityMethod::Dropout) {
        std::vector<Index> rows;
        for (Index i = 0; i < X.rows(); ++i)
            if (i != leaveOut)
                rows.push_back(i);
        Eigen::VectorXd ySubset(static_cast<Index>(rows.size()));
        for (std::size_t k = 0; k < rows.size(); ++k)
            ySubset[static_cast<Index>(k)] = y[rows[k]];
        return fitLearner(method, X.selectRows(rows), ySubset, options, mu, seed, warm, stop);
    }
    LearnerFit fit;
    if (!options.fitIntercept) {
        fit = fitCentred(method, X, y, options, mu, seed, warm, stop, leaveOut);
    } else {
        if (X.isSparse())
            throw std::invalid_argument("the intercept by centring needs dense features");
        // Means over the rows the fit uses (all but leaveOut).
        const DenseMatrix& D = X.dense();
        const bool out = leaveOut >= 0 && leaveOut < D.rows();
        const double used = static_cast<double>(D.rows() - (out ? 1 : 0));
        Eigen::RowVectorXd xMean = D.colwise().sum();
        double yMean = y.sum();
        if (out) {
            xMean -= D.row(leaveOut);
            yMean -= y[leaveOut];
        }
        xMean /= used;
        yMean /= used;
        const FeatureMatrix centred(DenseMatrix(D.rowwise() - xMean));
        const Eigen::VectorXd yCentred = y.array() - yMean;
        fit = fitCentred(method, centred, yCentred, options, mu, seed, warm, stop, leaveOut);
        fit.model.intercept = yMean - xMean.dot(fit.model.theta);
    }
    fit.trainLoss = meanLoss(options.model, fit.model, X, y);
    return fit;
}

} // namespace elab::core
