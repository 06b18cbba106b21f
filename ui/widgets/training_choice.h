#pragma once
// What every view that trains a mechanism chooses the same way: the data preparation, the
// held-out fraction, the mechanism and the seed. The settings of the Utility, Decision regions
// and Privacy audit views derive from it (their fields read `settings.mechanism`, …), the
// mechanism panel edits it, and their defaulted operator== compares it as below. No Qt types:
// copied freely across threads.

#include "core/data/preprocess.h"
#include "core/learner/mechanism.h"

#include <cstdint>

namespace elab::ui {

struct TrainingChoice {
    /// Norm (clip by default), bounds, standardise, intercept (on: a data-independent step, so
    /// privacy-safe), positive class; applied to the loaded dataset before any fit (MATH.md §1).
    core::PreprocessOptions preprocess = [] {
        core::PreprocessOptions p;
        p.intercept = true;
        return p;
    }();
    double testFraction = 0.0;     ///< > 0: held-out split by per-row coins
    core::MechanismSpec mechanism; ///< kind, loss, Λ (sum form), δ, its own block (objective perturbation by default)
    std::uint64_t seed = 1;        ///< split, noise and any other draw

    /// The preparation as its form steps (core::sameFormSteps), the mechanism as
    /// core::sameMechanism compares it, the fraction and the seed exactly.
    bool operator==(const TrainingChoice& other) const {
        return core::sameFormSteps(preprocess, other.preprocess) && testFraction == other.testFraction &&
               core::sameMechanism(mechanism, other.mechanism) && seed == other.seed;
    }
};

} // namespace elab::ui
