#pragma once
// The one interface of every private learner (issue 10): linear ERM mechanisms with
// one-vs-rest today (core/learners/linear_erm/linear_erm_learner.h); a multiclass Gaussian classifier and a
// DP-SGD network are one more implementation each. Callers (utility sweep, choose-ε, CLI, GUI)
// never switch on a mechanism's kind: they ask capabilities().
//
// Protocol, per repetition r of a run with seed s:
//   noise = drawNoise(s, r)                       — drawn once, reused at every ε (MATH.md §0.2)
//   model = fit(ε, *noise, warm, stop, options)   — warm: an earlier fit of the same noise at
//                                                   another ε, used only if capabilities().warmStart
//   utility(*model), guarantee(ε)
// A learner is built for one training set and one utility metric and is immutable: every
// const member may be called from any thread at once.

#include "core/learner/fit_options.h"
#include "core/learner/mechanism.h"
#include "core/learner/trained_model.h"
#include "core/learner/utility_estimate.h"
#include "core/learner/utility_metric.h"
#include "core/util/noise.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <vector>

namespace elab::core {

struct LearnerCapabilities {
    /// F′(ε), F″(ε) and the anchor at ε = ∞ (taylorPoint, taylorAnchor; MATH.md §4).
    bool taylor = false;
    /// fit() may start from a fit at another ε without spending privacy: true where the released
    /// model is a function of the exact minimiser only (MATH.md §0.4), never for DP-SGD.
    bool warmStart = false;
    /// Trains in epochs: trainEpochs() streams loss and accuracy per epoch (DP-SGD).
    bool epochs = false;
    /// trainLossBound(): an upper bound on the expected training loss at ε (MATH.md §4.5).
    bool lossBound = false;
};

/// One epoch of a run (capabilities().epochs): the model as it stands after it, no dropout.
struct EpochMetrics {
    int epoch = 0; ///< 1-based
    long long steps = 0;
    double trainLoss = 0.0, trainAccuracy = 0.0; ///< on at most 5,000 evenly spaced training rows
    double testLoss = 0.0, testAccuracy = 0.0;   ///< NaN without a test set
};

/// One repetition's noise, whatever the learner needs (Gaussian/Gamma draws, a seed for SGD).
class LearnerNoise {
public:
    virtual ~LearnerNoise() = default;
};

class PrivateLearner {
public:
    virtual ~PrivateLearner() = default;

    virtual LearnerCapabilities capabilities() const = 0;
    /// The metric utility() measures (train or test loss or accuracy).
    virtual UtilityMetric metric() const = 0;
    /// K for a multiclass target, 0 for a binary one (as SweepData::classes).
    virtual int classes() const = 0;
    /// Models trained per fit (one-vs-rest: K, each at ε/K), else 1. Only for reporting.
    virtual int models() const { return 1; }

    /// Repetition's noise from the stream (seed, repetition) — never from a thread or clock.
    virtual std::shared_ptr<const LearnerNoise> drawNoise(std::uint64_t seed, int repetition) const = 0;
    /// The model released at ε > 0 with this noise. warm: see above (nullptr: cold start).
    virtual std::shared_ptr<const TrainedModel> fit(double eps, const LearnerNoise& noise, const TrainedModel* warm,
                                                    std::stop_token stop, const FitOptions& options) const = 0;
    /// The non-private model (ε = ∞, no noise): the reference line and the Taylor anchor's θ.
    virtual std::shared_ptr<const TrainedModel> fitNonPrivate(std::stop_token stop,
                                                              const FitOptions& options) const = 0;
    /// What fit() at ε guarantees (for every model it trains together).
    virtual PrivacyGuarantee guarantee(double eps) const = 0;
    /// metric() of a model of this learner, from its scores (core/learner/prediction.h).
    virtual double utility(const TrainedModel& model) const = 0;

    /// capabilities().epochs only (else std::logic_error): one run at ε (+∞: non-private) with the
    /// repetition's streams, onEpoch called on the calling thread after each epoch. Returns every
    /// epoch's metrics (fewer if stopped).
    virtual std::vector<EpochMetrics> trainEpochs(double eps, std::uint64_t seed, int repetition, std::stop_token stop,
                                                  const std::function<void(const EpochMetrics&)>& onEpoch) const;

    /// capabilities().lossBound only (else std::logic_error): the theory's upper bound on the
    /// expected training loss of the model released at ε (over the noise), from the non-private
    /// model (docs/MATH.md §4.5). NaN where it does not apply.
    virtual double trainLossBound(double eps, const TrainedModel& nonPrivate) const;
    /// capabilities().taylor only (else std::logic_error): F, F′ (and F″) at ε from a fit at ε
    /// with this noise. perModel, if given and the learner trains several models, receives
    /// each model's point at its own ε (one-vs-rest: ε/K, MATH.md §3.7).
    virtual TaylorPoint taylorPoint(double eps, const LearnerNoise& noise, const TrainedModel& fit, bool secondOrder,
                                    std::vector<TaylorPoint>* perModel = nullptr) const;
    /// capabilities().taylor only: the anchor at ε = ∞ from the non-private model; perModel as above.
    virtual TaylorAnchor taylorAnchor(const LearnerNoise& noise, const TrainedModel& nonPrivate,
                                      std::vector<TaylorAnchor>* perModel = nullptr) const;
    /// capabilities().taylor only: the variance estimator's expansion of each model (in class order;
    /// one for a binary classifier; model k is trained at ε/K) around the non-private model, from
    /// the training data alone (no noise draw; MATH.md §4.7).
    virtual std::vector<NoiseExpansion> noiseExpansions(const TrainedModel& nonPrivate) const;
};

} // namespace elab::core
