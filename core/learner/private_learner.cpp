#include "core/learner/private_learner.h"

#include <stdexcept>

namespace elab::core {

TaylorPoint PrivateLearner::taylorPoint(double, const LearnerNoise&, const TrainedModel&, bool,
                                        std::vector<TaylorPoint>*) const {
    throw std::logic_error("this learner has no Taylor estimates (capabilities().taylor is false)");
}

TaylorAnchor PrivateLearner::taylorAnchor(const LearnerNoise&, const TrainedModel&, std::vector<TaylorAnchor>*) const {
    throw std::logic_error("this learner has no Taylor estimates (capabilities().taylor is false)");
}

} // namespace elab::core
