#include "core/learner/prepared_problem.h"

namespace elab::core {

std::shared_ptr<const TrainedModel> PreparedProblem::reference(std::stop_token stop, const FitOptions& options) const {
    const std::lock_guard lock(m_mutex);
    if (m_reference && options == m_referenceOptions)
        return m_reference;
    std::shared_ptr<const TrainedModel> fit = m_learner->fitNonPrivate(std::move(stop), options);
    if (!fit->stopped()) {
        m_reference = fit;
        m_referenceOptions = options;
    }
    return fit;
}

} // namespace elab::core
