#include "core/learners/linear_erm/private_fit.h"

#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/model/linear_objective.h"
#include "core/model/merged_rows.h"

namespace elab::core {

namespace {

PrivateFit solve(LinearObjective& objective, PerturbedProblem& problem, Index p, const Eigen::VectorXd* warmStart,
                 std::stop_token stop, const NewtonCgOptions& options, const Eigen::MatrixXd* gram,
                 const PrefixTree* prefixTree) {
    if (gram && gram->size() > 0)
        objective.setGram(gram);
    objective.setPrefixTree(prefixTree);
    PrivateFit fit;
    fit.solver =
        minimizeNewtonCg(objective, warmStart ? *warmStart : Eigen::VectorXd::Zero(p), options, std::move(stop));
    fit.minimiser = fit.solver.theta;
    fit.theta = fit.minimiser;
    if (problem.outputNoise.size() > 0)
        fit.theta += problem.outputNoise;
    else // the objective was last evaluated at the minimiser (every exit of minimizeNewtonCg)
        fit.trainLoss = objective.dataLoss();
    fit.guarantee = std::move(problem.guarantee);
    if (fit.solver.status != NewtonCgStatus::Converged)
        fit.guarantee.notes.push_back(std::string("solver did not converge (") + toString(fit.solver.status) +
                                      "): the guarantee assumes the exact minimiser");
    return fit;
}

} // namespace

PrivateFit fitPrivate(const FeatureMatrix& X, Labels y, const MechanismSpec& spec, double eps, const NoiseDraw& noise,
                      const Eigen::VectorXd* warmStart, std::stop_token stop, const NewtonCgOptions& options,
                      const Eigen::MatrixXd* gram, const Eigen::VectorXd* rowScale, const PrefixTree* prefixTree) {
    PerturbedProblem problem = perturbedProblem(spec, X.rows(), eps, noise);
    LinearObjective objective(X, y, spec.model.loss, problem.mu, problem.linear, rowScale);
    return solve(objective, problem, X.cols(), warmStart, std::move(stop), options, gram, prefixTree);
}

PrivateFit fitPrivate(const MergedRows& rows, const Eigen::VectorXd& plus, const MechanismSpec& spec, double eps,
                      const NoiseDraw& noise, const Eigen::VectorXd* warmStart, std::stop_token stop,
                      const NewtonCgOptions& options, const Eigen::MatrixXd* gram, const Eigen::VectorXd* rowScale,
                      const PrefixTree* prefixTree) {
    // n: the training set's rows, not the distinct ones (the guarantee and μ, c depend on n).
    PerturbedProblem problem = perturbedProblem(spec, rows.originalRows, eps, noise);
    LinearObjective objective(rows.X, plus, rows.count, spec.model.loss, problem.mu, problem.linear, rowScale);
    return solve(objective, problem, rows.X.cols(), warmStart, std::move(stop), options, gram, prefixTree);
}

} // namespace elab::core
