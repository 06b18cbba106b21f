#include "core/learner/solver_summary.h"

#include <algorithm>

namespace elab::core {

void SolverSummary::add(const SolverRecord& record) {
    ++fits;
    maxIterations = std::max(maxIterations, record.iterations);
    worstGradientNorm = std::max(worstGradientNorm, record.gradientNorm);
    if (record.status == NewtonCgStatus::Converged)
        ++converged;
    else
        notConverged.push_back(record);
}

void SolverSummary::merge(const SolverSummary& other) {
    fits += other.fits;
    converged += other.converged;
    maxIterations = std::max(maxIterations, other.maxIterations);
    worstGradientNorm = std::max(worstGradientNorm, other.worstGradientNorm);
    notConverged.insert(notConverged.end(), other.notConverged.begin(), other.notConverged.end());
}

SolverRecord solverRecord(const NewtonCgResult& result, double eps, int repetition, int model) {
    return {eps, repetition, model, result.status, result.iterations, result.gradientNorm};
}

} // namespace elab::core
