#pragma once
// A prepared problem (issue 10): one learner for one dataset and its settings (model, privacy,
// metric), with what every run on it shares computed once — the learner's own preparation
// (linear ERM: the Gram matrix XᵀX/n) at construction, the non-private reference fit on first
// use. Build one per (dataset, settings) and keep it while they hold: then a slider probe or a
// single-ε measurement fits only.

#include "core/learner/private_learner.h"
#include "core/learner/sweep_data.h"
#include "core/privacy/composition.h"

#include <memory>
#include <mutex>
#include <stop_token>

namespace elab::core {

class PreparedProblem {
public:
    /// keepAlive: whatever owns the data the learner references (may be null).
    /// pipeline: what the data's preparation did (SweepData::pipeline).
    explicit PreparedProblem(std::shared_ptr<const PrivateLearner> learner, std::shared_ptr<const void> keepAlive = {},
                             PipelineFacts pipeline = {})
        : m_learner(std::move(learner)), m_keepAlive(std::move(keepAlive)), m_pipeline(std::move(pipeline)) {}

    const PrivateLearner& learner() const { return *m_learner; }
    double preparationEpsilon() const { return m_pipeline.preparationEpsilon; }
    const PipelineFacts& pipeline() const { return m_pipeline; }
    /// The guarantee of a model of this problem at eps: the learner's, as a guarantee of the
    /// whole pipeline (core/privacy/composition.h: ε spent on the data added, voided by a leaking
    /// step). Every report uses this one.
    PrivacyGuarantee guarantee(double eps) const { return withPipeline(m_learner->guarantee(eps), m_pipeline); }

    /// The non-private reference fit, fitted on the first call (per fit options) and kept.
    /// A fit cut short by stop is returned (stopped()) but not kept. Thread: any; concurrent
    /// callers wait for one fit.
    std::shared_ptr<const TrainedModel> reference(std::stop_token stop, const FitOptions& options) const;

private:
    std::shared_ptr<const PrivateLearner> m_learner;
    std::shared_ptr<const void> m_keepAlive;
    PipelineFacts m_pipeline;
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<const TrainedModel> m_reference;
    mutable FitOptions m_referenceOptions;
};

/// Built by prepareProblem (core/mechanisms/mechanism_catalog.h).

} // namespace elab::core
