#include "core/stability/stability_learner.h"

#include "core/learner/prediction.h"
#include "core/model/linear_objective.h"
#include "core/model/sparse_rows.h"
#include "core/optim/cholesky_factor.h"
#include "core/stability/dropout_gd.h"
#include "core/stability/dropout_objective.h"

#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace elab::core {

const OptionNames<StabilityModel>& stabilityModelNames() {
    static const OptionNames<StabilityModel> names{{StabilityModel::Logistic, "logistic"},
                                                   {StabilityModel::Linear, "linear"}};
    return names;
}

const char* toString(StabilityModel value) { return optionName(stabilityModelNames(), value); }

const OptionNames<StabilityMethod>& stabilityMethodNames() {
    static const OptionNames<StabilityMethod> names{{StabilityMethod::None, "none"},
                                                    {StabilityMethod::L2, "l2"},
                                                    {StabilityMethod::Dropout, "dropout"},
                                                    {StabilityMethod::DeterministicDropout, "deterministic-dropout"}};
    return names;
}

const char* toString(StabilityMethod value) { return optionName(stabilityMethodNames(), value); }

StabilityModel stabilityModelFromString(const std::string& name) {
    return parseOptionName(stabilityModelNames(), name, "model");
}

StabilityMethod stabilityMethodFromString(const std::string& name) {
    return parseOptionName(stabilityMethodNames(), name, "method");
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
    return linearScores(X, model.theta, model.intercept);
}

double predictionError(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y) {
    const Eigen::MatrixXd scores = predict(fit, X);
    return model == StabilityModel::Linear ? meanSquaredErrorOf(scores, y) : errorRateOf(scores, y);
}

double meanLoss(StabilityModel model, const LinearModel& fit, const FeatureMatrix& X, const Eigen::VectorXd& y) {
    return meanLossOf(lossOf(model), predict(fit, X), y);
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
    NewtonCgResult r =
        minimizeNewtonCg(objective, Eigen::VectorXd::Zero(objective.dimension()), options.solver, stop, callback);
    // The separable stop ends the run on purpose: report it as converged to the stop rule.
    fit.status = fit.separable && r.status == NewtonCgStatus::Stopped && !stop.stop_requested()
                     ? NewtonCgStatus::Converged
                     : r.status;
    fit.iterations = r.iterations;
    fit.model.theta = std::move(r.theta);
    return fit;
}

// L2 on sparse rows with p ≫ n: the Hessian XᵀDX/n + μI (D = diag ℓ''_i) is inverted exactly
// through the n × n system of the Woodbury identity, with U = XᵀD^{1/2}:
//   (μI + UUᵀ/n)⁻¹ r = (r − U (nμI + D^{1/2} G D^{1/2})⁻¹ Uᵀ r) / μ,   G = XXᵀ.
// As M = ∇²J, CG needs one or two iterations per Newton step instead of hundreds with the
// Jacobi preconditioner. Objective, gradient and Hessian products are LinearObjective's.
class DualPreconditionedL2 : public LinearObjective {
public:
    DualPreconditionedL2(const FeatureMatrix& X, const Eigen::VectorXd& y, Loss loss, double mu,
                         const Eigen::MatrixXd& gram)
        : LinearObjective(X, y, loss, mu), m_rows(X), m_targets(y), m_gram(gram) {
        keepPredictions(); // the preconditioner reads them at every Newton step
    }

    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> preconditioner() const override {
        const Eigen::VectorXd& p = predictions();
        const Eigen::Index n = p.size();
        Eigen::VectorXd d2(n);
        for (Eigen::Index i = 0; i < n; ++i)
            d2[i] = std::max(0.0, loss().d2(p[i], m_targets[i]));
        // Keep the factor while the curvatures stay close to those it was formed at (Σ|Δℓ''| ≤
        // 25 % of Σℓ'': CG then still needs only a few iterations); the n³/3 Cholesky dominates.
        const double base = m_anchorD2.size() == n ? m_anchorD2.sum() : 0.0;
        if (!(m_llt && base > 0.0 && (d2 - m_anchorD2).lpNorm<1>() <= kReuseChange * base)) {
            m_llt.reset(); // replaced below: not held beside the new one while it is formed
            auto s = std::make_shared<Eigen::VectorXd>(d2.cwiseSqrt());
            Eigen::MatrixXd K = s->asDiagonal() * m_gram * s->asDiagonal();
            K.diagonal().array() += static_cast<double>(n) * mu();
            m_llt = CholeskyFactor::make(std::move(K));
            if (!m_llt)
                return LinearObjective::preconditioner();
            m_s = std::move(s);
            m_anchorD2 = std::move(d2);
        }
        const SparseMatrix* X = &m_rows.sparse();
        const double invMu = 1.0 / mu();
        return [llt = m_llt, s = m_s, X, invMu](const Eigen::VectorXd& r, Eigen::VectorXd& out) {
            Eigen::VectorXd z;
            sparseRowDots(*X, nullptr, r, z);
            z.array() *= s->array();
            llt->solveInPlace(z);
            z.array() *= s->array();
            Eigen::VectorXd u;
            sparseTransposedProduct(*X, nullptr, z, u);
            out = invMu * (r - u);
        };
    }

private:
    const FeatureMatrix& m_rows;
    const Eigen::VectorXd& m_targets;
    const Eigen::MatrixXd& m_gram;
    static constexpr double kReuseChange = 0.25;
    mutable Eigen::VectorXd m_anchorD2;
    mutable std::shared_ptr<const CholeskyFactor> m_llt;
    mutable std::shared_ptr<Eigen::VectorXd> m_s;
};

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
                      std::stop_token stop, Index leaveOut, const Eigen::MatrixXd* gram) {
    const Loss loss = lossOf(options.model);
    switch (method) {
    case StabilityMethod::None: {
        LinearObjective objective(X, y, loss, 0.0);
        objective.keepPredictions(); // the separable stop reads them after every Newton step
        return fitWithSeparableStop(objective, y, options, stop);
    }
    case StabilityMethod::L2: {
        if (usesRowGram(X) && mu > 0.0) {
            Eigen::MatrixXd own;
            if (!gram || gram->rows() != X.rows())
                own = rowGram(X);
            DualPreconditionedL2 objective(X, y, loss, mu, gram && gram->rows() == X.rows() ? *gram : own);
            return fitNewton(objective, X.cols(), warm, options, stop);
        }
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

bool usesRowGram(const FeatureMatrix& X) { return X.isSparse() && X.cols() > X.rows(); }

Eigen::MatrixXd rowGram(const FeatureMatrix& X) {
    if (!X.isSparse())
        return X.dense() * X.dense().transpose();
    const SparseMatrix& S = X.sparse();
    return Eigen::MatrixXd(S * SparseMatrix(S.transpose()));
}

Eigen::MatrixXd selectGram(const Eigen::MatrixXd& gram, const std::vector<Index>& rows) {
    const auto m = static_cast<Index>(rows.size());
    Eigen::MatrixXd out(m, m);
    for (Index b = 0; b < m; ++b)
        for (Index a = 0; a < m; ++a)
            out(a, b) = gram(rows[static_cast<std::size_t>(a)], rows[static_cast<std::size_t>(b)]);
    return out;
}

LearnerFit fitLearner(StabilityMethod method, const FeatureMatrix& X, const Eigen::VectorXd& y,
                      const LearnerOptions& options, double mu, std::uint64_t seed, const LinearModel* warm,
                      std::stop_token stop, Index leaveOut, const Eigen::MatrixXd* gram) {
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
        Eigen::MatrixXd subGram;
        if (gram && gram->rows() == X.rows())
            subGram = selectGram(*gram, rows);
        return fitLearner(method, X.selectRows(rows), ySubset, options, mu, seed, warm, stop, -1,
                          subGram.size() > 0 ? &subGram : nullptr);
    }
    LearnerFit fit;
    if (!options.fitIntercept) {
        fit = fitCentred(method, X, y, options, mu, seed, warm, stop, leaveOut, gram);
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
        fit = fitCentred(method, centred, yCentred, options, mu, seed, warm, stop, leaveOut, nullptr);
        fit.model.intercept = yMean - xMean.dot(fit.model.theta);
    }
    fit.trainLoss = meanLoss(options.model, fit.model, X, y);
    return fit;
}

} // namespace elab::core
