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

std::vector<NoiseExpansion> PrivateLearner::noiseExpansions(const TrainedModel&) const {
    throw std::logic_error("this learner has no Taylor estimates (capabilities().taylor is false)");
}

std::vector<EpochMetrics> PrivateLearner::trainEpochs(double, std::uint64_t, int, std::stop_token,
                                                      const std::function<void(const EpochMetrics&)>&) const {
    throw std::logic_error("this learner does not train in epochs (capabilities().epochs is false)");
}

double PrivateLearner::trainLossBound(double, const TrainedModel&) const {
    throw std::logic_error("this learner has no utility bound (capabilities().lossBound is false)");
}

} // namespace elab::core
